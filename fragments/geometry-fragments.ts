import { describeValue, WeftError } from '../core/errors.js';
import { makeBaseTextureFragment } from './base-texture.js';
import type { Fragment } from './fragment-types.js';
import { makeGeometryAlbedoFragment } from './geometry-albedo.js';
import { makeGeometryDrawUniformsFragment } from './geometry-draw-uniforms.js';
import { makeGeometryIrradianceFragment } from './geometry-irradiance.js';
import { makeGeometryLocalPositionFragment } from './geometry-local-position.js';
import { makeGeometryMaterialFragment } from './geometry-material.js';
import { makeGeometryMeshBlendTagFragment } from './geometry-mesh-blend-tag.js';
import { makeGeometryNormalizedViewDepthFragment } from './geometry-normalized-view-depth.js';
import { makeGeometryObjectIdFragment } from './geometry-object-id.js';
import { makeGeometryReflectivityFragment } from './geometry-reflectivity.js';
import { makeGeometrySceneUniformsFragment } from './geometry-scene-uniforms.js';
import { makeGeometryScreenspaceDepthFragment } from './geometry-screenspace-depth.js';
import { makeGeometrySurfaceFragment } from './geometry-surface.js';
import { makeGeometryVelocityFragment } from './geometry-velocity.js';
import { makeGeometryViewDepthFragment } from './geometry-view-depth.js';
import { makeGeometryViewNormalFragment } from './geometry-view-normal.js';
import { makeGeometryWorldNormalFragment } from './geometry-world-normal.js';
import { makeGeometryWorldPositionFragment } from './geometry-world-position.js';
import { makeLambertLightingFragment } from './lambert-lighting.js';
import { makeStandardVertexFragments } from './standard-material.js';

/** @internal Every geometry output, by the name of its `FragmentOutput` member. */
export const geometryOutputFactories = {
  irradiance: makeGeometryIrradianceFragment,
  worldPosition: makeGeometryWorldPositionFragment,
  localPosition: makeGeometryLocalPositionFragment,
  reflectivity: makeGeometryReflectivityFragment,
  viewDepth: makeGeometryViewDepthFragment,
  normalizedViewDepth: makeGeometryNormalizedViewDepthFragment,
  screenspaceDepth: makeGeometryScreenspaceDepthFragment,
  viewNormal: makeGeometryViewNormalFragment,
  worldNormal: makeGeometryWorldNormalFragment,
  albedo: makeGeometryAlbedoFragment,
  linearVelocity: makeGeometryVelocityFragment,
  meshBlendTag: makeGeometryMeshBlendTagFragment,
  objectId: makeGeometryObjectIdFragment,
} as const satisfies Record<string, () => Fragment>;

/** Name of one geometry output (also its `FragmentOutput` member and target name). */
export type GeometryOutputName = keyof typeof geometryOutputFactories;

/** @internal Outputs that read the interpolated world normal (so the vertex normal is worth reading). */
export const geometryOutputsUsingNormals: readonly GeometryOutputName[] = ['irradiance', 'viewNormal', 'worldNormal'];
/** @internal Outputs that read the material colour (base texture, vertex colour). */
export const geometryOutputsUsingMaterial: readonly GeometryOutputName[] = ['irradiance', 'albedo'];

const helpers: Readonly<Record<string, () => Fragment>> = {
  'base-texture': makeBaseTextureFragment,
  'geometry-draw-uniforms': makeGeometryDrawUniformsFragment,
  'geometry-material': makeGeometryMaterialFragment,
  'geometry-scene-uniforms': makeGeometrySceneUniformsFragment,
  'lambert-lighting': makeLambertLightingFragment,
};

/**
 * The fragments of a geometry pass writing `outputs`: the standard vertex stage, the geometry surface, one fragment
 * per output and only the helpers those outputs import (so unused bindings never appear in the layout).
 * @throws {WeftError} `bad-argument` when `outputs` is not an array or names an unknown output (the message lists them)
 */
export function makeGeometryFragments(outputs: readonly GeometryOutputName[]): Fragment[] {
  const fragments: Fragment[] = [...makeStandardVertexFragments(), makeGeometrySurfaceFragment()];
  const known = new Set(fragments.map((f) => f.id));
  const add = (fragment: Fragment) => {
    if (known.has(fragment.id)) return;
    known.add(fragment.id);
    fragments.push(fragment);
    for (const id of fragment.dependencies ?? []) if (helpers[id]) add(helpers[id]());
  };
  if (!Array.isArray(outputs as unknown))
    throw new WeftError(
      'makeGeometryFragments',
      'bad-argument',
      `outputs ${describeValue(outputs)} must be an array of geometry output names, e.g. ['viewDepth', 'viewNormal']`,
    );
  for (const name of [...new Set(outputs)].sort()) {
    const factory = geometryOutputFactories[name];
    if (!factory)
      throw new WeftError(
        'makeGeometryFragments',
        'bad-argument',
        `unknown geometry output ${describeValue(name)}; known: ${Object.keys(geometryOutputFactories).join(', ')}`,
      );
    add(factory());
  }
  return fragments;
}
