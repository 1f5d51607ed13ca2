import type { Fragment } from './fragment-types.js';

/** @internal Bytes of `GeometrySceneUniforms`: view 64 + depthRange 16 + viewport 16. */
export const geometrySceneUniformsByteSize = 96;

const source = `struct GeometrySceneUniforms {
  view: mat4x4f,
  // x: near, y: far, z: 1 when far is infinite (then y is unused)
  depthRange: vec4f,
  // x, y: the target's size in pixels; z, w: 2 / x, 2 / y (pixel → NDC scale)
  viewport: vec4f,
}

// Positive view-space depth of a world position (distance along the camera's -Z axis).
fn viewDepthOf(worldPosition: vec3f) -> f32 {
  return -(geometryScene.view * vec4f(worldPosition, 1.0)).z;
}
`;

/**
 * The geometry pass's camera data (view matrix, near/far, target size) as binding `geometryScene` in the scene group.
 * @internal
 */
export function makeGeometrySceneUniformsFragment(): Fragment {
  return {
    id: 'geometry-scene-uniforms',
    source: `import bindings::geometryScene;\n\n${source}`,
    bindings: [
      {
        name: 'geometryScene',
        kind: 'uniform',
        type: 'GeometrySceneUniforms',
        role: 'scene',
        visibility: ['vertex', 'fragment'],
      },
    ],
  };
}
