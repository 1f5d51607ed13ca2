import type { Fragment } from './fragment-types.js';

const source = `struct SceneUniforms {
  viewProjection: mat4x4f,
  cameraPosition: vec4f,
  lightDirection: vec4f,
  lightColor: vec4f,
  ambientColor: vec4f,
}
`;

/** The per-pass scene uniforms (camera, light, ambient) as binding `scene` in the scene group. */
export function createSceneUniformsFragment(): Fragment {
  return {
    id: 'scene-uniforms',
    source,
    bindings: [
      { name: 'scene', kind: 'uniform', type: 'SceneUniforms', role: 'scene', visibility: ['vertex', 'fragment'] },
    ],
  };
}
