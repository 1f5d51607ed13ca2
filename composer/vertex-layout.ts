import type { Fragment, FragmentVertexInput } from '../fragments/fragment-types.js';
import type { Conditions } from './conditions.js';
import { describeValue } from '../core/errors.js';
import { ComposeError } from './errors.js';
import { activeItems } from './fragment-graph.js';
import { isWgslIdentifier, wgslScalarKind } from './wgsl-names.js';

/** Per-vertex semantics in location order; other per-vertex semantics follow, sorted by name. */
const vertexSemanticOrder: readonly string[] = [
  'position',
  'normal',
  'uv',
  'uv2',
  'tangent',
  'color',
  'joints',
  'weights',
  'joints2',
  'weights2',
];
/** Per-instance semantics in location order (after every per-vertex one); others follow, sorted by name. */
const instanceSemanticOrder: readonly string[] = ['instance0', 'instance1', 'instance2', 'instance3'];

const semanticKinds: Readonly<Record<string, 'float' | 'uint'>> = {
  position: 'float',
  normal: 'float',
  uv: 'float',
  uv2: 'float',
  tangent: 'float',
  color: 'float',
  weights: 'float',
  weights2: 'float',
  joints: 'uint',
  joints2: 'uint',
  instance0: 'float',
  instance1: 'float',
  instance2: 'float',
  instance3: 'float',
};

/**
 * The scalar kind weft's own semantics are read as (a position, normal, UV, colour, weight or instance-matrix column
 * is float, a joint index uint), or null for a semantic of your own (any kind).
 * @internal
 */
export function semanticScalarKind(semantic: string): 'float' | 'uint' | null {
  return Object.hasOwn(semanticKinds, semantic) ? semanticKinds[semantic] : null;
}

/** One caller vertex buffer: which semantics it holds, where, and in which format. */
export interface VertexBufferSpec {
  arrayStride: number;
  stepMode?: GPUVertexStepMode;
  attributes: readonly { semantic: string; offset: number; format: GPUVertexFormat }[];
}

/**
 * How the caller's vertex data is laid out. `tight`: one buffer per used input, in location order, each with
 * the format's size as stride (the input's declared format unless `formats` overrides it). `buffers`: the caller's
 * own (interleaved or not) buffers; attributes the shader does not read and buffers left empty are dropped.
 */
export type VertexLayoutSpec =
  | { kind: 'tight'; formats?: Readonly<Record<string, GPUVertexFormat>> }
  | { kind: 'buffers'; buffers: readonly VertexBufferSpec[] };

/**
 * Only what shapes the shader's buffers (extra fields such as a mesh's CPU bytes are left out): the layout's cache-key form.
 * @internal
 */
export function canonicalVertexLayout(layout: VertexLayoutSpec | undefined): unknown {
  if (!layout || layout.kind === 'tight') return { kind: 'tight', formats: layout?.formats ?? {} };
  if (layout.kind !== 'buffers' || !Array.isArray(layout.buffers)) return layout;
  return {
    kind: 'buffers',
    buffers: layout.buffers.map((b) => ({
      arrayStride: b.arrayStride,
      stepMode: b.stepMode ?? 'vertex',
      attributes: Array.from(b.attributes ?? [], (a: VertexBufferSpec['attributes'][number]) => ({
        semantic: a.semantic,
        offset: a.offset,
        format: a.format,
      })),
    })),
  };
}

/** A vertex input of a composed shader with its assigned location. */
export interface ComposedVertexInput {
  semantic: string;
  location: number;
  wgslType: string;
  stepMode: GPUVertexStepMode;
  /** The format the layout feeds it with. */
  format: GPUVertexFormat;
  /** Index in the composed `vertexBuffers`. */
  buffer: number;
  fragments: string[];
}

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

function naturalType(format: string): string | null {
  const info = vertexFormatInfo(format);
  if (!info) return null;
  const scalar = info.kind === 'uint' ? 'u32' : info.kind === 'sint' ? 'i32' : 'f32';
  return info.components === 1 ? scalar : `vec${info.components}${scalar[0]}`;
}

interface CollectedInput {
  semantic: string;
  wgslType: string;
  format: GPUVertexFormat;
  stepMode: GPUVertexStepMode;
  fragments: string[];
}

