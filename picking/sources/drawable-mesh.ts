// One drawable checked, and the weft mesh made for it: bound to the host's buffers, its culling and visibility read
// from the drawable (the seam's sync, drawable-scene.ts, decides when).
import { describeValue } from '../../core/errors.js';
import { makeStandardMaterial, type StandardMaterial } from '../../engine/material.js';
import { createMeshFromData, type Mesh } from '../../engine/mesh.js';
import { makeSkeleton, type Skeleton } from '../../engine/skeleton.js';
import { PickError } from '../pick-errors.js';
import type { DrawableScene, PickDrawable, PickVertexBuffer } from './drawable-types.js';

const drawableKeys: readonly string[] = [
  'object',
  'name',
  'vertexBuffers',
  'index',
  'geometryVersion',
  'worldMatrix',
  'worldMatrixVersion',
  'instances',
  'skin',
  'morph',
  'doubleSided',
  'frontFace',
  'visible',
  'pickable',
];

/**
 * @internal Checks one listed drawable (at place `at`): its keys (once per object unless `keysKnown`) and every value
 * the seam reads, naming the drawable and the key in a `PickError`.
 */
export function checkDrawable<T>(
  api: string,
  target: DrawableScene<T>,
  drawable: PickDrawable<T>,
  at: number,
  keysKnown: boolean,
): void {
  if (!keysKnown && !target.keysChecked.has(drawable)) {
    for (const key of Object.keys(drawable))
      if (!drawableKeys.includes(key))
        throw new PickError(
          api,
          'bad-option',
          `drawables[${at}].${key} is not a PickDrawable key; allowed: ${drawableKeys.join(', ')}`,
        );
    target.keysChecked.add(drawable);
  }
  const d = drawable;
  if (!Array.isArray(d.vertexBuffers) || d.vertexBuffers.length === 0)
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].vertexBuffers ${describeValue(d.vertexBuffers)} must list the drawable's vertex buffers`,
    );
  if (d.instances != null && (!(d.instances.matrices instanceof Float32Array) || !Number.isFinite(d.instances.version)))
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].instances must be { matrices: Float32Array, version: number, buffer? }`,
    );
  const morph = d.morph;
  const bufferAt = Array.isArray(morph?.positions) ? morph.positions.findIndex(isGpuBufferLike) : -1;
  if (bufferAt >= 0)
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].morph.positions[${bufferAt}] is a GPUBuffer; morph deltas are CPU data (Float32Array) that weft uploads itself, into textures on a device without vertex-stage storage buffers (a compatibility-mode device, maxStorageBuffersInVertexStage 0), where a storage buffer cannot be bound in the vertex stage: pass the deltas as Float32Array`,
    );
  if (
    morph != null &&
    (!Array.isArray(morph.positions) ||
      morph.positions.length === 0 ||
      !morph.positions.every((p) => p instanceof Float32Array) ||
      morph.weights == null ||
      morph.weights.length !== morph.positions.length)
  )
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].morph must be { positions: Float32Array[] (one or more targets), normals?, weights } with one weight per target`,
    );
  if (d.worldMatrixVersion !== undefined && typeof d.worldMatrixVersion !== 'number')
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].worldMatrixVersion ${describeValue(d.worldMatrixVersion)} must be a number (or left out)`,
    );
  if (d.frontFace !== undefined && d.frontFace !== 'ccw' && d.frontFace !== 'cw')
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].frontFace ${describeValue(d.frontFace)} must be 'ccw' or 'cw'`,
    );
  if (d.skin != null && (!(d.skin.boneMatrices instanceof Float32Array) || d.skin.boneMatrices.length % 16 !== 0))
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].skin.boneMatrices must be a Float32Array of 16 floats per bone`,
    );
}

/** @internal `doubleSided | cw << 1 | visible << 2 | pickable << 3`, as drawn (a hidden drawable is not pickable). */
export function lookOf(drawable: PickDrawable<unknown>): number {
  const visible = drawable.visible ?? true;
  return (
    (drawable.doubleSided === true ? 1 : 0) |
    (drawable.frontFace === 'cw' ? 2 : 0) |
    (visible ? 4 : 0) |
    (visible && (drawable.pickable ?? true) ? 8 : 0)
  );
}

