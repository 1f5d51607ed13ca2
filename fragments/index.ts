/**
 * Typed WGSL fragments (plain data, no GPU) for composing your own shaders.
 * @module weft-gpu/fragments
 */

// The fragment format: WGSL plus typed metadata the composer reads.
export type {
  BindingRole,
  FeatureRequirement,
  Fragment,
  FragmentBinding,
  FragmentBuiltin,
  FragmentOutputDecl,
  FragmentVarying,
  FragmentVertexInput,
  InterpolationType,
  SamplerBinding,
  ShaderStageName,
  SlotDecl,
  SlotFill,
  SlotParam,
  StorageBinding,
  StorageTextureBinding,
  TextureBinding,
  UniformBinding,
} from './fragment-types.js';

// The standard material and pick pass as fragment lists, and their conditions.
export {
  makePickFragments,
  makeStandardMaterialFragments,
  makeStandardVertexFragments,
  standardMaterialConditions,
  type StandardMaterialVariant,
} from './standard-material.js';
// Building blocks to mix into your own materials.
export { makeStandardVertexFragment } from './standard-vertex.js';
export { makeStandardSurfaceFragment } from './standard-surface.js';
export { makeLambertLightingFragment } from './lambert-lighting.js';
export { makeBaseTextureFragment } from './base-texture.js';
export { makeThinInstancesFragment, thinInstancesCondition } from './thin-instances.js';
export { makePickOutputFragment, primitiveDetailCondition, triangleFromVertexCondition } from './pick-output.js';
export { forwardObjectIdCondition, makeForwardObjectIdFragment } from './forward-object-id.js';
// Uniform blocks the standard fragments read, with their byte sizes for hosts that fill them.
export { makeSceneUniformsFragment, sceneUniformsByteSize } from './scene-uniforms.js';
export { drawUniformsByteSize, makeDrawUniformsFragment } from './draw-uniforms.js';
export { pickUniformsByteSize } from './pick-output.js';

// Deformation: skinning (4 or 8 influences), morph targets and vertex animation textures share one vertex slot.
export { makeSkinningFragment, skin8Condition } from './skinning.js';
export { makeMorphTargetsFragment, morphNormalsCondition } from './morph-targets.js';
export { makeVertexAnimationFragment, vat8Condition } from './vertex-animation.js';
// Compatibility-mode devices (no vertex-stage storage buffers): the same deformations read their data from textures.
export { deformTexturesCondition } from './standard-vertex.js';

// G-buffer outputs: one fragment list per set of outputs.
export { type GeometryOutputName, makeGeometryFragments } from './geometry-fragments.js';
