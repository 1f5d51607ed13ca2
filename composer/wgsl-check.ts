// The WGSL check without a GPU: naga (wgpu's shader compiler, Firefox's WGSL front end) as WebAssembly, loaded by
// dynamic import on the first check only. Bundlers never see that import (a page that never checks ships no naga, not
// even its 2 MB .wasm as an unused asset); a browser page that checks hands the module in (`options.naga`).
import { mapCompilationInfo } from './compile-errors.js';
import type { ComposedShader } from './compose-shader.js';
import { ComposeError, type MappedShaderMessage, ShaderCompileError } from './errors.js';

/** A naga object that lives in WebAssembly memory. */
export interface NagaWasmObject {
  /** Releases its WebAssembly memory. */
  free(): void;
}

/**
 * What the check uses of the `naga-wasm` module (`await import('naga-wasm')`). Written out here so weft's types do not
 * need naga-wasm, an optional peer dependency, installed.
 */
export interface NagaWasmModule {
  /** Instantiates naga's WebAssembly (browsers; Node's entry is ready at import). */
  init(input?: { module_or_path: URL | string | Response | BufferSource }): Promise<unknown>;
  /** Parses WGSL into a naga module (its memory is freed with `free()`). */
  parseWgsl(source: string): NagaWasmObject;
  /** Validates a parsed module. */
  validate(module: NagaWasmObject): NagaWasmObject;
  /** The error class naga throws, with its formatted report. */
  NagaError: abstract new (
    ...args: never[]
  ) => Error & { readonly formatted: string };
}

type Naga = NagaWasmModule;

/** Where the check finds naga's WebAssembly binary (`naga-wasm/naga_bg.wasm`); see `checkWgslAsync`. */
export interface WgslCheckOptions {
  /**
   * The `naga-wasm` module, for pages built by a bundler: `{ naga: await import('naga-wasm') }` makes your bundler
   * include it where you check (weft's own import of it is hidden from bundlers). Node finds it by itself.
   */
  naga?: Naga;
  /**
   * The binary, when a browser build cannot resolve it next to naga-wasm's module (Vite and webpack 5 do): a URL,
   * a `Response` or the bytes. Ignored in Node, and after the first check (naga is instantiated once per page).
   */
  nagaWasm?: URL | string | Response | BufferSource;
}

// One instantiation per process or page, started by the first check (not at import: no module-level side effect).
let nagaLoading: Promise<Naga> | null = null;

/** The package name in a variable: bundlers leave `import(nagaPackage)` alone instead of emitting naga's files. */
const nagaPackage = 'naga-wasm';

function importNagaAsync(): Promise<Naga> {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ nagaPackage).catch((error: unknown) => {
    throw new ComposeError(
      'checkWgslAsync',
      'missing-package',
      [],
      `the WGSL check needs the optional package ${nagaPackage}, which could not be imported (${(error as Error)?.message ?? error}): npm install ${nagaPackage}; in a bundled page pass { naga: await import('${nagaPackage}') }`,
    );
  }) as Promise<Naga>;
}

function loadNagaAsync(options: WgslCheckOptions): Promise<Naga> {
  nagaLoading ??= (options.naga ? Promise.resolve(options.naga) : importNagaAsync()).then(async (naga) => {
    // In Node, naga-wasm's node entry has already instantiated it; init() then returns at once.
    await naga.init(options.nagaWasm ? { module_or_path: options.nagaWasm } : undefined);
    return naga;
  });
  nagaLoading.catch(() => {
    nagaLoading = null;
  });
  return nagaLoading;
}

/**
 * naga's error as one message and position. A parse error's headline is the message; a validation error's headline
 * only names the function ("Function [3] 'shade' is invalid"), so its last note (the reason) is used instead. The
 * position is the last primary label (`^`) that is not the whole function's: naga's reports list labels by position,
 * and the offending use comes after what it refers to (a validation error's expression, an extra argument's call).
 */
