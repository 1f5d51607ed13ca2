// A drawable scene's slots brought up to date: a new mesh installed in its slot, or a listed drawable's changes
// checked (everything that could be refused) and then applied (nothing that can throw).
import {
  checkMatrix,
  checkThinInstances,
  disposeMesh,
  type Mesh,
  setMeshHostBuffers,
  setMeshWorldMatrix,
  setThinInstances,
} from '../../engine/mesh.js';
import { checkMeshHostBuffers } from '../../engine/mesh-host-buffers.js';
import { PickError } from '../pick-errors.js';
import {
  formAt,
  geometryVersionAt,
  instanceVersionAt,
  movedBit,
  sameBufferList,
  sameVersion,
  slotNumbers,
  takeSlot,
  worldChangedBit,
  worldVersionAt,
  holdsSixteen,
} from './drawable-slots.js';

import type { DrawableScene, DrawableSync, PickDrawable } from './drawable-types.js';
import { drawableMaterial, formOf, lookOf, sameMatrix } from './drawable-mesh.js';

/**
 * @internal Puts a mesh made for `drawable` in its slot (a new one for a new object; the old mesh is disposed);
 * returns it.
 */
export function installMesh<T>(
  target: DrawableScene<T>,
  slot: number,
  drawable: PickDrawable<T>,
  made: Mesh,
  call: number,
) {
  const sync = target.sync;
  const slots = sync.slots;
  if (slot >= 0) disposeMesh(sync.meshOf[slot]!);
  else {
    slot = takeSlot(slots);
    target.slotOf.set(drawable.object, slot);
  }
  slots.object[slot] = drawable.object;
  sync.meshOf[slot] = made;
  slots.drawable[slot] = drawable;
  slots.worldSource[slot] = drawable.worldMatrix;
  const buffers = [...(made.hostBuffers?.vertexBuffers ?? []), made.hostBuffers?.indexBuffer ?? null];
  const shared = sync.verifiedBuffers ?? sync.madeBuffers;
  slots.geometryBuffers[slot] = shared && sameBufferList(shared, buffers) ? shared : (sync.madeBuffers = buffers);
  slots.instanceBuffer[slot] = made.hostBuffers?.instanceBuffer ?? null;
  const numbers = slots.numbers;
  const o = slot * slotNumbers;
  numbers[o + geometryVersionAt] = drawable.geometryVersion ?? 0;
  numbers[o + worldVersionAt] = drawable.worldMatrixVersion ?? Number.NaN;
  numbers[o + instanceVersionAt] = drawable.instances?.version ?? Number.NaN;
  numbers[o + formAt] = formOf(drawable);
  slots.skinVersions[slot] = drawable.skin?.version ?? Number.NaN;
  slots.listed[slot] = call;
  slots.pending[slot] = 0;
  const world = slots.world;
  for (let i = 0; i < 16; i++) world[slot * 16 + i] = drawable.worldMatrix[i];
  return slot;
}

/**
 * @internal Everything `updateSlot` would refuse, checked before the sync changes anything; returns whether it has
 * anything to apply. A steady drawable is compared with its slot's numbers and world values, not checked, and its
 * mesh is not read (not even compared where the host versions its matrices).
 */
