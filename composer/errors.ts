import { WeftError } from '../core/errors.js';

/** Why `composeShader` refused a spec. */
export type ComposeErrorCode =
  | 'invalid-fragment'
  /** A fragment, or a declaration in one of its lists, has a key its type does not declare (a typo such as `fill`). */
  | 'unknown-key'
  | 'duplicate-fragment'
  | 'unknown-dependency'
  | 'dependency-cycle'
  | 'unknown-slot'
  | 'slot-conflict'
  | 'missing-slot'
  /** A slot's filler or default is not a function of its fragment's source, or its parameters or return type differ from the slot's. */
  | 'slot-signature'
  | 'binding-clash'
  | 'interface-clash'
  | 'vertex-format'
  /** An output's `format` is not a colour-renderable format of the output's sample type and component count. */
  | 'output-format'
  | 'missing-vertex-input'
  | 'missing-feature'
  | 'invalid-spec'
  /** `spec.bindings` is malformed, or places a used role in no group. */
  | 'binding-policy'
  /** `output: 'library'` with a resource it cannot pass as a value (a texture, sampler or storage buffer). */
  | 'library-resource'
  | 'bad-option'
  | 'link-error'
  /** A build without the run-time linker (weft-gpu/vite) met a spec its precomposed table does not hold. */
  | 'not-precomposed'
  /** A composed shader field is not plain data, so a precomposed table cannot carry it. */
  | 'not-serialisable'
  /** A value given as a precomposed table is not one, or one of its entries is malformed or does not compile. */
  | 'bad-precomposed-table'
  /** A precomposed table of another format or weft version: rebuild it. */
  | 'stale-precomposed-table'
  /** An optional package the call needs is not installed (`naga-wasm` for `checkWgslAsync`). */
  | 'missing-package';

/** A spec the composer cannot link; `fragmentIds` names the fragment(s) at fault. */
export class ComposeError extends WeftError<ComposeErrorCode> {
  readonly fragmentIds: readonly string[];
  /** For `link-error`: where wesl stopped, in the fragment's own source. */
  readonly messages: readonly MappedShaderMessage[];

  constructor(
    api: string,
    code: ComposeErrorCode,
    fragmentIds: readonly string[],
    message: string,
    messages: readonly MappedShaderMessage[] = [],
  ) {
    super(api, code, message);
    this.name = 'ComposeError';
    this.fragmentIds = fragmentIds;
    this.messages = messages;
  }
}

/** One device (or wesl) diagnostic mapped back to a fragment's own source. */
export interface MappedShaderMessage {
  /** The fragment id, or `weft:<module>` for a composer-generated module. */
  fragmentId: string;
  /** 1-based, in the fragment's source. */
  line: number;
  /** 1-based, in the fragment's source. */
  column: number;
  type: GPUCompilationMessageType;
  /** The device's message (first line). */
  message: string;
  /** The offending source line, verbatim. */
  lineText: string;
  /** For lines of generated modules: the fragment that declared what the line holds. */
  origin?: string;
}

/** Formats a mapped message as `fragmentId:line:column: message` (warnings say so) plus the quoted line and a caret. */
export function formatShaderMessage(m: MappedShaderMessage): string {
  const origin = m.origin ? ` (in code generated for fragment "${m.origin}")` : '';
  const caret = `${' '.repeat(Math.max(0, m.column - 1))}^`;
  return `${m.fragmentId}:${m.line}:${m.column}: ${m.type === 'error' ? '' : `${m.type}: `}${m.message}${origin}\n  ${m.lineText}\n  ${caret}`;
}

/** The one code of ShaderCompileError; its `messages` say what failed where. */
export type ShaderCompileErrorCode = 'shader-compile';

/** A shader that failed to compile on the device; `messages` point into the fragments' sources. */
export class ShaderCompileError extends WeftError<ShaderCompileErrorCode> {
  readonly messages: readonly MappedShaderMessage[];

  constructor(api: string, label: string, messages: readonly MappedShaderMessage[]) {
    const errors = messages.filter((m) => m.type === 'error');
    super(
      api,
      'shader-compile',
      `shader ${JSON.stringify(label)} failed to compile with ${errors.length} error(s):\n${messages.map(formatShaderMessage).join('\n')}`,
    );
    this.name = 'ShaderCompileError';
    this.messages = messages;
  }
}
