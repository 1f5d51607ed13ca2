import { makeBaseTextureFragment } from './base-texture.js';
import { makeDrawUniformsFragment } from './draw-uniforms.js';
import type { Fragment } from './fragment-types.js';
import { makeLambertLightingFragment } from './lambert-lighting.js';
import { makePickDiscardTypesFragment } from './pick-discard.js';
import { makePickOutputFragment } from './pick-output.js';
import { makeSceneUniformsFragment } from './scene-uniforms.js';
import { makeStandardSurfaceFragment } from './standard-surface.js';
import { makeStandardVertexFragment } from './standard-vertex.js';
import { makeThinInstancesFragment } from './thin-instances.js';

/** Which inputs a standard-material variant reads (the same fields as the forward renderer's variant). */
export interface StandardMaterialVariant {
  normals: boolean;
  uvs: boolean;
  colors: boolean;
  thinInstances: boolean;
}

/** The standard vertex stage and what it needs: scene + draw uniforms, thin instances. */
export function makeStandardVertexFragments(): Fragment[] {
  return [
    makeSceneUniformsFragment(),
    makeDrawUniformsFragment(),
    makeThinInstancesFragment(),
    makeStandardVertexFragment(),
  ];
}

/** The forward standard material: the vertex stage plus base texture, Lambert lighting and the standard surface. */
export function makeStandardMaterialFragments(): Fragment[] {
  return [
    ...makeStandardVertexFragments(),
    makeBaseTextureFragment(),
    makeLambertLightingFragment(),
    makeStandardSurfaceFragment(),
  ];
}

/** The pick pass: the same vertex stage as the forward material plus the pick-ID outputs. */
export function makePickFragments(): Fragment[] {
  // The pick pass binds a group per draw slot: no dynamic offsets (see makeDrawUniformsFragment).
  return [
    makeSceneUniformsFragment(),
    makeDrawUniformsFragment({ dynamicOffset: false }),
    makeThinInstancesFragment(),
    makeStandardVertexFragment(),
    makePickDiscardTypesFragment(),
    makePickOutputFragment(),
  ];
}

/** The compose conditions of a standard-material variant (condition names equal the field names). */
export function standardMaterialConditions(variant: StandardMaterialVariant): Record<string, boolean> {
  return { normals: variant.normals, uvs: variant.uvs, colors: variant.colors, thinInstances: variant.thinInstances };
}
