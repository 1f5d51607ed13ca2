import { createBaseTextureFragment } from './base-texture.js';
import type { Fragment } from './fragment-types.js';
import { createGeometryAlbedoFragment } from './geometry-albedo.js';
import { createGeometryDrawUniformsFragment } from './geometry-draw-uniforms.js';
import { createGeometryIrradianceFragment } from './geometry-irradiance.js';
import { createGeometryLocalPositionFragment } from './geometry-local-position.js';
import { createGeometryMaterialFragment } from './geometry-material.js';
import { createGeometryMeshBlendTagFragment } from './geometry-mesh-blend-tag.js';
import { createGeometryNormalizedViewDepthFragment } from './geometry-normalized-view-depth.js';
import { createGeometryObjectIdFragment } from './geometry-object-id.js';
import { createGeometryReflectivityFragment } from './geometry-reflectivity.js';
import { createGeometrySceneUniformsFragment } from './geometry-scene-uniforms.js';
import { createGeometryScreenspaceDepthFragment } from './geometry-screenspace-depth.js';
import { createGeometrySurfaceFragment } from './geometry-surface.js';
import { createGeometryVelocityFragment } from './geometry-velocity.js';
import { createGeometryViewDepthFragment } from './geometry-view-depth.js';
import { createGeometryViewNormalFragment } from './geometry-view-normal.js';
import { createGeometryWorldNormalFragment } from './geometry-world-normal.js';
import { createGeometryWorldPositionFragment } from './geometry-world-position.js';
import { createLambertLightingFragment } from './lambert-lighting.js';
import { createStandardVertexFragments } from './standard-material.js';

/** Every geometry output, by the name of its `FragmentOutput` member. */
export const geometryOutputFactories = {
  irradiance: createGeometryIrradianceFragment,
  worldPosition: createGeometryWorldPositionFragment,
  localPosition: createGeometryLocalPositionFragment,
  reflectivity: createGeometryReflectivityFragment,
  viewDepth: createGeometryViewDepthFragment,
  normalizedViewDepth: createGeometryNormalizedViewDepthFragment,
  screenspaceDepth: createGeometryScreenspaceDepthFragment,
  viewNormal: createGeometryViewNormalFragment,
  worldNormal: createGeometryWorldNormalFragment,
  albedo: createGeometryAlbedoFragment,
  linearVelocity: createGeometryVelocityFragment,
  meshBlendTag: createGeometryMeshBlendTagFragment,
  objectId: createGeometryObjectIdFragment,
} as const satisfies Record<string, () => Fragment>;

/** Name of one geometry output (also its `FragmentOutput` member and target name). */
export type GeometryOutputName = keyof typeof geometryOutputFactories;

/** Outputs that read the interpolated world normal (so the vertex normal is worth reading). */
export const geometryOutputsUsingNormals: readonly GeometryOutputName[] = ['irradiance', 'viewNormal', 'worldNormal'];
/** Outputs that read the material colour (base texture, vertex colour). */
export const geometryOutputsUsingMaterial: readonly GeometryOutputName[] = ['irradiance', 'albedo'];

const helpers: Readonly<Record<string, () => Fragment>> = {
  'base-texture': createBaseTextureFragment,
  'geometry-draw-uniforms': createGeometryDrawUniformsFragment,
  'geometry-material': createGeometryMaterialFragment,
  'geometry-scene-uniforms': createGeometrySceneUniformsFragment,
  'lambert-lighting': createLambertLightingFragment,
};

/**
 * The fragments of a geometry pass writing `outputs`: the standard vertex stage, the geometry surface, one fragment
 * per output and only the helpers those outputs import (so unused bindings never appear in the layout).
 */
export function createGeometryFragments(outputs: readonly GeometryOutputName[]): Fragment[] {
  const fragments: Fragment[] = [...createStandardVertexFragments(), createGeometrySurfaceFragment()];
  const known = new Set(fragments.map((f) => f.id));
  const add = (fragment: Fragment) => {
    if (known.has(fragment.id)) return;
    known.add(fragment.id);
    fragments.push(fragment);
    for (const id of fragment.dependencies ?? []) if (helpers[id]) add(helpers[id]());
  };
  for (const name of [...new Set(outputs)].sort()) {
    const factory = geometryOutputFactories[name];
    if (!factory)
      throw new Error(
        `createGeometryFragments: unknown geometry output ${JSON.stringify(name)}; known: ${Object.keys(geometryOutputFactories).join(', ')}`,
      );
    add(factory());
  }
  return fragments;
}
