import { makeLayoutWordOffsets } from '../composer/uniform-layout-fields.js';
import { makeWgslStructLayout } from '../composer/uniform-layout.js';
import { makeGeometryDrawUniformsFragment } from '../fragments/geometry-draw-uniforms.js';
import { makeGeometrySceneUniformsFragment } from '../fragments/geometry-scene-uniforms.js';

/** Word index of each `GeometrySceneUniforms` / `GeometryDrawUniforms` field the geometry task writes. */
interface GeometryUniformOffsets {
  geometrySceneAt: Readonly<Record<'view' | 'depthRange' | 'viewport', number>>;
  geometryDrawAt: Readonly<Record<'reflectivity' | 'ids', number>>;
}

let offsets: GeometryUniformOffsets | undefined;

/**
 * The geometry pass's own uniform offsets, from its fragments' structs laid out by the WGSL rules (made on first use).
 * @internal
 */
export function getGeometryUniformOffsets(): GeometryUniformOffsets {
  offsets ??= {
    geometrySceneAt: makeLayoutWordOffsets(
      makeWgslStructLayout(makeGeometrySceneUniformsFragment().source, 'GeometrySceneUniforms'),
      ['view', 'depthRange', 'viewport'],
    ),
    geometryDrawAt: makeLayoutWordOffsets(
      makeWgslStructLayout(makeGeometryDrawUniformsFragment().source, 'GeometryDrawUniforms'),
      ['reflectivity', 'ids'],
    ),
  };
  return offsets;
}
