import type { Fragment } from './fragment-types.js';

/** @internal Bytes of `GeometryDrawUniforms`: reflectivity 16 + ids 16. */
export const geometryDrawUniformsByteSize = 32;

const source = `struct GeometryDrawUniforms {
  // rgb: specular colour (F0), a: glossiness
  reflectivity: vec4f,
  // x: frame id of instance 0 (instance i writes x + i; 0 = background), y: mesh blend tag
  ids: vec4u,
}
`;

/**
 * Per-draw geometry data (reflectivity, frame id, blend tag) as binding `geometryDraw` in the mesh group, at a dynamic offset.
 * @internal
 */
export function makeGeometryDrawUniformsFragment(): Fragment {
  return {
    id: 'geometry-draw-uniforms',
    source,
    bindings: [
      {
        name: 'geometryDraw',
        kind: 'uniform',
        type: 'GeometryDrawUniforms',
        role: 'mesh',
        visibility: ['fragment'],
        hasDynamicOffset: true,
        minBindingSize: geometryDrawUniformsByteSize,
      },
    ],
  };
}
