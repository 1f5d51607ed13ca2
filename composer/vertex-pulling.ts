// Vertex pulling: per-vertex inputs read from storage buffers by index instead of from vertex buffers, so a
// NON-indexed draw of the index count runs the same vertex stage over an indexed mesh and `vertex_index / 3` is the
// triangle number. Instance-step inputs stay vertex buffers. Every fragment still reads `input.<semantic>` and
// `input.vertexIndex` (the mesh's vertex, as in an indexed draw); `input.drawVertexIndex` is the draw's own index.
import type { BindingRole, Fragment } from '../fragments/fragment-types.js';
import { describeValue } from '../core/errors.js';
import { ComposeError } from './errors.js';
import type { ComposedVertexInput } from './vertex-layout.js';
import { vertexFormatInfo } from './vertex-formats.js';

/** How a composed shader pulls its per-vertex inputs (see `ComposeSpec.vertexPulling`). */
export interface VertexPullingSpec {
  /** The mesh's index format (its index buffer is bound as `pulledIndices: array<u32>`), or null for a non-indexed mesh. */
  indexFormat: 'uint16' | 'uint32' | null;
  /** The group role of the pulled buffers (`pulledIndices`, `pulledVertices<i>` for caller buffer i). */
  role: BindingRole;
}

/** @internal Id of the fragment the composer adds for a pulled variant. */
export const vertexPullingFragmentId = 'vertex-pulling';

/** Name of the storage binding that holds caller vertex buffer `source`. */
function pulledVertexBindingName(source: number): string {
  return `pulledVertices${source}`;
}

type Layout = { inputs: ComposedVertexInput[]; buffers: GPUVertexBufferLayout[]; sources: number[] };

const supportedFormats =
  'float32, float32x2…x4, float16x2/x4, uint8/16/32 and sint8/16/32 (any count), unorm8/16 and snorm8/16 (x2, x4)';

/** WGSL expression of one component of `format` at byte `at` of a vertex whose first word is `base`. */
function componentExpression(name: string, format: string, at: number, api: string, semantic: string): string {
  const m = /^(uint|sint|unorm|snorm|float)(8|16|32)/.exec(format);
  if (!m || format.includes('-'))
    throw new ComposeError(
      api,
      'vertex-format',
      [vertexPullingFragmentId],
      `vertex input "${semantic}" has format ${describeValue(format)}, which vertex pulling cannot read; allowed: ${supportedFormats}`,
    );
  const [, kind, bitsText] = m;
  const bits = Number(bitsText);
  const word = `${name}[base + ${at >> 2}u]`;
  const raw = bits === 32 ? word : `((${word} >> ${(at & 3) * 8}u) & ${bits === 8 ? '0xffu' : '0xffffu'})`;
  const signed = bits === 32 ? `bitcast<i32>(${word})` : `(bitcast<i32>(${raw} << ${32 - bits}u) >> ${32 - bits}u)`;
  if (kind === 'uint') return raw;
  if (kind === 'sint') return signed;
  if (kind === 'float') return bits === 32 ? `bitcast<f32>(${word})` : `unpack2x16float(${raw}).x`;
  const max = bits === 8 ? '255.0' : '65535.0';
  if (kind === 'unorm') return `(f32(${raw}) / ${max})`;
  return `max(f32(${signed}) / ${bits === 8 ? '127.0' : '32767.0'}, -1.0)`;
}

/** The WGSL value of one pulled input: its format's components, padded like a vertex fetch (0, 0, 0, 1). */
function inputExpression(input: ComposedVertexInput, name: string, offset: number, api: string): string {
  const info = vertexFormatInfo(input.format)!;
  const componentSize = info.size / info.components;
  const scalar = /^vec[234](f|u|i)$/.exec(input.wgslType)?.[1] ?? { f32: 'f', u32: 'u', i32: 'i' }[input.wgslType]!;
  const count = Number(/^vec([234])/.exec(input.wgslType)?.[1] ?? 1);
  const cast = { f: 'f32', u: 'u32', i: 'i32' }[scalar]!;
  const parts: string[] = [];
  for (let c = 0; c < count; c++) {
    if (c < info.components)
      parts.push(componentExpression(name, input.format, offset + c * componentSize, api, input.semantic));
    else parts.push(`${cast}(${c === 3 ? 1 : 0})`);
  }
  return count === 1 ? parts[0] : `vec${count}${scalar}(${parts.join(', ')})`;
}

