/**
 * The data a fragment declares. Plain, serialisable values: no functions, no GPU objects.
 * Every list item may carry `when`, a boolean condition expression (`normals`, `!uvs`,
 * `thinInstances && normals`, `a || (b && !c)`) over the compose spec's conditions — the same
 * syntax as wesl's `@if`; an unknown condition is false. An item whose `when` is false is absent.
 */

/** Which bind group a binding lives in; the composer maps roles to group indices (scene 0, mesh 1, material 2, extra 3). */
export type BindingRole = 'scene' | 'mesh' | 'material' | 'extra';

/** A shader stage a binding is visible to. */
export type ShaderStageName = 'vertex' | 'fragment' | 'compute';

interface BindingBase {
  /** WGSL identifier; fragments read it with `import bindings::<name>;`. */
  name: string;
  role: BindingRole;
  visibility: readonly ShaderStageName[];
  when?: string;
}

/** A `var<uniform>` buffer binding. `type` is WGSL; struct names resolve in the declaring fragment. */
export interface UniformBinding extends BindingBase {
  kind: 'uniform';
  type: string;
  hasDynamicOffset?: boolean;
  minBindingSize?: number;
}

/** A `var<storage, read_write>` (storage) or `var<storage, read>` (read-only-storage) buffer binding. */
export interface StorageBinding extends BindingBase {
  kind: 'storage' | 'read-only-storage';
  type: string;
  hasDynamicOffset?: boolean;
  minBindingSize?: number;
}

/** A sampled texture; its WGSL type (`texture_2d<f32>`, `texture_depth_2d`, …) follows from these fields. */
export interface TextureBinding extends BindingBase {
  kind: 'texture';
  sampleType: GPUTextureSampleType;
  viewDimension: GPUTextureViewDimension;
  multisampled?: boolean;
}

/** A storage texture (`texture_storage_2d<rgba8unorm, write>`, …). */
export interface StorageTextureBinding extends BindingBase {
  kind: 'storage-texture';
  format: GPUTextureFormat;
  access: GPUStorageTextureAccess;
  viewDimension: GPUTextureViewDimension;
}

/** A sampler (`sampler` or `sampler_comparison`). */
export interface SamplerBinding extends BindingBase {
  kind: 'sampler';
  samplerType: GPUSamplerBindingType;
}

/** One resource a fragment declares; the composer assigns its `@group/@binding`. */
export type FragmentBinding = UniformBinding | StorageBinding | TextureBinding | StorageTextureBinding | SamplerBinding;

/** A vertex attribute the fragment reads as `input.<semantic>` of `io::VertexInput`. */
export interface FragmentVertexInput {
  /** Also the member name. Known semantics get locations in a fixed order (see docs/composer.md). */
  semantic: string;
  /** Format used by `{ kind: 'tight' }` layouts; callers may feed any format of the same scalar kind. */
  format: GPUVertexFormat;
  /** WGSL type of the member (default: the format's natural type, e.g. float32x3 → vec3f). */
  type?: string;
  stepMode?: GPUVertexStepMode;
  when?: string;
}

/** WGSL interpolation type of a varying. */
export type InterpolationType = 'perspective' | 'linear' | 'flat';

/** A vertex → fragment value: a member of `io::VertexOutput` and `io::FragmentInput`. */
export interface FragmentVarying {
  name: string;
  type: string;
  /** Required (`flat`) for integer types. */
  interpolation?: InterpolationType;
  sampling?: 'center' | 'centroid' | 'sample' | 'first' | 'either';
  when?: string;
}

/** A fragment-stage builtin the fragment reads from `io::FragmentInput` (vertex_index / instance_index are always in VertexInput). */
export interface FragmentBuiltin {
  builtin: 'front_facing' | 'primitive_index' | 'sample_index' | 'sample_mask';
  when?: string;
}

/** A colour output: a member of `io::FragmentOutput`; locations follow fragment order then declaration order. */
export interface FragmentOutputDecl {
  name: string;
  type: string;
  /** The render-target format this output is meant for (reported back in `targets`); omit for "the caller's colour format". */
  format?: GPUTextureFormat;
  /** `frag_depth`: the member is `@builtin(frag_depth)` (type f32), not a colour target. */
  builtin?: 'frag_depth';
  when?: string;
}

/** A device feature the fragment needs (`primitive-index` → `enable primitive_index;`). */
export interface FeatureRequirement {
  feature: GPUFeatureName;
  when?: string;
}

/** A parameter of a slot's function signature. */
export interface SlotParam {
  name: string;
  /** WGSL type; `VertexInput`/`VertexOutput`/`FragmentInput`/`FragmentOutput` mean the generated io structs. */
  type: string;
}

/** A hook the providing fragment calls as `slots::<name>(…)`; other fragments fill it. */
export interface SlotDecl {
  name: string;
  params: readonly SlotParam[];
  returns?: string;
  /** An unfilled required slot is a compose error (`missing-slot`). */
  required?: boolean;
  /** Function in the provider's source used when nobody fills the slot. */
  default?: string;
  /** `one` (default): at most one filler. `all`: every filler is called in fragment order (no return value). */
  combine?: 'one' | 'all';
}

/** This fragment's function `fn` implements slot `slot`. */
export interface SlotFill {
  slot: string;
  fn: string;
}

/** A typed WGSL fragment: plain data, linked by `composeShader`. Treat it as immutable once made (caches remember it by identity). */
export interface Fragment {
  /** Unique, stable; lower-case words joined by `-` or `_`. Other fragments import it as `package::<id with - as _>`. */
  id: string;
  /** WESL source. Never writes `@group`, `@binding` or `@location`: it imports `bindings::…` and `io::…`. */
  source: string;
  /**
   * Imports the composer applies to `source` without writing them into it (each as after `import`, e.g.
   * `package::pick_discard_types::{ PickDiscardInput }` or `bindings::{ flags }`): a fragment wrapping text written
   * by someone else keeps line 1 of `source` at line 1 of that text, so every error points into it unshifted.
   */
  imports?: readonly string[];
  bindings?: readonly FragmentBinding[];
  vertexInputs?: readonly FragmentVertexInput[];
  varyings?: readonly FragmentVarying[];
  builtins?: readonly FragmentBuiltin[];
  outputs?: readonly FragmentOutputDecl[];
  requires?: readonly FeatureRequirement[];
  provides?: readonly SlotDecl[];
  fills?: readonly SlotFill[];
  /** Ids of fragments this one imports; all must be among the composed fragments. */
  dependencies?: readonly string[];
}

/** @internal The wesl module path of a fragment id (`standard-vertex` → `standard_vertex`). */
export function fragmentModuleName(id: string): string {
  return id.replaceAll('-', '_');
}
