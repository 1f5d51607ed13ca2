import { describeValue } from '../core/errors.js';
import { ComposeError } from './errors.js';
import { type CollectedInput, checkFormat, vertexFormatInfo } from './vertex-formats.js';
import type { ComposedVertexInput, VertexBufferSpec, VertexLayoutSpec } from './vertex-layout.js';

/** @internal The vertex inputs with their locations, the buffer layouts and each buffer's index in the caller's list. */
export interface VertexInputAssignment {
  inputs: ComposedVertexInput[];
  buffers: GPUVertexBufferLayout[];
  sources: number[];
}

/**
 * Gives each collected input (in location order) its location and a buffer of the layout spec: one buffer per input
 * for `tight`, the caller's buffers (unused attributes and empty buffers dropped) for `buffers`.
 * @internal
 */
export function assignVertexBuffers(
  api: string,
  collected: readonly CollectedInput[],
  layout: VertexLayoutSpec,
): VertexInputAssignment {
  if (layout.kind === 'tight') return assignTightBuffers(api, collected, layout.formats ?? {});
  if (layout.kind !== 'buffers' || !Array.isArray(layout.buffers)) {
    throw new ComposeError(
      api,
      'invalid-spec',
      [],
      `vertexLayout ${describeValue(layout)} must be { kind: 'tight', formats? } or { kind: 'buffers', buffers }`,
    );
  }
  return assignCallerBuffers(api, collected, layout.buffers);
}

function assignTightBuffers(
  api: string,
  collected: readonly CollectedInput[],
  formats: Readonly<Record<string, GPUVertexFormat>>,
): VertexInputAssignment {
  for (const semantic of Object.keys(formats)) {
    if (!collected.some((c) => c.semantic === semantic))
      throw new ComposeError(
        api,
        'invalid-spec',
        [],
        `vertexLayout.formats names "${semantic}", which no composed fragment reads; inputs: ${collected.map((c) => c.semantic).join(', ') || 'none'}`,
      );
  }
  const result: VertexInputAssignment = { inputs: [], buffers: [], sources: [] };
  collected.forEach((c, i) => {
    const format = formats[c.semantic] ?? c.format;
    checkFormat(api, c, format, ' (vertexLayout.formats)');
    result.buffers.push({
      arrayStride: vertexFormatInfo(format)!.size,
      stepMode: c.stepMode,
      attributes: [{ shaderLocation: i, offset: 0, format }],
    });
    result.sources.push(i);
    result.inputs.push(composedInput(c, i, format, i));
  });
  return result;
}

function composedInput(
  c: CollectedInput,
  location: number,
  format: GPUVertexFormat,
  buffer: number,
): ComposedVertexInput {
  return {
    semantic: c.semantic,
    location,
    wgslType: c.wgslType,
    stepMode: c.stepMode,
    format,
    buffer,
    fragments: c.fragments,
  };
}

/** Where each input is fed: its index in the composed buffers and in the caller's buffers. */
interface FedInputs {
  readonly fedBy: Map<string, number>;
  readonly fedByCaller: Map<string, number>;
}

function assignCallerBuffers(
  api: string,
  collected: readonly CollectedInput[],
  specs: readonly VertexBufferSpec[],
): VertexInputAssignment {
  const location = new Map(collected.map((c, i) => [c.semantic, i]));
  const bySemantic = new Map(collected.map((c) => [c.semantic, c]));
  const buffers: GPUVertexBufferLayout[] = [];
  const sources: number[] = [];
  const fed: FedInputs = { fedBy: new Map(), fedByCaller: new Map() };
  specs.forEach((spec, index) => {
    const buffer = callerBuffer(api, spec, index, bySemantic, location, fed, buffers.length);
    if (!buffer) return;
    buffers.push(buffer);
    sources.push(index);
  });
  checkEveryInputFed(api, collected, fed.fedBy);
  const inputs = collected.map((c) => {
    const buffer = fed.fedBy.get(c.semantic)!;
    const format = [...buffers[buffer].attributes].find((a) => a.shaderLocation === location.get(c.semantic))!.format;
    return composedInput(c, location.get(c.semantic)!, format, buffer);
  });
  return { inputs, buffers, sources };
}

/** One caller buffer's layout with the attributes the shader reads, or null when it holds none of them. */
function callerBuffer(
  api: string,
  spec: VertexBufferSpec,
  index: number,
  bySemantic: ReadonlyMap<string, CollectedInput>,
  location: ReadonlyMap<string, number>,
  fed: FedInputs,
  bufferIndex: number,
): GPUVertexBufferLayout | null {
  const stepMode = spec.stepMode ?? 'vertex';
  if (!Number.isInteger(spec.arrayStride) || spec.arrayStride < 0 || spec.arrayStride % 4 !== 0) {
    throw new ComposeError(
      api,
      'invalid-spec',
      [],
      `vertexLayout.buffers[${index}].arrayStride ${describeValue(spec.arrayStride)} must be a non-negative multiple of 4`,
    );
  }
  const attributes: GPUVertexAttribute[] = [];
  for (const attribute of spec.attributes) {
    const c = bySemantic.get(attribute.semantic);
    if (!c) continue;
    checkCallerAttribute(api, c, attribute.format, index, stepMode, fed.fedByCaller);
    fed.fedBy.set(c.semantic, bufferIndex);
    fed.fedByCaller.set(c.semantic, index);
    attributes.push({ shaderLocation: location.get(c.semantic)!, offset: attribute.offset, format: attribute.format });
  }
  if (!attributes.length) return null;
  attributes.sort((a, b) => a.shaderLocation - b.shaderLocation);
  return { arrayStride: spec.arrayStride, stepMode, attributes };
}

function checkCallerAttribute(
  api: string,
  c: CollectedInput,
  format: GPUVertexFormat,
  index: number,
  stepMode: GPUVertexStepMode,
  fedByCaller: ReadonlyMap<string, number>,
): void {
  if (fedByCaller.has(c.semantic))
    throw new ComposeError(
      api,
      'invalid-spec',
      [],
      `vertex input "${c.semantic}" is in vertexLayout.buffers[${fedByCaller.get(c.semantic)}] and [${index}]; give each input one buffer`,
    );
  checkFormat(api, c, format, ` (vertexLayout.buffers[${index}])`);
  if (c.stepMode !== stepMode) {
    throw new ComposeError(
      api,
      'vertex-format',
      c.fragments,
      `vertex input "${c.semantic}" advances per ${c.stepMode} but vertexLayout.buffers[${index}] steps per ${stepMode}; put it in a buffer with stepMode "${c.stepMode}"`,
    );
  }
}

function checkEveryInputFed(
  api: string,
  collected: readonly CollectedInput[],
  fedBy: ReadonlyMap<string, number>,
): void {
  const missing = collected.filter((c) => !fedBy.has(c.semantic));
  if (missing.length) {
    throw new ComposeError(
      api,
      'missing-vertex-input',
      [...new Set(missing.flatMap((c) => c.fragments))].sort(),
      `vertexLayout.buffers does not hold ${missing.map((c) => `"${c.semantic}" (read by ${c.fragments.map((id) => `"${id}"`).join(', ')})`).join(', ')}; every input the fragments read needs an attribute`,
    );
  }
}
