/**
 * A thin WebGPU engine (device, scene, meshes, camera, forward renderer, tasks) for real scenes.
 * @module weft-gpu/engine
 */

// Device and lifetime: one engine per GPUDevice, recovered after a device loss.
export {
  createEngineAsync,
  disposeEngine,
  type Engine,
  type EngineOptions,
  type EngineTarget,
  getEngineColorTexture,
  onDeviceRestored,
  optionalEngineFeatures,
  resizeEngine,
  whenEngineReadyAsync,
} from './engine.js';
// Adopting the host's device (three.js, Babylon.js, your own): the host owns it, and hands weft a replacement after a loss.
export {
  createEngineFromDeviceAsync,
  type EngineFromDeviceOptions,
  type EngineFromDeviceTarget,
  setEngineDeviceAsync,
} from './host-device.js';
export { EngineError, type EngineErrorCode, MeshDataError, type MeshDataErrorCode } from './engine-errors.js';

// Build-time composition: every runtime of the engine takes its shaders from a precomposed table first.
export { usePrecomposedShaders } from './precomposed-shaders.js';
// Scene and camera (right-handed, reverse-Z): weft's perspective and orthographic cameras, or the host's as matrices.
export { createScene, disposeScene, type Scene, type SceneOptions } from './scene.js';
// What moved since a version: pickers refit only those meshes.
export type { SceneChangeLog } from './scene-changes.js';
export {
  type Camera,
  dollyCamera,
  frameCameraOnBounds,
  getCameraOrbit,
  getCameraProjectionMatrix,
  getCameraViewMatrix,
  getCameraViewProjectionMatrix,
  makePerspectiveCamera,
  type OrbitState,
  orbitCamera,
  panCamera,
  type PerspectiveCamera,
  type PerspectiveCameraOptions,
  setCameraOrbit,
} from './camera.js';
// Orthographic views (CAD, editors' side views) for every pass: forward, G-buffer, GPU and CPU pick.
export { makeOrthographicCamera, type OrthographicCamera, type OrthographicCameraOptions } from './camera.js';
// A host engine's camera as its view/projection matrices (either depth convention), drawn and picked as the host draws it.
export { makeMatrixCamera, type MatrixCamera, type MatrixCameraOptions } from './camera.js';
// Narrowing helpers: which cameras weft's controls move; whether a value is a camera (option checks).
export { isCamera, type PlacedCamera } from './camera.js';
// What a host writes as SceneUniforms.cameraPosition for any camera kind (faces and sprites turn towards it).
export { getCameraViewerPosition } from './camera.js';
export type { Aabb } from './bounds.js';

// Meshes: data in (tight or interleaved, 16/32-bit indices), world matrices and thin instances through setters.
export {
  createMeshFromData,
  disposeMesh,
  ensureMeshGpu,
  getMeshWorldBounds,
  getThinInstanceMatrix,
  getThinInstancePayload,
  getThinInstanceWorldBounds,
  type Mesh,
  type MeshGpu,
  type MeshOptions,
  setMeshHostBuffers,
  setMeshWorldMatrix,
  type ReadonlyFloat32Array,
  setThinInstances,
} from './mesh.js';
// Meshes drawn from buffers a host engine owns (no second upload).
export type { MeshHostBuffers } from './mesh-host-buffers.js';
export {
  allowedVertexFormats,
  type InterleavedAttribute,
  type InterleavedVertexData,
  type MeshData,
  type MeshGeometry,
  readVertexAttribute,
  type VertexAttributeLayout,
  type VertexBufferSource,
  type VertexSemantic,
} from './mesh-data.js';
// A mesh's vertex buffers as shaders read them, for your own tasks.
export { meshVertexLayout, thinInstanceVertexBuffer } from './mesh-layout.js';
export {
  makeStandardMaterial,
  type StandardMaterial,
  type StandardMaterialOptions,
  type TextureData,
} from './material.js';
export {
  type BoxOptions,
  type BunnyOptions,
  type CapsuleOptions,
  computeSmoothNormals,
  createBoxMesh,
  createBunnyMeshAsync,
  createCapsuleMesh,
  createPlaneMesh,
  createSphereMesh,
  createTorusMesh,
  makeBoxData,
  makeBunnyDataAsync,
  makeCapsuleData,
  makePlaneData,
  makeSphereData,
  makeTorusData,
  maxPrimitiveSegments,
  type PlaneOptions,
  type SphereOptions,
  type TorusOptions,
} from './primitives/index.js';

// Deformation: skeletons, morph targets, vertex animation textures (glTF skins and animations: weft-gpu/gltf).
export { makeSkeleton, setBoneMatrix, type Skeleton } from './skeleton.js';
export type { MeshMorphTargets } from './mesh-deformation-checks.js';
export { deformVertexOnCpu } from './mesh-deformation.js';
export type { VertexAnimation } from './vertex-animation-types.js';
export { makeVertexAnimation, makeVertexAnimationPlayback, type VertexAnimationOptions } from './vertex-animation.js';

// Rendering: the default forward frame, explicit tasks, render targets and readback.
export { getDefaultForwardTask, renderFrame } from './render-frame.js';
export {
  createForwardRenderTask,
  type ForwardRenderTask,
  readForwardFrameIdAsync,
} from './render/forward-render-task.js';
export type { ForwardRenderTaskOptions } from './render/forward-task-state.js';
export type { FrameIdHit } from './frame-ids.js';
export { disposeTask, runTasks, type Task } from './task.js';
export {
  createRenderTarget,
  createRenderTargetMrt,
  disposeRenderTarget,
  getRenderTargetTextures,
  readRenderTargetPixelsAsync,
  type RenderTarget,
  type RenderTargetMrt,
  type RenderTargetOptions,
  type RenderTargetTextures,
  resizeRenderTarget,
} from './render-target.js';
export { readEngineFrameAsync, type TextureRegion } from './readback.js';

// Pick sources: non-mesh pickables (billboards, splats, your own) registered on a scene.
export { type PickSource, registerPickSource, unregisterPickSource } from './pick-sources.js';
