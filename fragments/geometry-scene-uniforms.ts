import type { Fragment } from './fragment-types.js';

/** Bytes of `GeometrySceneUniforms`: view 64 + depthRange 16. */
export const geometrySceneUniformsByteSize = 80;

const source = `struct GeometrySceneUniforms {
  view: mat4x4f,
  // x: near, y: far, z: 1 when far is infinite (then y is unused)
  depthRange: vec4f,
}

// Positive view-space depth of a world position (distance along the camera's -Z axis).
fn viewDepthOf(worldPosition: vec3f) -> f32 {
  return -(geometryScene.view * vec4f(worldPosition, 1.0)).z;
}
`;

/** The geometry pass's camera data (view matrix, near/far) as binding `geometryScene` in the scene group. */
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
