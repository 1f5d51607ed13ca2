// Deformation data in textures, for devices without vertex-stage storage buffers (WebGPU compatibility mode): morph
// deltas and weights and VAT playback records laid out row after row in 2D textures that the `deformTextures` shaders
// read with `rowWrappedTexel`. The texels hold the same floats the storage buffers hold on other devices.
import { MeshDataError } from './engine-errors.js';

// Storage buffers the deformation shaders bind in the vertex stage at most (the G-buffer's velocity of a morphed mesh:
// deltas, weights, previous weights). A device that allows fewer reads deformation data from textures.
const deformationVertexStorageBuffers = 3;

let texturesByDevice: WeakMap<GPUDevice, boolean> | undefined;

/**
 * Whether this device's meshes keep morph and VAT playback data in textures: true when it reports
 * `maxStorageBuffersInVertexStage` below what the deformation shaders bind (0 on a compatibility-mode device). A
 * device that does not report the limit (core WebGPU before it existed) binds storage buffers in every stage.
 * @internal
 */
export function deformationInTextures(device: GPUDevice): boolean {
  texturesByDevice ??= new WeakMap();
  let textures = texturesByDevice.get(device);
  if (textures === undefined) {
    const limit = (device.limits as Partial<Record<string, number>>).maxStorageBuffersInVertexStage;
    textures = typeof limit === 'number' && limit < deformationVertexStorageBuffers;
    texturesByDevice.set(device, textures);
  }
  return textures;
}

/** @internal Width and height of a row-wrapped texture of `texels` elements on a device of this texture limit. */
export function rowWrappedSize(texels: number, maxTextureDimension2D: number): [number, number] {
  const width = Math.max(1, Math.min(texels, maxTextureDimension2D));
  return [width, Math.max(1, Math.ceil(texels / width))];
}

/** @internal What a mesh would keep in row-wrapped textures: element counts by field. */
export interface DeformationTexels {
  /** Morph deltas: targets × vertices (× 2 with normal deltas); 0 without morph targets. */
  morphDeltas: number;
  /** One per morph target. */
  morphWeights: number;
  /** VAT playback: 3 per record (one record per thin instance, one without); 0 without a VAT. */
  vatPlayback: number;
}

/**
 * Refuses, before any GPU object is made, deformation data that a texture of this device cannot hold (more rows
 * than `maxTextureDimension2D`). A device with vertex-stage storage buffers is not checked: it uses buffers.
 * @throws {MeshDataError} naming the mesh, the field, the limit and what to do
 * @internal
 */
export function checkDeformationTexels(
  api: string,
  meshName: string,
  device: GPUDevice,
  texels: DeformationTexels,
): void {
  if (!deformationInTextures(device)) return;
  const max = device.limits.maxTextureDimension2D;
  const fields: [keyof DeformationTexels, string, string][] = [
    ['morphDeltas', 'morphTargets', 'use fewer targets or split the mesh'],
    ['morphWeights', 'morphTargets', 'use fewer targets'],
    ['vatPlayback', 'vertexAnimationPlayback', 'use fewer thin instances per mesh'],
  ];
  for (const [what, field, advice] of fields) {
    const count = texels[what];
    if (rowWrappedSize(count, max)[1] <= max) continue;
    throw new MeshDataError(
      api,
      meshName,
      field,
      `${count} ${what} texels do not fit one texture of this device (maxTextureDimension2D ${max}: at most ${max * max} texels); it has no vertex-stage storage buffers (maxStorageBuffersInVertexStage ${device.limits.maxStorageBuffersInVertexStage ?? 0}), so weft keeps deformation data in textures. ${advice[0].toUpperCase()}${advice.slice(1)}, or use a device with vertex-stage storage buffers (a core-feature-level device)`,
    );
  }
}

/** @internal A row-wrapped texture of `texels` elements (rgba32float: 4 floats each, r32float: 1). */
export function createRowWrappedTexture(
  device: GPUDevice,
  label: string,
  texels: number,
  format: 'rgba32float' | 'r32float',
): GPUTexture {
  return device.createTexture({
    label,
    size: rowWrappedSize(texels, device.limits.maxTextureDimension2D),
    format,
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
}

/**
 * Writes `data` (floats, element after element) into a row-wrapped texture: the full rows, then the last partial row.
 * Allocates nothing.
 * @internal
 */
export function writeRowWrapped(queue: GPUQueue, texture: GPUTexture, data: Float32Array<ArrayBuffer>): void {
  const floatsPerTexel = texture.format === 'r32float' ? 1 : 4;
  const width = texture.width;
  const texels = Math.min(data.length / floatsPerTexel, width * texture.height);
  const rows = Math.floor(texels / width);
  const rest = texels - rows * width;
  const bytesPerRow = width * floatsPerTexel * 4;
  if (rows > 0) queue.writeTexture({ texture }, data, { bytesPerRow }, [width, rows]);
  if (rest > 0) queue.writeTexture({ texture, origin: [0, rows] }, data, { offset: rows * bytesPerRow }, [rest, 1]);
}
