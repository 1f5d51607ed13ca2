// The seam between the pickers and what they pick. Every picker (GPU point, marquee, CPU) reads drawables as
// `PickSubject`s and reaches everything else about them (GPU buffers, draws, deformation, face rule, pose) through a
// `PickSourceOps` record. weft's own meshes are one implementation (weft-pick-source.ts, the only picking module
// that reads engine mesh internals); a weft Mesh is a PickSubject as it is, so a weft scene pays no wrapper.
import type { VertexBufferSpec } from '../../composer/vertex-layout.js';
import type { Fragment } from '../../fragments/fragment-types.js';
import type { Aabb } from '../../engine/bounds.js';

/** How a pick treats back faces: `'as-drawn'` culls exactly what the renderers cull; `'none'` picks every face. */
export type PickCulling = 'as-drawn' | 'none';

/** @internal One attribute of a subject's vertex buffer, as its bytes hold it. */
export interface PickVertexAttribute {
  readonly semantic: string;
  readonly format: GPUVertexFormat;
  readonly offset: number;
}

/** @internal One vertex buffer of a subject: its CPU bytes and layout (what detail, rules and batching read). */
export interface PickVertexBuffer {
  readonly bytes: Uint8Array;
  readonly arrayStride: number;
  readonly attributes: readonly PickVertexAttribute[];
}

/** @internal A subject's triangles as drawn: vertex buffers and layout, index array (null: non-indexed). */
export interface PickGeometry {
  readonly vertexCount: number;
  readonly indices: Uint16Array | Uint32Array | null;
  /** indices.length / 3, or vertexCount / 3 when not indexed. */
  readonly triangleCount: number;
  readonly buffers: readonly PickVertexBuffer[];
}

/**
 * One drawable as every picker reads it: identity, local triangles, world matrix with its change version, thin
 * instances (16 floats each, w lanes a payload) with their version, flags. Read-only: a source changes a subject
 * through its own setters, which bump the versions.
 * @internal
 */
export interface PickSubject {
  readonly uniqueId: number;
  readonly name: string;
  readonly geometry: PickGeometry;
  /** Local positions, xyz per vertex. */
  readonly positions: Float32Array;
  readonly localBounds: Aabb;
  /** Column-major local → world; replaced, never written in place, when it changes. */
  readonly worldMatrix: Float32Array;
  readonly worldVersion: number;
  readonly thinInstances: Float32Array | null;
  readonly thinInstanceCount: number;
  readonly thinInstanceVersion: number;
  readonly pickable: boolean;
  readonly visible: boolean;
  readonly disposed: boolean;
}

/** @internal A subject's GPU buffers on the device they were last prepared for (`PickSourceOps.prepareGpu`). */
export interface PickSubjectBuffers {
  readonly vertexBuffers: readonly GPUBuffer[];
  readonly indexBuffer: GPUBuffer | null;
  readonly instanceBuffer: GPUBuffer | null;
}

/** @internal What a pick shader reads of a subject: its vertex buffers, instances, texture use, deformation. */
export interface PickSubjectShader {
  /** The subject's own vertex buffers, without the thin-instance buffer. */
  readonly buffers: readonly VertexBufferSpec[];
  readonly thinInstances: boolean;
  readonly textured: boolean;
  /** The deformation variant, opaque to the pickers: only the source's ops read it. */
  readonly deformation: object;
}

/** @internal Attributes, instances and deformation of a subject a pick variant stands for (all off by default). */
export interface PickSubjectShape {
  normals?: boolean;
  uvs?: boolean;
  colors?: boolean;
  thinInstances?: boolean;
  skin?: 0 | 4 | 8;
  morph?: boolean;
  morphNormals?: boolean;
  vat?: 0 | 4 | 8;
}

/** @internal A run of consecutive instances drawn with one front face. */
export interface PickWindingRun {
  first: number;
  count: number;
  frontFace: GPUFrontFace;
}

/**
 * A subject's deformation state at a pick call (bones, morph weights, animation time), opaque to the pickers.
 * @internal
 */
export type PickPose = object;

/**
 * Everything a picker asks of a source about its subjects beyond the `PickSubject` fields. `O` is the object a
 * result hands back for a subject (weft: the Mesh itself). None allocates per call unless it says so.
 * @internal
 */