/** Refuses a malformed spec, and a vertexIndex vertex input (pulling sets `input.vertexIndex` itself). */
function checkPullingSpec(api: string, layout: Layout, spec: VertexPullingSpec): void {
  if (!spec || typeof spec !== 'object' || ![null, 'uint16', 'uint32'].includes(spec.indexFormat))
    throw new ComposeError(
      api,
      'invalid-spec',
      [],
      `vertexPulling ${describeValue(spec)} must be { indexFormat: 'uint16' | 'uint32' | null, role }`,
    );
  const fed = layout.inputs.find((input) => input.semantic === 'vertexIndex');
  if (fed)
    throw new ComposeError(
      api,
      'invalid-spec',
      fed.fragments,
      `vertexPulling sets input.vertexIndex itself, but fragment "${fed.fragments[0]}" reads vertexIndex as a vertex input; use one or the other`,
    );
}

/**
 * Splits a composed layout into pulled per-vertex inputs (location -1, buffer -1) and the instance-step inputs that stay
 * vertex buffers (renumbered from location 0), and makes the fragment that declares the pulled storage bindings and
 * `pullVertexInput`, which the root's vertex entry calls.
 * @internal
 */
export function applyVertexPulling(
  api: string,
  layout: Layout,
  spec: VertexPullingSpec,
): { layout: Layout; fragment: Fragment } {
  checkPullingSpec(api, layout, spec);
  const kept = layout.inputs.filter((i) => i.stepMode === 'instance');
  const keptBuffers = [...new Set(kept.map((i) => i.buffer))].sort((a, b) => a - b);
  const newLocation = new Map(kept.map((input, i) => [input.location, i]));
  const buffers = keptBuffers.map((b) => ({
    ...layout.buffers[b],
    attributes: [...layout.buffers[b].attributes].map((a) => ({
      ...a,
      shaderLocation: newLocation.get(a.shaderLocation)!,
    })),
  }));
  const sources = keptBuffers.map((b) => layout.sources[b]);
  const bindingOf = new Map<number, string>();
  const lines: string[] = [];
  const inputs = layout.inputs.map((input) => {
    if (input.stepMode === 'instance')
      return { ...input, location: newLocation.get(input.location)!, buffer: keptBuffers.indexOf(input.buffer) };
    const gpuBuffer = layout.buffers[input.buffer];
    const source = layout.sources[input.buffer];
    const name = pulledVertexBindingName(source);
    bindingOf.set(source, name);
    const attribute = [...gpuBuffer.attributes].find((a) => a.shaderLocation === input.location)!;
    const stride = Number(gpuBuffer.arrayStride);
    const value = inputExpression(input, name, attribute.offset, api).replaceAll(
      'base + ',
      `vertex * ${stride >> 2}u + `,
    );
    lines.push(`  input.${input.semantic} = ${value};`);
    return { ...input, location: -1, buffer: -1 };
  });
  const index =
    spec.indexFormat === 'uint32'
      ? 'pulledIndices[pulled.drawVertexIndex]'
      : spec.indexFormat === 'uint16'
        ? '(pulledIndices[pulled.drawVertexIndex >> 1u] >> ((pulled.drawVertexIndex & 1u) * 16u)) & 0xffffu'
        : 'pulled.drawVertexIndex';
  const names = [...(spec.indexFormat ? ['pulledIndices'] : []), ...[...bindingOf.values()].sort()];
  const source = [
    ...(names.length ? [`import bindings::{ ${names.join(', ')} };`] : []),
    'import io::{ PulledVertexInput, VertexInput };',
    '',
    '// The vertex an indexed draw would run at this corner, its attributes read from the mesh buffers bound as storage.',
    'fn pullVertexInput(pulled: PulledVertexInput) -> VertexInput {',
    '  var input: VertexInput;',
    `  let vertex = ${index};`,
    '  input.vertexIndex = vertex;',
    '  input.drawVertexIndex = pulled.drawVertexIndex;',
    '  input.instanceIndex = pulled.instanceIndex;',
    ...kept.map((i) => `  input.${i.semantic} = pulled.${i.semantic};`),
    ...lines,
    '  return input;',
    '}',
    '',
  ].join('\n');
  const fragment: Fragment = {
    id: vertexPullingFragmentId,
    source,
    bindings: names.map((name) => ({
      name,
      kind: 'read-only-storage' as const,
      type: 'array<u32>',
      role: spec.role,
      visibility: ['vertex' as const],
    })),
  };
  return { layout: { inputs, buffers, sources }, fragment };
}
