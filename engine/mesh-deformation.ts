import { makeMorphTargetsFragment } from '../fragments/morph-targets.js';
import { makeSkinningFragment } from '../fragments/skinning.js';
import type { Fragment } from '../fragments/fragment-types.js';
import { describeValue } from '../core/errors.js';
import { type Aabb, makeEmptyAabb, transformAabb, unionAabb } from './bounds.js';
import { MeshDataError } from './engine-errors.js';
import {
  checkDeformationTexels,
  createRowWrappedTexture,
  type DeformationTexels,
  deformationInTextures,
  writeRowWrapped,
} from './mesh-deformation-textures.js';
import { findVertexAttribute, type MeshGeometry, readVertexAttribute } from './mesh-data.js';
import type { Mesh } from './mesh.js';
import type { VertexAnimation } from './vertex-animation-types.js';

/** What a pass's shader takes from a VAT: its current and previous-frame (velocity) `deformVertex` fragments. */
type VertexAnimationShaders = Pick<VertexAnimation, 'fragment' | 'velocityFragment'>;

/** @internal Which deformations a mesh's shaders compose. */
export interface MeshDeformationVariant {
  skin: 0 | 4 | 8;
  morph: boolean;
  morphNormals: boolean;
  /** Influences of a vertex-animated (VAT) mesh: 0 (none), 4 or 8. */
  vat: 0 | 4 | 8;
  /** The VAT the mesh plays: it brings its own fragments, so this module never imports VAT code. */
  vertexAnimation: VertexAnimationShaders | null;
}

/** What decides a deformation variant besides the geometry's influence attributes. */
interface DeformationSources {
  skinned: boolean;
  morphTargets: { hasNormals: boolean } | null;
  vertexAnimation: VertexAnimationShaders | null;
}

/** @internal GPU copies of a mesh's bones and morph data on one device (owned by the mesh, like its buffers). */
export interface MeshDeformationGpu {
  device: GPUDevice;
  boneTexture: GPUTexture | null;
  boneView: GPUTextureView | null;
  uploadedBoneVersion: number;
  morphDeltas: GPUBuffer | null;
  morphWeights: GPUBuffer | null;
  morphInfo: GPUBuffer | null;
  /** Morph deltas and weights, VAT playback kept in row-wrapped textures instead (`deformationInTextures`). */
  textures: boolean;
  morphDeltaTexture: GPUTexture | null;
  morphWeightTexture: GPUTexture | null;
  vatPlaybackTexture: GPUTexture | null;
  /** VAT: the baked frames (uploaded once), playback records (room for `vatPlaybackRecords`) and time/counts uniform. */
  vatTexture: GPUTexture | null;
  vatPlayback: GPUBuffer | null;
  vatPlaybackRecords: number;
  vatInfo: GPUBuffer | null;
  /** CPU staging of `vatInfo`: time (f32), then frame count and bone count (u32, written once). */
  vatInfoData: Float32Array<ArrayBuffer>;
  /** The bind resources by binding name, for whichever pipeline layout asks. */
  resources: Record<string, GPUBindingResource>;
  groups: Map<GPUBindGroupLayout, GPUBindGroup>;
}

/**
 * The mesh's deformation: skinning with 4 or 8 influences, morph targets (with normals), VAT with 4 or 8 influences.
 * @internal
 */
export function meshDeformationVariant(mesh: Mesh): MeshDeformationVariant {
  return deformationVariantOf(mesh.geometry, {
    skinned: mesh.skeleton !== null,
    morphTargets: mesh.morphTargets,
    vertexAnimation: mesh.vertexAnimation,
  });
}

/**
 * The deformation variant of a geometry (8 influences when it has joints2) with these skeleton, morph and VAT sources.
 * @internal
 */
export function deformationVariantOf(geometry: MeshGeometry, sources: DeformationSources): MeshDeformationVariant {
  const influences = findVertexAttribute(geometry, 'joints2') ? 8 : 4;
  return {
    skin: sources.skinned ? influences : 0,
    morph: sources.morphTargets !== null,
    morphNormals: !!sources.morphTargets?.hasNormals && !!findVertexAttribute(geometry, 'normal'),
    vat: sources.vertexAnimation ? influences : 0,
    vertexAnimation: sources.vertexAnimation,
  };
}

