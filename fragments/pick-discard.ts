import type { Fragment, FragmentBinding } from './fragment-types.js';

/** @internal Conditions of the pick pass's rule hooks. */
export const pickDiscardCondition = 'pickDiscard';
/** @internal */
export const pickWorldAdjustCondition = 'pickWorldAdjust';
/** @internal */
export const pickVertexDataCondition = 'pickVertexData';

/** @internal Bytes of `PickFrameUniforms` (pixel offset). */
export const pickFrameUniformsByteSize = 16;

const typesSource = `// What a pick discard rule sees for each fragment of the pick pass.
struct PickDiscardInput {
  worldPos: vec3f,
  // The selected pixel centre in the original framebuffer (not the 1×1 pick target).
  fragmentCoord: vec2f,
  pickId: u32,
  // 0xffffffff for a mesh without thin instances.
  thinInstanceIndex: u32,
  hasThinInstance: u32,
  // The thin instance's w lanes (matrix elements 3, 7, 11, 15); zero without thin instances.
  instanceExtras: vec4f,
  @if(pickVertexData) vertexData: vec4f,
}

// What a world-adjust hook sees for each vertex of the pick pass.
struct PickWorldInput {
  worldPos: vec3f,
  localPos: vec3f,
  // Columns of the world (× instance) matrix: basis vectors and translation.
  basis0: vec3f,
  basis1: vec3f,
  basis2: vec3f,
  origin: vec3f,
  instanceExtras: vec4f,
  thinInstanceIndex: u32,
  hasThinInstance: u32,
  vertexData: vec4f,
}

// Default of the pickDiscard slot: keep every fragment.
fn keepFragment(input: PickDiscardInput) -> bool {
  return false;
}

struct PickFrameUniforms {
  // Add to the pick target's fragment coordinate to get the original framebuffer's.
  pixelOffset: vec4f,
}
`;

/** @internal The structs rules are written against, and the per-point frame uniform (pixel offset). */
export function makePickDiscardTypesFragment(): Fragment {
  return {
    id: 'pick-discard-types',
    source: typesSource,
    bindings: [
      {
        name: 'pickFrame',
        kind: 'uniform',
        type: 'PickFrameUniforms',
        role: 'scene',
        visibility: ['fragment'],
        when: pickDiscardCondition,
      },
    ],
    provides: [
      {
        name: 'pickDiscard',
        params: [{ name: 'input', type: 'PickDiscardInput' }],
        returns: 'bool',
        default: 'keepFragment',
      },
    ],
  };
}

/** @internal A storage buffer a rule reads, as the composer should bind it. */
export interface PickRuleStorageBinding {
  name: string;
  type: string;
  vertex: boolean;
}

function ruleBindings(storage: readonly PickRuleStorageBinding[]): FragmentBinding[] {
  return storage.map((s) => ({
    name: s.name,
    kind: 'read-only-storage' as const,
    type: s.type,
    role: 'extra' as const,
    visibility: s.vertex ? ['vertex' as const, 'fragment' as const] : ['fragment' as const],
  }));
}

// The composer supplies the imports a rule is written against, so the rule's text is its fragment's source from
// line 1: compose and device errors then point at the rule's own lines and columns.
function ruleImports(storage: readonly PickRuleStorageBinding[]): string[] {
  const names = storage.map((s) => s.name);
  return [
    'package::pick_discard_types::{ PickDiscardInput, PickWorldInput }',
    ...(names.length ? [`bindings::{ ${names.join(', ')} }`] : []),
  ];
}

/**
 * The user's discard predicate `fn pickDiscard(input: PickDiscardInput) -> bool` (true drops the fragment).
 * @internal
 */
export function makePickDiscardRuleFragment(wgsl: string, storage: readonly PickRuleStorageBinding[]): Fragment {
  return {
    id: 'pick-discard-rule',
    source: `${wgsl}\n`,
    imports: ruleImports(storage),
    dependencies: ['pick-discard-types'],
    bindings: ruleBindings(storage),
    fills: [{ slot: 'pickDiscard', fn: 'pickDiscard' }],
  };
}

/**
 * The user's `fn adjustPickWorld(input: PickWorldInput) -> vec3f`, wired into the vertex stage's world-adjust slot by
 * a function weft appends after the rule's last line.
 * @internal
 */
export function makePickWorldAdjustFragment(wgsl: string, storage: readonly PickRuleStorageBinding[]): Fragment {
  const glue = `
// weft: feeds the rule from the standard vertex stage (appended after the rule's own lines).
fn adjustWorldForPick(input: io::VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec3f {
  var w: PickWorldInput;
  w.worldPos = worldPosition;
  w.localPos = input.position;
  w.basis0 = world[0].xyz;
  w.basis1 = world[1].xyz;
  w.basis2 = world[2].xyz;
  w.origin = world[3].xyz;
  w.thinInstanceIndex = 0xffffffffu;
  @if(thinInstances) {
    w.instanceExtras = vec4f(input.instance0.w, input.instance1.w, input.instance2.w, input.instance3.w);
    w.thinInstanceIndex = input.instanceIndex;
    w.hasThinInstance = 1u;
  }
  @if(pickVertexData) w.vertexData = package::pick_output::zeroPadded(input.pickVertexData, bindings::pick.vertexDataComponents);
  return adjustPickWorld(w);
}
`;
  return {
    id: 'pick-world-adjust-rule',
    source: `${wgsl}\n${glue}`,
    imports: ruleImports(storage),
    dependencies: ['pick-discard-types', 'pick-output', 'thin-instances'],
    bindings: ruleBindings(storage),
    fills: [{ slot: 'adjustWorldPosition', fn: 'adjustWorldForPick' }],
  };
}
