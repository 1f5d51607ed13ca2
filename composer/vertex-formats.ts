import { describeValue } from '../core/errors.js';
import { ComposeError } from './errors.js';
import { wgslScalarKind } from './wgsl-names.js';

/** @internal Byte size, component count and scalar kind of a vertex format. */
export function vertexFormatInfo(
  format: string,
): { size: number; components: number; kind: 'float' | 'uint' | 'sint' } | null {
  if (format === 'unorm10-10-10-2' || format === 'unorm8x4-bgra') return { size: 4, components: 4, kind: 'float' };
  const m = /^(uint|sint|unorm|snorm|float)(8|16|32)(?:x([234]))?$/.exec(format);
  if (!m) return null;
  const [, type, bitsText, countText] = m;
  const bits = Number(bitsText);
  const components = countText ? Number(countText) : 1;
  if (type === 'float' && bits === 8) return null;
  if ((type === 'unorm' || type === 'snorm') && bits === 32) return null;
  if (bits < 32 && components === 3) return null;
  return {
    size: (bits / 8) * components,
    components,
    kind: type === 'uint' ? 'uint' : type === 'sint' ? 'sint' : 'float',
  };
}

/** @internal The WGSL type a vertex format reads as by default (`float32x3` → `vec3f`), or null. */
export function naturalType(format: string): string | null {
  const info = vertexFormatInfo(format);
  if (!info) return null;
  const scalar = info.kind === 'uint' ? 'u32' : info.kind === 'sint' ? 'i32' : 'f32';
  return info.components === 1 ? scalar : `vec${info.components}${scalar[0]}`;
}

/** @internal A vertex input as the fragments declare it, before it has a location. */
export interface CollectedInput {
  semantic: string;
  wgslType: string;
  format: GPUVertexFormat;
  stepMode: GPUVertexStepMode;
  fragments: string[];
}

function formatError(
  api: string,
  ids: string[],
  semantic: string,
  wgslType: string,
  format: unknown,
  where: string,
): ComposeError {
  const info = typeof format === 'string' ? vertexFormatInfo(format) : null;
  const kind = wgslScalarKind(wgslType);
  const allowed =
    kind === 'uint'
      ? 'uint8…uint32 formats'
      : kind === 'sint'
        ? 'sint8…sint32 formats'
        : 'float, unorm and snorm formats';
  const why = info
    ? `a ${info.kind} format cannot feed ${wgslType} (${kind} components)`
    : 'it is not a GPUVertexFormat';
  return new ComposeError(
    api,
    'vertex-format',
    ids,
    `vertex input "${semantic}" (${wgslType}, read by fragment ${ids.map((id) => `"${id}"`).join(', ')}) cannot be read as ${describeValue(format)}${where}: ${why}; allowed: ${allowed} (any component count: missing components read as 0, 0, 0, 1)`,
  );
}

/** @internal Refuses a vertex format whose scalar kind cannot feed the input's WGSL type. */
export function checkFormat(api: string, input: CollectedInput, format: unknown, where: string): void {
  const info = typeof format === 'string' ? vertexFormatInfo(format) : null;
  if (!info || info.kind !== wgslScalarKind(input.wgslType))
    throw formatError(api, input.fragments, input.semantic, input.wgslType, format, where);
}
