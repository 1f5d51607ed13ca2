import type { Fragment } from './fragment-types.js';

/** Bytes of `SceneUniforms`: viewProjection 64 + cameraPosition, lightDirection, lightColor, ambientColor 16 each. */
export const sceneUniformsByteSize = 128;

const source = `struct SceneUniforms {
  viewProjection: mat4x4f,
  cameraPosition: vec4f,
  lightDirection: vec4f,
  lightColor: vec4f,
  ambientColor: vec4f,
}
`;

/** The per-pass scene uniforms (camera, light, ambient) as binding `scene` in the scene group. */
export function makeSceneUniformsFragment(): Fragment {
  return {
    id: 'scene-uniforms',
    source,
    bindings: [
      { name: 'scene', kind: 'uniform', type: 'SceneUniforms', role: 'scene', visibility: ['vertex', 'fragment'] },
    ],
  };
}