function rank(input: CollectedInput): [number, number, string] {
  const order = input.stepMode === 'instance' ? instanceSemanticOrder : vertexSemanticOrder;
  const at = order.indexOf(input.semantic);
  return [input.stepMode === 'instance' ? 1 : 0, at < 0 ? order.length : at, input.semantic];
}

function compareInputs(a: CollectedInput, b: CollectedInput): number {
  const [x, y] = [rank(a), rank(b)];
  return x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0);
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

function checkFormat(api: string, input: CollectedInput, format: unknown, where: string): void {
  const info = typeof format === 'string' ? vertexFormatInfo(format) : null;
  if (!info || info.kind !== wgslScalarKind(input.wgslType))
    throw formatError(api, input.fragments, input.semantic, input.wgslType, format, where);
}

/**
 * Collects the active vertex inputs, assigns locations by semantic order and builds `GPUVertexBufferLayout`s for the layout spec.
 * @internal
 */
export function assignVertexInputs(
  api: string,
  ordered: readonly Fragment[],
  conditions: Conditions,
  layout: VertexLayoutSpec,
): {
  inputs: ComposedVertexInput[];
  buffers: GPUVertexBufferLayout[];
  sources: number[];
} {
  const bySemantic = new Map<string, CollectedInput>();
  for (const fragment of ordered) {
    for (const decl of activeItems<FragmentVertexInput>(api, fragment, fragment.vertexInputs, conditions)) {
      const semantic = decl?.semantic;
      if (
        typeof semantic !== 'string' ||
        !isWgslIdentifier(semantic) ||
        semantic === 'vertexIndex' ||
        semantic === 'instanceIndex'
      ) {
        throw new ComposeError(
          api,
          'invalid-fragment',
          [fragment.id],
          `fragment "${fragment.id}" vertex input semantic ${describeValue(semantic)} must be a WGSL identifier other than vertexIndex / instanceIndex (those builtins are always in VertexInput)`,
        );
      }
      const stepMode = decl.stepMode ?? 'vertex';
      if (stepMode !== 'vertex' && stepMode !== 'instance')
        throw new ComposeError(
          api,
          'invalid-fragment',
          [fragment.id],
          `fragment "${fragment.id}" vertex input "${semantic}" has stepMode ${describeValue(stepMode)}; use vertex or instance`,
        );
      const wgslType = decl.type ?? naturalType(decl.format);
      if (!wgslType || !wgslScalarKind(wgslType)) {
        throw new ComposeError(
          api,
          'vertex-format',
          [fragment.id],
          `fragment "${fragment.id}" vertex input "${semantic}" has format ${describeValue(decl.format)} and type ${describeValue(decl.type)}; the type must be a numeric scalar or vector and the format a GPUVertexFormat`,
        );
      }
      const wanted = semanticScalarKind(semantic);
      if (wanted && wgslScalarKind(wgslType) !== wanted)
        throw new ComposeError(
          api,
          'vertex-format',
          [fragment.id],
          `fragment "${fragment.id}" vertex input "${semantic}" is declared ${wgslType} (format ${describeValue(decl.format)}), but "${semantic}" is a ${wanted} semantic: declare a ${wanted === 'float' ? 'float, unorm or snorm format (f32, vecNf)' : 'uint format (u32, vecNu)'}, or use a semantic of your own for ${wanted === 'float' ? 'integer' : 'float'} data`,
        );
      const input: CollectedInput = { semantic, wgslType, format: decl.format, stepMode, fragments: [fragment.id] };
      checkFormat(api, input, decl.format, ` (its declared format)`);
      const existing = bySemantic.get(semantic);
      if (!existing) {
        bySemantic.set(semantic, input);
      } else if (existing.wgslType !== wgslType || existing.stepMode !== stepMode || existing.format !== decl.format) {
        throw new ComposeError(
          api,
          'interface-clash',
          [existing.fragments[0], fragment.id],
          `vertex input "${semantic}" is declared by fragment "${existing.fragments[0]}" as ${existing.wgslType} ${existing.format} per ${existing.stepMode} and by fragment "${fragment.id}" as ${wgslType} ${decl.format} per ${stepMode}; declarations of one semantic must agree`,
        );
      } else if (!existing.fragments.includes(fragment.id)) {
        existing.fragments.push(fragment.id);
      }
    }
  }
  const collected = [...bySemantic.values()].sort(compareInputs);
  const location = new Map(collected.map((c, i) => [c.semantic, i]));
  const inputs: ComposedVertexInput[] = [];
  const buffers: GPUVertexBufferLayout[] = [];
  const sources: number[] = [];
  if (layout.kind === 'tight') {
    const formats = layout.formats ?? {};
    for (const semantic of Object.keys(formats)) {
      if (!location.has(semantic))
        throw new ComposeError(
          api,
          'invalid-spec',
          [],
          `vertexLayout.formats names "${semantic}", which no composed fragment reads; inputs: ${collected.map((c) => c.semantic).join(', ') || 'none'}`,
        );
    }
    collected.forEach((c, i) => {
      const format = formats[c.semantic] ?? c.format;
      checkFormat(api, c, format, ' (vertexLayout.formats)');
      buffers.push({
        arrayStride: vertexFormatInfo(format)!.size,
        stepMode: c.stepMode,
        attributes: [{ shaderLocation: i, offset: 0, format }],
      });
      sources.push(i);
      inputs.push({
        semantic: c.semantic,
        location: i,
        wgslType: c.wgslType,
        stepMode: c.stepMode,
        format,
        buffer: i,
        fragments: c.fragments,
      });
    });
    return { inputs, buffers, sources };
  }
  if (layout.kind !== 'buffers' || !Array.isArray(layout.buffers)) {
    throw new ComposeError(
      api,
      'invalid-spec',
      [],
      `vertexLayout ${describeValue(layout)} must be { kind: 'tight', formats? } or { kind: 'buffers', buffers }`,
    );
  }
  const fedBy = new Map<string, number>();
  const fedByCaller = new Map<string, number>();
  layout.buffers.forEach((spec, index) => {
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
      if (fedByCaller.has(c.semantic))
        throw new ComposeError(
          api,
          'invalid-spec',
          [],
          `vertex input "${c.semantic}" is in vertexLayout.buffers[${fedByCaller.get(c.semantic)}] and [${index}]; give each input one buffer`,
        );
      checkFormat(api, c, attribute.format, ` (vertexLayout.buffers[${index}])`);
      if (c.stepMode !== stepMode) {
        throw new ComposeError(
          api,
          'vertex-format',
          c.fragments,
          `vertex input "${c.semantic}" advances per ${c.stepMode} but vertexLayout.buffers[${index}] steps per ${stepMode}; put it in a buffer with stepMode "${c.stepMode}"`,
        );
      }
      fedBy.set(c.semantic, buffers.length);
      fedByCaller.set(c.semantic, index);
      attributes.push({
        shaderLocation: location.get(c.semantic)!,
        offset: attribute.offset,
        format: attribute.format,
      });
    }
    if (!attributes.length) return;
    attributes.sort((a, b) => a.shaderLocation - b.shaderLocation);
    buffers.push({ arrayStride: spec.arrayStride, stepMode, attributes });
    sources.push(index);
  });
  const missing = collected.filter((c) => !fedBy.has(c.semantic));
  if (missing.length) {
    throw new ComposeError(
      api,
      'missing-vertex-input',
      [...new Set(missing.flatMap((c) => c.fragments))].sort(),
      `vertexLayout.buffers does not hold ${missing.map((c) => `"${c.semantic}" (read by ${c.fragments.map((id) => `"${id}"`).join(', ')})`).join(', ')}; every input the fragments read needs an attribute`,
    );
  }
  for (const c of collected) {
    const buffer = fedBy.get(c.semantic)!;
    const format = [...buffers[buffer].attributes].find((a) => a.shaderLocation === location.get(c.semantic))!.format;
    inputs.push({
      semantic: c.semantic,
      location: location.get(c.semantic)!,
      wgslType: c.wgslType,
      stepMode: c.stepMode,
      format,
      buffer,
      fragments: c.fragments,
    });
  }
  return { inputs, buffers, sources };
}