/** `skinned | morph target count << 1`: what a mesh is made with besides its buffers. */
function shapeOf(drawable: PickDrawable<unknown>): number {
  return (drawable.skin ? 1 : 0) | ((drawable.morph?.positions.length ?? 0) << 1);
}

/** @internal The shape × 16 + the look: both in one number, compared at once while neither changes. */
export function formOf(drawable: PickDrawable<unknown>): number {
  return shapeOf(drawable) * 16 + lookOf(drawable);
}

/** A GPUBuffer, told by its shape (Node's WebGPU globals may be absent when this runs). */
function isGpuBufferLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'mapAsync' in value && 'usage' in value;
}

/** A hidden drawable is never picked (weft's own meshes keep `visible` and `pickable` apart; a host's hidden is gone). */
function pickableAsDrawn(drawable: PickDrawable<unknown>): boolean {
  return (drawable.pickable ?? true) && (drawable.visible ?? true);
}

/** @internal The material that culls as the drawable says (sides and front face). */
export function drawableMaterial(drawable: PickDrawable<unknown>): StandardMaterial {
  return makeStandardMaterial({ doubleSided: drawable.doubleSided === true, frontFace: drawable.frontFace ?? 'ccw' });
}

/** @internal A weft mesh for `drawable` (place `at`), bound to the host's buffers: nothing is installed yet. */
export function makeDrawableMesh<T>(target: DrawableScene<T>, drawable: PickDrawable<T>, at: number): Mesh {
  const name = drawable.name ?? `drawable ${at}`;
  let skeleton: Skeleton | undefined;
  if (drawable.skin) {
    skeleton = makeSkeleton(drawable.skin.boneMatrices.length / 16, `${name}:skin`);
    skeleton.matrices.set(drawable.skin.boneMatrices);
  }
  const material = drawableMaterial(drawable);
  const mesh = createMeshFromData(
    target.scene,
    name,
    {
      interleaved: drawable.vertexBuffers.map((b) => ({
        data: b.data,
        arrayStride: b.arrayStride,
        attributes: b.attributes,
      })),
      ...(drawable.index ? { indices: drawable.index.data } : {}),
    },
    {
      material,
      worldMatrix: drawable.worldMatrix,
      visible: drawable.visible ?? true,
      pickable: pickableAsDrawn(drawable),
      ...(drawable.instances ? { thinInstances: drawable.instances.matrices } : {}),
      ...(skeleton ? { skeleton } : {}),
      ...(drawable.morph
        ? {
            morphTargets: {
              positions: drawable.morph.positions,
              ...(drawable.morph.normals ? { normals: drawable.morph.normals } : {}),
            },
            morphWeights: drawable.morph.weights,
          }
        : {}),
      hostBuffers: {
        vertexBuffers: drawable.vertexBuffers.map((b) => b.buffer ?? null),
        indexBuffer: drawable.index?.buffer ?? null,
        instanceBuffer: drawable.instances?.buffer ?? null,
      },
    },
  );
  target.objectOfMesh.set(mesh, drawable.object);
  return mesh;
}

/**
 * @internal Whether a drawable's vertex buffers are, in order, those a mesh was made with (`made` ends with its index
 * buffer).
 */
export function namesVertexBuffers(
  made: readonly (GPUBuffer | null)[],
  vertexBuffers: readonly PickVertexBuffer[],
): boolean {
  for (let i = 0; i < vertexBuffers.length; i++) if (made[i] !== (vertexBuffers[i].buffer ?? null)) return false;
  return true;
}

/**
 * @internal Whether the mesh's float32 world matrix already holds `given` (as float32: hosts keep float64
 * matrices).
 */
export function sameMatrix(a: ArrayLike<number>, given: ArrayLike<number>): boolean {
  // `!==`: a NaN reads as moved, and the check of the moved matrix refuses it.
  for (let i = 0; i < 16; i++) if (a[i] !== Math.fround(given[i])) return false;
  return true;
}