export interface PickSourceOps<O> {
  /** The object results and user callbacks (filter, rule data) receive for the subject. */
  objectOf(subject: PickSubject): O;
  /** True when the subject's drawn surface is deformed on the GPU (it may leave its rest bounds). */
  isDeformed(subject: PickSubject): boolean;
  /** Conservative local bounds of the subject's current pose (allocates `out` when not given). */
  deformedLocalBounds(subject: PickSubject, out?: Aabb): Aabb;
  /** World bounds of the subject (the union over its thin instances). Allocates. */
  worldBounds(subject: PickSubject): Aabb;
  /** Thin instance `index`'s matrix as drawn (payload lanes 0, 0, 0, 1); throws when out of range. */
  instanceMatrix(subject: PickSubject, index: number, dst: Float32Array): Float32Array;
  /** `dst` = `world` × thin instance `index` of `instances` as drawn. */
  multiplyByInstance(world: Float32Array, instances: ArrayLike<number>, index: number, dst: Float32Array): Float32Array;
  /** The mesh-local front's winding sign (1: counter-clockwise), and 0 when the subject draws both faces. */
  cullFacing(subject: PickSubject): 0 | 1 | -1;
  /** The cull mode the subject is drawn with. */
  cullMode(subject: PickSubject): GPUCullMode;
  /** 1 when the subject drawn under `world` shows its counter-clockwise screen side as front, else -1. */
  frontFaceSign(subject: PickSubject, world: ArrayLike<number>): 1 | -1;
  /** Instances `first .. first + count` in runs of one front face under `world`; appends to `out`. */
  splitByWinding(
    subject: PickSubject,
    world: ArrayLike<number>,
    first: number,
    count: number,
    out: PickWindingRun[],
  ): PickWindingRun[];
  /** Finds where a semantic lives in the geometry, or null. */
  findAttribute(
    geometry: PickGeometry,
    semantic: string,
  ): { buffer: PickVertexBuffer; attribute: PickVertexAttribute } | null;
  /** Reads one vertex's attribute into `out`; false when the geometry lacks it. */
  readAttribute(geometry: PickGeometry, semantic: string, vertex: number, out: Float32Array | number[]): boolean;
  /** One vertex's deformed local position as the vertex stage computes it (thin instance `instance` for VAT). */
  deformVertex(
    subject: PickSubject,
    vertex: number,
    out: [number, number, number],
    instance: number,
  ): [number, number, number];
  /** False when the CPU cannot run the deformation of the subject's normals (weft: a VAT mesh): detail has none. */
  hasCpuNormals(subject: PickSubject): boolean;
  /** One vertex's deformed local normal (not normalised, a new tuple), or null. */
  deformNormal(subject: PickSubject, vertex: number): [number, number, number] | null;
  /** Copies the subject's pose at the call (null, no copy, when it is not deformed). */
  capturePose(subject: PickSubject): PickPose | null;
  /** Whether the subject's deformation is still `pose` (null: still undeformed). */
  isPoseCurrent(subject: PickSubject, pose: PickPose | null): boolean;
  /** The subject with the captured pose (itself without one): CPU-side detail reads this. Allocates with a pose. */
  withPose(subject: PickSubject, pose: PickPose | null): PickSubject;
  /**
   * A stand-in drawn for a subject changed or disposed since the call: `instances` (or none), the captured pose,
   * its own GPU copies where the subject's cannot serve. `release` frees them after the pass is submitted.
   */
  makeStandIn(
    subject: PickSubject,
    pose: PickPose | null,
    instances: Float32Array<ArrayBuffer> | null,
    thinInstanceVersion: number,
    device: GPUDevice,
  ): { subject: PickSubject; release: () => void };
  /** Uploads (once per device) and syncs the subject's buffers, instances and deformation data as of now. */
  prepareGpu(subject: PickSubject, device: GPUDevice): void;
  /** The subject's GPU buffers (after `prepareGpu`). */
  gpuBuffers(subject: PickSubject): PickSubjectBuffers;
  /** Whether the subject has GPU buffers now (false before `prepareGpu` and after they were freed). */
  hasGpuBuffers(subject: PickSubject): boolean;
  /**
   * Whether its vertex stage reads data by the original vertex index (morph targets), not only vertex buffers: drawn
   * de-indexed ('expanded-vertices'), it then needs each corner's original vertex as a stream.
   */
  readsVertexIndex(subject: PickSubject): boolean;
  /** The host-owned buffers the subject is drawn from, or null when the source uploaded its own. */
  hostBuffers(
    subject: PickSubject,
  ): { vertexBuffers: readonly (GPUBuffer | null)[]; indexBuffer?: GPUBuffer | null } | null;
  /** True when the subject has GPU deformation data bound in an extra group. */
  hasDeformationGpu(subject: PickSubject): boolean;
  /** The bind group of the subject's deformation data for a pipeline's extra-group layout. */
  deformationGroup(
    subject: PickSubject,
    layout: GPUBindGroupLayout,
    bindings: readonly { name: string; binding: number }[],
  ): GPUBindGroup;
  /** Binds the subject's index buffer, if it has one. */
  setIndexBuffer(pass: GPURenderPassEncoder, subject: PickSubject): void;
  /** Draws `count` instances from `first` (indexed when it has indices; the index buffer must be bound). */
  drawInstances(pass: GPURenderPassEncoder, subject: PickSubject, count: number, first: number): void;
  /** What the pick shader of the subject reads. Allocates. */
  describeShader(subject: PickSubject): PickSubjectShader;
  /** The described subject's vertex buffers plus the thin-instance buffer, as the composer reads them (a new array). */
  shaderVertexBuffers(description: PickSubjectShader): VertexBufferSpec[];
  /** Fragments and conditions a deformation adds to the vertex stage, and its key (new arrays). */
  deformationParts(
    deformation: object,
    textures?: boolean,
  ): { fragments: Fragment[]; conditions: Record<string, boolean>; key: string };
  /**
   * Whether this device's subjects keep deformation data in textures (no vertex-stage storage buffers): pass it to
   * `deformationParts`.
   */
  deformationInTextures(device: GPUDevice): boolean;
  /** The deformation's part of a pipeline key. */
  deformationKey(deformation: object): string;
  /** Buffer usage a host buffer needs for the vertex-index detail path to bind it as storage. */
  readonly storageUsage: number;
}
