/**
 * Link typed WGSL fragments into deterministic shaders, layouts and code-keyed GPU caches. Pure except the caches
 * section; a host engine can use it without the rest of weft.
 * @module weft-gpu/composer
 */

// Composing: a spec of fragments + conditions + vertex layout in, WGSL + layouts + a stable key out.
export {
  type ComposeCache,
  type ComposeCounters,
  type ComposedShader,
  type ComposedSourceMap,
  type ComposeOutput,
  type ComposeSpec,
  composeShader,
  getComposeCounters,
  makeComposeCache,
} from './compose-shader.js';
// Where a host wants weft's groups (it may keep group 0 for itself); checked against its maxBindGroups.
export type { BindingPolicy } from './binding-policy.js';
// The parts of a ComposedShader a host reads to build its own bind groups, vertex buffers and targets.
export type { ComposedBindGroup, ComposedBinding } from './bindings.js';
export type { ComposedFeature } from './features.js';
export type { ComposedSlot } from './slots.js';
export type { ComposedTarget, ComposedVarying } from './stage-io.js';
export type { ComposedVertexInput, VertexBufferSpec, VertexLayoutSpec } from './vertex-layout.js';
// ComposeSpec.vertexPulling: per-vertex inputs read from storage for a non-indexed draw (hosts bind the buffers).
export type { VertexPullingSpec } from './vertex-pulling.js';
export type { Conditions } from './conditions.js';
// Buffer layouts as data (offsets, sizes, strides per the WGSL rules) and a writer that sets fields by name.
export { bufferLayoutByteSize, makeWgslBufferLayouts, makeWgslStructLayout } from './uniform-layout.js';
export type {
  ArrayLayout,
  BufferLayout,
  FieldLayout,
  LayoutNumbers,
  LayoutScalar,
  LayoutVector,
  MatrixLayout,
  NumberTuple,
  ScalarLayout,
  StructLayout,
  TypeLayout,
  UniformValues,
  VectorLayout,
  WeftUniforms,
} from './uniform-layout-types.js';
export { type LayoutValue, setUniforms } from './uniform-layout-writer.js';
export {
  type ComposedBufferLayouts,
  getBufferLayout,
  getLayoutField,
  type LayoutFieldLocation,
  makeLayoutWordOffsets,
} from './uniform-layout-fields.js';
export { LayoutError, type LayoutErrorCode } from './layout-errors.js';
// Build-time composition: the key a spec is cached under, and a table of composed variants as data (weft-gpu/vite).
export { composeSpecKey } from './compose-shader.js';
export { makePrecomposedShaders, type PrecomposeSelection } from './precomposed-table.js';
export {
  makePrecomposedShaderData,
  type PrecomposedEntry,
  type PrecomposedShaderData,
  type PrecomposedShaders,
  type PrecomposedSource,
  precomposedKeyOf,
} from './precomposed.js';
// A readable dump of a composed shader, for reviews and snapshot tests.
export { describeComposedShader } from './describe.js';
// Valid WGSL for a snapshot file: the layouts as comments, fragment markers, the linked code unchanged.
export { formatShaderSnapshot } from './shader-snapshot.js';

// Per-device caches: shader modules by exact code (ref-counted) and pipelines by code + state.
export {
  acquireRenderPipeline,
  acquireRenderPipelineAsync,
  type PipelineLease,
  type RenderPipelineState,
  releaseRenderPipeline,
} from './pipeline-cache.js';
export {
  acquireCheckedShaderModuleAsync,
  acquireShaderModule,
  releaseShaderModule,
  type ShaderModuleLease,
  type ShaderSource,
} from './shader-module-memo.js';
// Live edits (a dev server's hot reload): swap fragments in the pipelines already drawing, keeping them on failure.
export {
  enableLiveFragments,
  type LiveFragmentErrorCode,
  type LiveFragmentSwap,
  swapLiveFragmentsAsync,
} from './live-fragments.js';
// Counters that let a host or a test prove a warm frame compiles nothing.
export { type ComposerCounters, getComposerCounters } from './device-caches.js';

// Errors: compose-time errors name the fragment; device messages map back to the fragment's own line:column.
export { type WeftErrorCode, WeftError } from '../core/errors.js';
export {
  ComposeError,
  type ComposeErrorCode,
  formatShaderMessage,
  type MappedShaderMessage,
  ShaderCompileError,
  type ShaderCompileErrorCode,
} from './errors.js';
export { compilationMessagesAsync, mapCompilationInfo } from './compile-errors.js';
// The same messages without a GPU: naga (as WebAssembly, imported on the first check only) checks the linked WGSL.
export {
  checkComposedShaderAsync,
  checkWgslAsync,
  type NagaWasmModule,
  type NagaWasmObject,
  type WgslCheckOptions,
} from './wgsl-check.js';

// Named variants: the mechanism a CLI and snapshot tests use (weft's own packs live with their runtimes).
export {
  composeVariant,
  getVariant,
  listVariants,
  makeVariantRegistry,
  registerVariant,
  type VariantDefinition,
  type VariantRegistry,
} from './variant-registry.js';
export type { HostUniformValues } from './host-uniforms.js';
export type { HostSurfaceSpec } from './host-uniforms.js';