/**
 * A short key naming what `deformationComposeParts` composes for the variant (equal keys, equal fragments).
 * @internal
 */
export function deformationVariantKey(variant: MeshDeformationVariant): string {
  const vat = variant.vat && variant.vertexAnimation ? `v${variant.vat}` : '';
  return `s${variant.skin}m${+variant.morph}n${+variant.morphNormals}${vat}`;
}

/** @internal True when the mesh is deformed on the GPU (its drawn surface may leave its rest bounds). */
export function isMeshDeformed(mesh: Mesh): boolean {
  return mesh.skeleton !== null || mesh.morphTargets !== null || mesh.vertexAnimation !== null;
}

/**
 * Fragments and conditions a deformed mesh adds to a pass's vertex stage; `textures` (see `deformationInTextures`)
 * composes the variant that reads morph and VAT playback data from textures.
 * @internal
 */
export function deformationComposeParts(
  variant: MeshDeformationVariant,
  textures = false,
): {
  fragments: Fragment[];
  conditions: Record<string, boolean>;
  key: string;
} {
  const vat = variant.vat && variant.vertexAnimation ? [variant.vertexAnimation.fragment()] : [];
  const fragments = [
    ...(variant.morph ? [makeMorphTargetsFragment()] : []),
    ...(variant.skin ? [makeSkinningFragment()] : []),
    ...vat,
  ];
  return {
    fragments,
    conditions: {
      skin8: variant.skin === 8,
      morphNormals: variant.morphNormals,
      deformSkin: variant.skin > 0,
      deformMorph: variant.morph,
      vat8: vat.length > 0 && variant.vat === 8,
      deformVat: vat.length > 0,
      ...(textures && (variant.morph || vat.length > 0) ? { deformTextures: true } : {}),
    },
    key: deformationVariantKey(variant),
  };
}