export function checkUpdate<T>(
  api: string,
  sync: DrawableSync<T>,
  slot: number,
  drawable: PickDrawable<T>,
  at: number,
) {
  const slots = sync.slots;
  const numbers = slots.numbers;
  const o = slot * slotNumbers;
  const source = drawable.worldMatrix;
  const version = drawable.worldMatrixVersion;
  const sameSource = source === slots.worldSource[slot];
  const held = version !== undefined && version === numbers[o + worldVersionAt] && sameSource;
  // Values equal to the last synced ones need no float32 compare with the mesh (nor a look at its matrix).
  const worldChanged = !held && !holdsSixteen(slots.world, slot * 16, source);
  let moved = false;
  if (worldChanged) {
    const mesh = sync.meshOf[slot]!;
    moved = !sameMatrix(mesh.worldMatrix, source);
    if (moved) checkMatrix(api, mesh.name, `drawables[${at}].worldMatrix`, source);
  }
  if (worldChanged) slots.pending[slot] = worldChangedBit | (moved ? movedBit : 0);
  const instances = drawable.instances;
  const instanceChange = !sameVersion(instances?.version, numbers[o + instanceVersionAt]);
  const instanceBuffer = instances?.buffer ?? null;
  const rebind = instanceBuffer !== slots.instanceBuffer[slot];
  if (instanceChange || rebind) {
    const mesh = sync.meshOf[slot]!;
    if (instances && instanceChange) checkThinInstances(api, mesh.name, instances.matrices);
    checkMeshHostBuffers(api, mesh.name, mesh.geometry, instances ? instances.matrices.length / 16 : 0, {
      ...mesh.hostBuffers!,
      instanceBuffer,
    });
  }
  const skin = drawable.skin;
  const skinChange = skin != null && skin.version !== slots.skinVersions[slot];
  const skeleton = skinChange ? sync.meshOf[slot]!.skeleton : undefined;
  if (skin && skeleton && skin.boneMatrices.length !== skeleton.matrices.length)
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].skin.boneMatrices holds ${skin.boneMatrices.length / 16} bones, the drawable was made with ${skeleton.boneCount}; bump geometryVersion to change the bone count`,
    );
  return (
    worldChanged ||
    !sameSource ||
    !sameVersion(version, numbers[o + worldVersionAt]) ||
    instanceChange ||
    rebind ||
    skinChange ||
    (drawable.morph != null && morphWeightsChanged(sync.meshOf[slot]!.morphWeights, drawable.morph.weights)) ||
    lookOf(drawable) !== (numbers[o + formAt] & 15)
  );
}

/** Whether the host's morph weights differ from the float32 weights the mesh draws with (NaN reads as changed). */
function morphWeightsChanged(drawn: Float32Array, weights: ArrayLike<number>): boolean {
  for (let i = 0; i < weights.length && i < drawn.length; i++) if (drawn[i] !== Math.fround(weights[i])) return true;
  return false;
}

/** @internal Applies a checked drawable to its slot and mesh (`checkUpdate` ran): nothing here throws. */
export function updateSlot<T>(sync: DrawableSync<T>, slot: number, drawable: PickDrawable<T>): void {
  const slots = sync.slots;
  const numbers = slots.numbers;
  const o = slot * slotNumbers;
  const mesh = sync.meshOf[slot]!;
  const pending = slots.pending[slot];
  slots.pending[slot] = 0;
  if (pending & movedBit) setMeshWorldMatrix(mesh, drawable.worldMatrix);
  if (pending & worldChangedBit) for (let i = 0; i < 16; i++) slots.world[slot * 16 + i] = drawable.worldMatrix[i];
  slots.worldSource[slot] = drawable.worldMatrix;
  numbers[o + worldVersionAt] = drawable.worldMatrixVersion ?? Number.NaN;
  const instances = drawable.instances;
  if (!sameVersion(instances?.version, numbers[o + instanceVersionAt])) {
    setThinInstances(mesh, instances?.matrices ?? null);
    numbers[o + instanceVersionAt] = instances?.version ?? Number.NaN;
  }
  // Only a different buffer re-binds (and drops the mesh's GPU wrapper); new matrices in the same buffer do not.
  const hostInstances = instances?.buffer ?? null;
  if (hostInstances !== slots.instanceBuffer[slot]) {
    setMeshHostBuffers(mesh, { ...mesh.hostBuffers!, instanceBuffer: hostInstances });
    slots.instanceBuffer[slot] = hostInstances;
  }
  const skin = drawable.skin;
  if (skin && mesh.skeleton && skin.version !== slots.skinVersions[slot]) {
    mesh.skeleton.matrices.set(skin.boneMatrices);
    mesh.skeleton.version++;
    slots.skinVersions[slot] = skin.version;
  }
  const weights = drawable.morph?.weights;
  if (weights) for (let i = 0; i < weights.length; i++) mesh.morphWeights[i] = weights[i];
  const look = lookOf(drawable);
  const was = numbers[o + formAt] & 15;
  if (look !== was) {
    if ((look ^ was) & 3) mesh.material = drawableMaterial(drawable);
    mesh.visible = (look & 4) !== 0;
    mesh.pickable = (look & 8) !== 0;
    numbers[o + formAt] = numbers[o + formAt] - was + look;
  }
}
