import type { Node as GltfNode } from '@gltf-transform/core';
import { mat4, quat } from 'wgpu-matrix';
import { describeValue } from '../../core/errors.js';
import { EngineError } from '../engine-errors.js';
import type { GltfLoadResult, GltfSkinBinding } from './gltf-loader.js';

/** Bone j = joint j's world matrix × its inverse bind matrix (glTF ignores the skinned node's own transform). */
export function updateSkinBones(binding: GltfSkinBinding): void {
  binding.joints.forEach((joint, j) => {
    binding.skeleton.matrices.set(
      mat4.multiply(
        Float32Array.from(joint.getWorldMatrix()),
        binding.inverseBind.subarray(j * 16, j * 16 + 16),
      ) as Float32Array,
      j * 16,
    );
  });
  binding.skeleton.version++;
}

/** Index of the keyframe at or before `time` and the blend towards the next one (clamped at both ends). */
function keyframe(times: ArrayLike<number>, time: number): [number, number] {
  if (time <= times[0]) return [0, 0];
  const last = times.length - 1;
  if (time >= times[last]) return [last, 0];
  let i = 0;
  while (times[i + 1] <= time) i++;
  return [i, (time - times[i]) / (times[i + 1] - times[i])];
}

/**
 * Poses the loaded glTF at `time` (seconds) of one animation (index or name): node translations,
 * rotations (slerp), scales and morph weights (LINEAR or STEP), then the skeletons' bones and the
 * world matrices of the meshes that follow nodes.
 * @throws {EngineError} when the animation does not exist or the time is not finite
 */
export function playGltfAnimation(result: GltfLoadResult, animation: number | string, time: number): void {
  const api = 'playGltfAnimation';
  const animations = result.document.getRoot().listAnimations();
  const clip =
    typeof animation === 'number' ? animations[animation] : animations.find((a) => a.getName() === animation);
  if (!clip)
    throw new EngineError(
      api,
      'out-of-range',
      `animation ${describeValue(animation)} does not exist; the document has ${animations.length} (${animations.map((a, i) => a.getName() || `#${i}`).join(', ') || 'none'})`,
    );
  if (!Number.isFinite(time))
    throw new EngineError(api, 'bad-option', `time ${describeValue(time)} must be a finite number of seconds`);
  const weightsByNode = new Map<GltfNode, number[]>();
  for (const channel of clip.listChannels()) {
    const node = channel.getTargetNode();
    const sampler = channel.getSampler();
    const input = sampler?.getInput()?.getArray();
    const output = sampler?.getOutput();
    if (!node || !sampler || !input || !output) continue;
    const [i, t] = keyframe(input, time);
    const step = sampler.getInterpolation() === 'STEP';
    const j = Math.min(i + 1, input.length - 1);
    const size =
      output.getElementSize() * (channel.getTargetPath() === 'weights' ? output.getCount() / input.length : 1);
    const values = output.getArray()!;
    const at = (k: number) => Array.from(values.subarray(k * size, k * size + size) as ArrayLike<number>);
    const a = at(i);
    const b = at(j);
    switch (channel.getTargetPath()) {
      case 'translation':
        node.setTranslation(a.map((v, c) => (step ? v : v + (b[c] - v) * t)) as [number, number, number]);
        break;
      case 'scale':
        node.setScale(a.map((v, c) => (step ? v : v + (b[c] - v) * t)) as [number, number, number]);
        break;
      case 'rotation':
        node.setRotation(Array.from(step ? a : quat.slerp(a, b, t)) as [number, number, number, number]);
        break;
      case 'weights':
        weightsByNode.set(
          node,
          a.map((v, c) => (step ? v : v + (b[c] - v) * t)),
        );
        break;
    }
  }
  for (const skin of result.skins) updateSkinBones(skin);
  for (const { mesh, node, skin } of result.bindings) {
    const weights = weightsByNode.get(node);
    if (weights && mesh.morphWeights.length) mesh.morphWeights.set(weights.slice(0, mesh.morphWeights.length));
    if (!skin) mesh.worldMatrix = mat4.multiply(result.root, Float32Array.from(node.getWorldMatrix())) as Float32Array;
  }
}