function ensureVatPlayback(state: MeshDeformationGpu, mesh: Mesh, label: string): void {
  const records = mesh.vertexAnimationPlayback.length / 12;
  if ((state.vatPlayback || state.vatPlaybackTexture) && state.vatPlaybackRecords >= records) return;
  // More instances than the buffer holds (setThinInstances bumped the structure, so every pass re-records).
  if (state.textures) {
    const texels = { morphDeltas: 0, morphWeights: 0, vatPlayback: records * 3 };
    checkDeformationTexels('ensureMeshDeformation', mesh.name, state.device, texels);
    state.vatPlaybackTexture?.destroy();
    state.vatPlaybackTexture = createRowWrappedTexture(
      state.device,
      `${label}:vertex-animation-playback`,
      records * 3,
      'rgba32float',
    );
    state.vatPlaybackRecords = records;
    state.resources.vatPlaybackTexture = state.vatPlaybackTexture.createView();
    state.groups.clear();
    return;
  }
  state.vatPlayback?.destroy();
  state.vatPlayback = state.device.createBuffer({
    label: `${label}:vertex-animation-playback`,
    size: records * 48,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  state.vatPlaybackRecords = records;
  state.resources.vatPlayback = { buffer: state.vatPlayback };
  state.groups.clear();
}

/**
 * Creates (once per device) the mesh's bone texture, morph buffers or VAT texture and buffers (playback grown with the instances).
 * @internal
 */
export function ensureMeshDeformation(mesh: Mesh, device: GPUDevice): MeshDeformationGpu | null {
  if (!isMeshDeformed(mesh)) return null;
  const known = mesh.deformationGpu;
  const label = `weft:mesh:${mesh.name}`;
  if (known && known.device === device) {
    if (mesh.vertexAnimation) ensureVatPlayback(known, mesh, label);
    return known;
  }
  const textures = deformationInTextures(device);
  if (textures) checkDeformationTexels('ensureMeshDeformation', mesh.name, device, meshDeformationTexels(mesh));
  const state: MeshDeformationGpu = {
    device,
    boneTexture: null,
    boneView: null,
    uploadedBoneVersion: -1,
    morphDeltas: null,
    morphWeights: null,
    morphInfo: null,
    textures,
    morphDeltaTexture: null,
    morphWeightTexture: null,
    vatPlaybackTexture: null,
    vatTexture: null,
    vatPlayback: null,
    vatPlaybackRecords: 0,
    vatInfo: null,
    vatInfoData: new Float32Array(4),
    resources: {},
    groups: new Map(),
  };
  if (mesh.skeleton) {
    state.boneTexture = device.createTexture({
      label: `${label}:bones`,
      size: [4, mesh.skeleton.boneCount],
      format: 'rgba32float',
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    });
    state.boneView = state.boneTexture.createView();
    state.resources.boneTexture = state.boneView;
  }
  const morph = mesh.morphTargets;
  if (morph) {
    const make = (what: string, size: number, usage: GPUBufferUsageFlags) =>
      device.createBuffer({
        label: `${label}:${what}`,
        size: Math.max(16, Math.ceil(size / 16) * 16),
        usage: usage | GPUBufferUsage.COPY_DST,
      });
    state.morphInfo = make('morph-info', 16, GPUBufferUsage.UNIFORM);
    device.queue.writeBuffer(state.morphInfo, 0, new Uint32Array([morph.count, mesh.geometry.vertexCount, 0, 0]));
    state.resources.morphInfo = { buffer: state.morphInfo };
    if (textures) {
      const deltas = createRowWrappedTexture(device, `${label}:morph-deltas`, morph.deltas.length / 4, 'rgba32float');
      writeRowWrapped(device.queue, deltas, morph.deltas as Float32Array<ArrayBuffer>);
      state.morphDeltaTexture = deltas;
      state.morphWeightTexture = createRowWrappedTexture(device, `${label}:morph-weights`, morph.count, 'r32float');
      state.resources.morphDeltaTexture = deltas.createView();
      state.resources.morphWeightTexture = state.morphWeightTexture.createView();
    } else {
      state.morphDeltas = make('morph-deltas', morph.deltas.byteLength, GPUBufferUsage.STORAGE);
      device.queue.writeBuffer(state.morphDeltas, 0, morph.deltas);
      state.morphWeights = make('morph-weights', morph.count * 4, GPUBufferUsage.STORAGE);
      state.resources.morphDeltas = { buffer: state.morphDeltas };
      state.resources.morphWeights = { buffer: state.morphWeights };
    }
  }
  const vat = mesh.vertexAnimation;
  if (vat) {
    state.vatTexture = device.createTexture({
      label: `${label}:vertex-animation`,
      size: [vat.boneCount * 4, vat.frameCount],
      format: 'rgba32float',
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    });
    device.queue.writeTexture({ texture: state.vatTexture }, vat.frames, { bytesPerRow: vat.boneCount * 64 }, [
      vat.boneCount * 4,
      vat.frameCount,
    ]);
    state.vatInfo = device.createBuffer({
      label: `${label}:vertex-animation-info`,
      size: 16,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    new Uint32Array(state.vatInfoData.buffer).set([vat.frameCount, vat.boneCount], 1);
    Object.assign(state.resources, { vatTexture: state.vatTexture.createView(), vatInfo: { buffer: state.vatInfo } });
    ensureVatPlayback(state, mesh, label);
  }
  mesh.deformationGpu = state;
  return state;
}

/**
 * Uploads changed bones, the current morph weights and the VAT time and playback (writes only: safe in a task's execute).
 * @internal
 */
export function syncMeshDeformation(mesh: Mesh): void {
  const state = mesh.deformationGpu;
  if (!state) return;
  const skeleton = mesh.skeleton;
  if (skeleton && state.boneTexture && state.uploadedBoneVersion !== skeleton.version) {
    state.device.queue.writeTexture({ texture: state.boneTexture }, skeleton.matrices, { bytesPerRow: 64 }, [
      4,
      skeleton.boneCount,
    ]);
    state.uploadedBoneVersion = skeleton.version;
  }
  if (state.morphWeights && mesh.morphWeights.length)
    state.device.queue.writeBuffer(state.morphWeights, 0, mesh.morphWeights as Float32Array<ArrayBuffer>);
  if (state.morphWeightTexture && mesh.morphWeights.length)
    writeRowWrapped(state.device.queue, state.morphWeightTexture, mesh.morphWeights as Float32Array<ArrayBuffer>);
  if (state.vatInfo && (state.vatPlayback || state.vatPlaybackTexture)) {
    state.vatInfoData[0] = mesh.vertexAnimationTime;
    state.device.queue.writeBuffer(state.vatInfo, 0, state.vatInfoData);
    if (state.vatPlayback) state.device.queue.writeBuffer(state.vatPlayback, 0, mesh.vertexAnimationPlayback);
    else writeRowWrapped(state.device.queue, state.vatPlaybackTexture!, mesh.vertexAnimationPlayback);
  }
}

/**
 * The bind group of the mesh's deformation data for a pipeline's extra-group layout (made once per layout).
 * @internal
 */
export function meshDeformationGroup(
  state: MeshDeformationGpu,
  layout: GPUBindGroupLayout,
  bindings: readonly { name: string; binding: number }[],
): GPUBindGroup {
  let group = state.groups.get(layout);
  if (!group) {
    group = state.device.createBindGroup({
      label: 'weft:mesh-deformation',
      layout,
      entries: bindings.map((b) => ({ binding: b.binding, resource: state.resources[b.name] })),
    });
    state.groups.set(layout, group);
  }
  return group;
}

/** @internal Destroys the mesh's deformation textures and buffers. */
export function disposeMeshDeformation(mesh: Mesh): void {
  const state = mesh.deformationGpu;
  if (!state) return;
  for (const texture of [
    state.boneTexture,
    state.vatTexture,
    state.morphDeltaTexture,
    state.morphWeightTexture,
    state.vatPlaybackTexture,
  ])
    texture?.destroy();
  for (const buffer of [state.morphDeltas, state.morphWeights, state.morphInfo, state.vatPlayback, state.vatInfo])
    buffer?.destroy();
  mesh.deformationGpu = null;
}

/**
 * What the mesh keeps in row-wrapped textures on a device without vertex-stage storage buffers (element counts).
 * @internal
 */
export function meshDeformationTexels(mesh: Pick<Mesh, 'morphTargets' | 'vertexAnimationPlayback'>): DeformationTexels {
  const morph = mesh.morphTargets;
  return {
    morphDeltas: morph ? morph.deltas.length / 4 : 0,
    morphWeights: morph ? morph.count : 0,
    vatPlayback: (mesh.vertexAnimationPlayback.length / 12) * 3,
  };
}

function readInfluences(mesh: Mesh, vertex: number): { joints: number[]; weights: number[] } {
  const joints = [0, 0, 0, 0, 0, 0, 0, 0];
  const weights = [0, 0, 0, 0, 0, 0, 0, 0];
  const four = [0, 0, 0, 0];
  for (const [k, js, ws] of [
    [0, 'joints', 'weights'],
    [4, 'joints2', 'weights2'],
  ] as const) {
    if (!readVertexAttribute(mesh.geometry, js, vertex, four)) continue;
    joints.splice(k, 4, ...four);
    readVertexAttribute(mesh.geometry, ws, vertex, four);
    weights.splice(k, 4, ...four);
  }
  return { joints, weights };
}

/**
 * One vertex's deformed local position on the CPU (morph targets, then skinning; or VAT with the playback record of
 * thin instance `instance`, 0 without instances), as the vertex stage computes it.
 * @throws {MeshDataError} when the vertex or instance index is out of range
 */
export function deformVertexOnCpu(
  mesh: Mesh,
  vertex: number,
  out: [number, number, number] = [0, 0, 0],
  instance = 0,
): [number, number, number] {
  const p = mesh.positions;
  out[0] = p[vertex * 3];
  out[1] = p[vertex * 3 + 1];
  out[2] = p[vertex * 3 + 2];
  const vat = mesh.vertexAnimation;
  if (vat) {
    const records = mesh.vertexAnimationPlayback.length / 12;
    if (!Number.isInteger(instance) || instance < 0 || instance >= records) {
      throw new MeshDataError(
        'deformVertexOnCpu',
        mesh.name,
        'instance',
        `${describeValue(instance)} is not a playback record in 0..${records - 1}`,
      );
    }
    const { joints, weights } = readInfluences(mesh, vertex);
    const m = vat.influenceMatrix(joints, weights, mesh.vertexAnimationPlayback, instance, mesh.vertexAnimationTime);
    const [x, y, z] = out;
    for (let r = 0; r < 3; r++) out[r] = m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r];
    return out;
  }
  const morph = mesh.morphTargets;
  if (morph) {
    const n = mesh.geometry.vertexCount;
    for (let t = 0; t < morph.count; t++) {
      const w = mesh.morphWeights[t];
      for (let c = 0; c < 3; c++) out[c] += w * morph.deltas[(t * n + vertex) * 4 + c];
    }
  }
  const skeleton = mesh.skeleton;
  if (skeleton) {
    const x = out[0];
    const y = out[1];
    const z = out[2];
    out[0] = out[1] = out[2] = 0;
    const { joints, weights } = readInfluences(mesh, vertex);
    for (let k = 0; k < 8; k++) {
      const m = skeleton.matrices.subarray(joints[k] * 16, joints[k] * 16 + 16);
      for (let r = 0; r < 3; r++) out[r] += weights[k] * (m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r]);
    }
  }
  return out;
}

/**
 * One vertex's deformed local normal (not normalised) as the vertex stage computes it: morph normal deltas when the
 * mesh has them, then the blend of the bones' upper 3×3. Null without normals or on a VAT mesh.
 * @internal
 */
export function deformNormalOnCpu(mesh: Mesh, vertex: number): [number, number, number] | null {
  const out: [number, number, number] = [0, 0, 0];
  if (mesh.vertexAnimation || !readVertexAttribute(mesh.geometry, 'normal', vertex, out)) return null;
  const morph = mesh.morphTargets;
  if (morph?.hasNormals) {
    const n = mesh.geometry.vertexCount;
    for (let t = 0; t < morph.count; t++) {
      const w = mesh.morphWeights[t];
      for (let c = 0; c < 3; c++) out[c] += w * morph.deltas[((morph.count + t) * n + vertex) * 4 + c];
    }
  }
  const skeleton = mesh.skeleton;
  if (skeleton) {
    const [x, y, z] = out;
    out[0] = out[1] = out[2] = 0;
    const { joints, weights } = readInfluences(mesh, vertex);
    for (let k = 0; k < 8; k++) {
      const m = skeleton.matrices.subarray(joints[k] * 16, joints[k] * 16 + 16);
      for (let r = 0; r < 3; r++) out[r] += weights[k] * (m[r] * x + m[4 + r] * y + m[8 + r] * z);
    }
  }
  return out;
}

/**
 * Conservative local bounds of the mesh as deformed now: rest bounds grown by the weighted morph deltas,
 * then the union of those bounds under every bone (a skinned point is a convex blend of bone-transformed points).
 * @internal
 */
export function deformedLocalBounds(mesh: Mesh, out: Aabb = makeEmptyAabb()): Aabb {
  if (mesh.vertexAnimation) {
    // Every frame's every bone: valid for any playback and time (a blend of bone images stays in their union).
    const bounds = mesh.vertexAnimation.animatedBounds(mesh.localBounds);
    out.min.splice(0, 3, ...bounds.min);
    out.max.splice(0, 3, ...bounds.max);
    return out;
  }
  const box: Aabb = { min: [...mesh.localBounds.min], max: [...mesh.localBounds.max] };
  const morph = mesh.morphTargets;
  if (morph) {
    const n = mesh.geometry.vertexCount;
    for (let t = 0; t < morph.count; t++) {
      const w = mesh.morphWeights[t];
      if (!w) continue;
      for (let v = 0; v < n; v++) {
        for (let c = 0; c < 3; c++) {
          const d = w * morph.deltas[(t * n + v) * 4 + c];
          if (d < 0) box.min[c] = Math.min(box.min[c], box.min[c] + d);
          else box.max[c] = Math.max(box.max[c], box.max[c] + d);
        }
      }
    }
  }
  const skeleton = mesh.skeleton;
  if (!skeleton) {
    out.min.splice(0, 3, ...box.min);
    out.max.splice(0, 3, ...box.max);
    return out;
  }
  out.min.fill(Infinity);
  out.max.fill(-Infinity);
  const scratch = makeEmptyAabb();
  for (let b = 0; b < skeleton.boneCount; b++)
    unionAabb(out, transformAabb(box, skeleton.matrices.subarray(b * 16, b * 16 + 16), scratch));
  return out;
}
