import { createBaseTextureFragment } from './base-texture.js';
import { createDrawUniformsFragment } from './draw-uniforms.js';
import type { Fragment } from './fragment-types.js';
import { createLambertLightingFragment } from './lambert-lighting.js';
import { createPickDiscardTypesFragment } from './pick-discard.js';
import { createPickOutputFragment } from './pick-output.js';
import { createSceneUniformsFragment } from './scene-uniforms.js';
import { createStandardSurfaceFragment } from './standard-surface.js';
import { createStandardVertexFragment } from './standard-vertex.js';
import { createThinInstancesFragment } from './thin-instances.js';

/** Which inputs a standard-material variant reads (the same fields as the forward renderer's variant). */
export interface StandardMaterialVariant {
  normals: boolean;
  uvs: boolean;
  colors: boolean;
  thinInstances: boolean;
}

/** The standard vertex stage and what it needs: scene + draw uniforms, thin instances. */
export function createStandardVertexFragments(): Fragment[] {
  return [
    createSceneUniformsFragment(),
    createDrawUniformsFragment(),
    createThinInstancesFragment(),
    createStandardVertexFragment(),
  ];
}

/** The forward standard material: the vertex stage plus base texture, Lambert lighting and the standard surface. */
export function createStandardMaterialFragments(): Fragment[] {
  return [
    ...createStandardVertexFragments(),
    createBaseTextureFragment(),
    createLambertLightingFragment(),
    createStandardSurfaceFragment(),
  ];
}

/** The pick pass: the same vertex stage as the forward material plus the pick-ID outputs. */
export function createPickFragments(): Fragment[] {
  return [...createStandardVertexFragments(), createPickDiscardTypesFragment(), createPickOutputFragment()];
}

/** The compose conditions of a standard-material variant (condition names equal the field names). */
export function standardMaterialConditions(variant: StandardMaterialVariant): Record<string, boolean> {
  return { normals: variant.normals, uvs: variant.uvs, colors: variant.colors, thinInstances: variant.thinInstances };
}
