import type { Accessor, Node as GltfNode } from '@gltf-transform/core';
import { mat4, quat } from 'wgpu-matrix';
import { describeValue } from '../../core/errors.js';
import { EngineError } from '../engine-errors.js';
import { setMeshWorldMatrix } from '../mesh.js';
import type { GltfLoadResult, GltfSkinBinding } from './gltf-loader.js';

/**
 * Bone j = joint j's world matrix × its inverse bind matrix (glTF ignores the skinned node's own transform).
 * @internal
 */
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

/** A channel's keyframe values, denormalised (glTF allows normalised integers for rotations and weights). */
function readOutput(output: Accessor): Float64Array {
  const count = output.getCount();
  const size = output.getElementSize();
  const values = new Float64Array(count * size);
  const element: number[] = [];
  for (let k = 0; k < count; k++) values.set(output.getElement(k, element), k * size);
  return values;
}

/**
 * One channel's value at `time` (glTF 2.0 §3.11 and Appendix C): STEP holds the keyframe at or before `time`, LINEAR
 * lerps (rotations slerp), CUBICSPLINE is the Hermite spline through the values with the in/out tangents scaled by
 * the keyframe interval. Before the first and after the last keyframe the end values hold. Rotations come out unit.
 */
function sampleGltfChannel(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  size: number,
  interpolation: string,
  time: number,
  rotation: boolean,
): number[] {
  const cubic = interpolation === 'CUBICSPLINE';
  // CUBICSPLINE stores (in-tangent, value, out-tangent) per keyframe.
  const stride = cubic ? size * 3 : size;
  const offset = cubic ? size : 0;
  const at = (k: number, part = offset) => Array.from({ length: size }, (_, c) => values[k * stride + part + c]);
  const [i, s] = keyframe(times, time);
  let out: number[];
  if (s === 0 || interpolation === 'STEP') out = at(i);
  else if (cubic) {
    const delta = times[i + 1] - times[i];
    const s2 = s * s;
    const s3 = s2 * s;
    const v0 = at(i);
    const b0 = at(i, size * 2);
    const v1 = at(i + 1);
    const a1 = at(i + 1, 0);
    out = v0.map(
      (v, c) =>
        (2 * s3 - 3 * s2 + 1) * v +
        (s3 - 2 * s2 + s) * delta * b0[c] +
        (-2 * s3 + 3 * s2) * v1[c] +
        (s3 - s2) * delta * a1[c],
    );
  } else if (rotation) out = Array.from(quat.slerp(at(i), at(i + 1), s));
  else {
    const b = at(i + 1);
    out = at(i).map((v, c) => v + (b[c] - v) * s);
  }
  if (rotation) {
    const length = Math.hypot(...out);
    out = out.map((v) => v / length);
  }
  return out;
}

/**
 * Poses the loaded glTF at `time` (seconds) of one animation (index or name): node translations,
 * rotations (slerp), scales and morph weights (STEP, LINEAR or CUBICSPLINE), then the skeletons' bones and the
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
    const path = channel.getTargetPath();
    const interpolation = sampler.getInterpolation();
    const values = readOutput(output);
    // A weights channel packs one value per morph target in each keyframe element.
    const perKey = (output.getCount() / input.length) * output.getElementSize();
    const size = path === 'weights' ? perKey / (interpolation === 'CUBICSPLINE' ? 3 : 1) : output.getElementSize();
    const value = sampleGltfChannel(input, values, size, interpolation, time, path === 'rotation');
    switch (path) {
      case 'translation':
        node.setTranslation(value as [number, number, number]);
        break;
      case 'scale':
        node.setScale(value as [number, number, number]);
        break;
      case 'rotation':
        node.setRotation(value as [number, number, number, number]);
        break;
      case 'weights':
        weightsByNode.set(node, value);
        break;
    }
  }
  for (const skin of result.skins) updateSkinBones(skin);
  for (const { mesh, node, skin } of result.bindings) {
    const weights = weightsByNode.get(node);
    if (weights && mesh.morphWeights.length) mesh.morphWeights.set(weights.slice(0, mesh.morphWeights.length));
    if (!skin) setMeshWorldMatrix(mesh, mat4.multiply(result.root, Float32Array.from(node.getWorldMatrix())));
  }
}
