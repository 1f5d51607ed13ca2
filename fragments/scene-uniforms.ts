import type { Fragment } from './fragment-types.js';

/** Bytes of `SceneUniforms`: viewProjection 64 + cameraPosition, lightDirection, lightColor, ambientColor 16 each. */
export const sceneUniformsByteSize = 128;
/** Where each `SceneUniforms` field starts, in 4-byte words (indices into a Float32Array view). */
export const sceneUniformsWordOffset = {
  viewProjection: 0,
  cameraPosition: 16,
  lightDirection: 20,
  lightColor: 24,
  ambientColor: 28,
} as const;

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