function parseNagaReport(formatted: string): { message: string; line: number; column: number } {
  const lines = formatted.split('\n');
  const headline = (lines[0] ?? '').replace(/^error: /, '').trim();
  const notes = lines.filter((l) => /^\s*= /.test(l)).map((l) => l.replace(/^\s*= (note: )?/, '').trim());
  const message = / is invalid$/.test(headline) && notes.length ? notes[notes.length - 1] : headline;
  const multiline = formatted.includes('╭');
  let sourceLine = 0;
  let found: { line: number; column: number } | null = null;
  for (const l of lines) {
    const source = /^\s*(\d+) │ /.exec(l);
    if (source) {
      sourceLine = Number(source[1]);
      continue;
    }
    const label = /^\s*│ (.*)$/.exec(l);
    if (!label || !sourceLine || /[╰─]/.test(label[1].slice(0, 2))) continue;
    const body = multiline ? label[1].slice(2) : label[1];
    const caret = body.search(/\^/);
    if (caret >= 0 && !/^\^+ naga::ir::Function /.test(body.slice(caret)))
      found = { line: sourceLine, column: caret + 1 };
  }
  if (found) return { message, ...found };
  const at = /┌─ wgsl:(\d+):(\d+)/.exec(formatted);
  return { message, line: at ? Number(at[1]) : 1, column: at ? Number(at[2]) : 1 };
}

/** UTF-16 offset of a 1-based line and column (naga counts columns in characters) in `code`. */
function offsetOf(code: string, line: number, column: number): number {
  let start = 0;
  for (let i = 1; i < line; i++) {
    const next = code.indexOf('\n', start);
    if (next < 0) break;
    start = next + 1;
  }
  const lineEnd = code.indexOf('\n', start);
  const text = code.slice(start, lineEnd < 0 ? code.length : lineEnd);
  return start + [...text].slice(0, Math.max(0, column - 1)).join('').length;
}

/**
 * Checks WGSL with naga, no GPU needed (Node and browsers), and maps its error to the fragment's own line like a
 * device's messages (`mapCompilationInfo`). naga stops at its first error, so the result holds at most one message;
 * an empty array means naga parsed and validated the module. Takes a `ComposedShader` or plain WGSL (then positions
 * stay in the code, under `weft:code`). naga-wasm (about 2 MB of WebAssembly, an optional peer dependency: `npm install
 * naga-wasm`) is imported on the first call only; in a bundled page pass it as `options.naga`.
 * @throws {ComposeError} `missing-package` when naga-wasm cannot be imported.
 */
export async function checkWgslAsync(
  shader: Pick<ComposedShader, 'code' | 'sourceMap'> | string,
  options: WgslCheckOptions = {},
): Promise<MappedShaderMessage[]> {
  const { code, sourceMap } = typeof shader === 'string' ? { code: shader, sourceMap: undefined } : shader;
  const naga = await loadNagaAsync(options);
  let report: string;
  try {
    const module = naga.parseWgsl(code);
    try {
      naga.validate(module).free();
      return [];
    } finally {
      module.free();
    }
  } catch (error) {
    if (!(error instanceof naga.NagaError)) throw error;
    report = error.formatted;
  }
  const { message, line, column } = parseNagaReport(report);
  const offset = offsetOf(code, line, column);
  const info = {
    messages: [{ type: 'error', message, offset, length: 0, lineNum: line, linePos: column }],
  } as unknown as GPUCompilationInfo;
  // wesl's source map can be a column or two off inside a line; where the fragment line is the linked line verbatim,
  // naga's own column is exact.
  const linkedLine = code.split('\n')[line - 1];
  return mapCompilationInfo(code, sourceMap, info).map((m) => (m.lineText === linkedLine ? { ...m, column } : m));
}

/**
 * The opt-in check of `composeShader`'s result before any device sees it: resolves to `shader` when naga accepts the
 * code, and rejects with a `ShaderCompileError` (`api` `checkComposedShaderAsync`) whose `messages` point at the
 * fragment line otherwise. `composeShader` stays synchronous and never loads naga; call this where the check is wanted.
 */
export async function checkComposedShaderAsync<T extends Pick<ComposedShader, 'code' | 'sourceMap'>>(
  shader: T,
  options: WgslCheckOptions & { label?: string } = {},
): Promise<T> {
  const messages = await checkWgslAsync(shader, options);
  if (messages.some((m) => m.type === 'error'))
    throw new ShaderCompileError(
      'checkComposedShaderAsync',
      options.label ?? ('key' in shader ? String(shader.key) : 'shader'),
      messages,
    );
  return shader;
}
