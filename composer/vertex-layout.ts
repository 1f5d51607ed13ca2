import type { Fragment, FragmentVertexInput } from '../fragments/fragment-types.js';
import type { Conditions } from './conditions.js';
import { describeValue } from '../core/errors.js';
import { ComposeError } from './errors.js';
import { activeItems } from './fragment-graph.js';
import { assignVertexBuffers, type VertexInputAssignment } from './vertex-buffers.js';
import { type CollectedInput, checkFormat, naturalType } from './vertex-formats.js';
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

function rank(input: CollectedInput): [number, number, string] {
  const order = input.stepMode === 'instance' ? instanceSemanticOrder : vertexSemanticOrder;
  const at = order.indexOf(input.semantic);
  return [input.stepMode === 'instance' ? 1 : 0, at < 0 ? order.length : at, input.semantic];
}

function compareInputs(a: CollectedInput, b: CollectedInput): number {
  const [x, y] = [rank(a), rank(b)];
  return x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0);
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
): VertexInputAssignment {
  const bySemantic = new Map<string, CollectedInput>();
  for (const fragment of ordered) {
    for (const decl of activeItems<FragmentVertexInput>(api, fragment, fragment.vertexInputs, conditions)) {
      collectVertexInput(api, fragment, decl, bySemantic);
    }
  }
  const collected = [...bySemantic.values()].sort(compareInputs);
  return assignVertexBuffers(api, collected, layout);
}

/** Adds one declared vertex input; fragments declaring the same semantic must agree on its type, format and step. */
function collectVertexInput(
  api: string,
  fragment: Fragment,
  decl: FragmentVertexInput,
  bySemantic: Map<string, CollectedInput>,
): void {
  const input = checkVertexInput(api, fragment, decl);
  const { semantic, wgslType, stepMode } = input;
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

/** Checks one vertex input declaration (semantic, step mode, type against its semantic) and reads its WGSL type. */
function checkVertexInput(api: string, fragment: Fragment, decl: FragmentVertexInput): CollectedInput {
  const semantic = decl?.semantic;
  if (
    typeof semantic !== 'string' ||
    !isWgslIdentifier(semantic) ||
    semantic === 'instanceIndex' ||
    semantic === 'drawVertexIndex' ||
    (semantic === 'vertexIndex' &&
      (decl.format !== 'uint32' || (decl.type ?? 'u32') !== 'u32' || (decl.stepMode ?? 'vertex') !== 'vertex'))
  ) {
    throw new ComposeError(
      api,
      'invalid-fragment',
      [fragment.id],
      `fragment "${fragment.id}" vertex input semantic ${describeValue(semantic)} must be a WGSL identifier other than instanceIndex / drawVertexIndex (builtins of VertexInput); vertexIndex only as a per-vertex uint32 (u32), which then replaces the vertex_index builtin (read as drawVertexIndex)`,
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
  return { semantic, wgslType, format: decl.format, stepMode, fragments: [fragment.id] };
}
