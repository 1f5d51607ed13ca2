import type { Fragment } from './fragment-types.js';

/** @internal Condition that writes the previous positive view depth into the velocity's z. */
export const velocityPreviousDepthCondition = 'velocityPreviousDepth';

/** @internal Bytes of `VelocityUniforms`: previousWorld 64 + previousViewProjection 64. */
export const velocityUniformsByteSize = 128;

/**
 * Condition of the still-draw variant: the draw's previous world (× instance) matrices and camera equal the current
 * ones and it has no deformation, so its motion is exactly zero and the previous-frame transform is skipped.
 * @internal
 */
export const velocityStaticCondition = 'velocityStatic';

/**
 * Name of the slot a deformation fragment fills to give the previous frame's local position (default: the rest position).
 * @internal
 */
export const velocityPreviousPositionSlot = 'velocityPreviousPosition';

const source = `import bindings::{ geometryScene, velocity };
import io::{ FragmentInput, FragmentOutput, VertexInput, VertexOutput };
import package::thin_instances::instanceMatrix;
import slots::{ adjustWorldPosition, velocityPreviousPosition };

struct VelocityUniforms {
  // The draw's world matrix and the camera's view-projection as of this task's previous frame
  // (both equal to the current ones when the draw has no history: first frame, re-included, excluded).
  // Bound but unread by the still-draw variant (velocityStatic): both variants share one layout.
  previousWorld: mat4x4f,
  previousViewProjection: mat4x4f,
}

fn restPreviousPosition(input: VertexInput) -> vec3f {
  return input.position;
}

fn writeVelocityVaryings(input: VertexInput, output: ptr<function, VertexOutput>) {
  @if(!velocityStatic) {
    @if(thinInstances) let previousWorld = velocity.previousWorld * instanceMatrix(input.prevInstance0, input.prevInstance1, input.prevInstance2, input.prevInstance3);
    @else let previousWorld = velocity.previousWorld;
    // The same world-adjust hook as the current position, so displaced surfaces move as drawn.
    let previousWorldPosition = vec4f(adjustWorldPosition(input, previousWorld, (previousWorld * vec4f(velocityPreviousPosition(input), 1.0)).xyz), 1.0);
    // Clip z is not needed: x, y and w, interpolated perspective-correctly like the clip position itself.
    (*output).velocityPrevious = (velocity.previousViewProjection * previousWorldPosition).xyw;
  } @else {
    // Unread, referenced so both variants declare (and lay out) the same bindings.
    _ = velocity.previousWorld;
  }
}

// The previous clip position is interpolated perspective-correctly and divided per pixel; the current NDC is the
// pixel centre itself (the pass covers the whole target), which is what the interpolated current clip position
// divided by its w gives, without a second clip-position varying. Fragment position.w is 1 / clip w.
fn writeLinearVelocity(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  @if(velocityStatic) {
    // Same matrices as the current frame: the motion is exactly zero and the previous depth is the current one.
    @if(velocityPreviousDepth) let z = 1.0 / input.position.w;
    @else let z = 0.0;
    _ = geometryScene.viewport;
    (*output).linearVelocity = vec4f(0.0, 0.0, z, 1.0);
  } @else {
    let current = vec2f(input.position.x * geometryScene.viewport.z - 1.0, 1.0 - input.position.y * geometryScene.viewport.w);
    let previous = input.velocityPrevious.xy / input.velocityPrevious.z;
    // For a perspective projection clip w is the positive view depth.
    @if(velocityPreviousDepth) let z = input.velocityPrevious.z;
    @else let z = 0.0;
    (*output).linearVelocity = vec4f((previous - current) * 0.5, z, 1.0);
  }
}
`;

/**
 * LINEAR_VELOCITY output `linearVelocity` (rgba16float): (previousNDC - currentNDC) / 2 in xy (Y up), z 0 or the
 * previous view depth (`velocityPreviousDepth`). Reads binding `velocity` (mesh group, dynamic offset) and, with
 * `thinInstances`, the previous instance matrices `prevInstance0…3`. Provides `velocityPreviousPosition` so a
 * deformation (skinning, morph targets) can supply the previous local position through a slot.
 * @internal
 */
export function makeGeometryVelocityFragment(): Fragment {
  const column = (i: number) => ({
    semantic: `prevInstance${i}`,
    format: 'float32x4' as const,
    stepMode: 'instance' as const,
    when: 'thinInstances',
  });
  return {
    id: 'geometry-velocity',
    source,
    dependencies: ['geometry-surface', 'geometry-scene-uniforms', 'standard-vertex', 'thin-instances'],
    bindings: [
      {
        name: 'velocity',
        kind: 'uniform',
        type: 'VelocityUniforms',
        role: 'mesh',
        visibility: ['vertex'],
        hasDynamicOffset: true,
        minBindingSize: velocityUniformsByteSize,
      },
    ],
    vertexInputs: [column(0), column(1), column(2), column(3)],
    varyings: [{ name: 'velocityPrevious', type: 'vec3f', when: '!velocityStatic' }],
    outputs: [{ name: 'linearVelocity', type: 'vec4f', format: 'rgba16float' }],
    provides: [
      {
        name: velocityPreviousPositionSlot,
        params: [{ name: 'input', type: 'VertexInput' }],
        returns: 'vec3f',
        default: 'restPreviousPosition',
      },
    ],
    fills: [
      { slot: 'vertexVaryings', fn: 'writeVelocityVaryings' },
      { slot: 'geometryOutputs', fn: 'writeLinearVelocity' },
    ],
  };
}
