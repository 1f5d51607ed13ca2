import { mat4, vec3 } from 'wgpu-matrix';
import type { MeshData } from '../../engine/index.js';
import { makeBoxData } from '../../engine/index.js';

/**
 * An independent CPU model of vertex animation textures for tests: it blends bone-transformed points (not matrices)
 * and computes rows with JavaScript's remainder, so it shares no code with engine/vertex-animation.ts.
 */

/** Frame-major bone matrices: `pose(frame, bone)` gives each one. */
export function bakeFrames(
  frameCount: number,
  boneCount: number,
  pose: (frame: number, bone: number) => Float32Array,
): Float32Array {
  const frames = new Float32Array(frameCount * boneCount * 16);
  for (let f = 0; f < frameCount; f++)
    for (let b = 0; b < boneCount; b++) frames.set(pose(f, b), (f * boneCount + b) * 16);
  return frames;
}

/** The row a clip (from, to, offset, speed) shows at `time`: from + floor of the positive remainder of time·speed + offset by the clip length. */
export function clipRow(from: number, to: number, offset: number, speed: number, time: number): number {
  const length = to - from + 1;
  const phase = (((time * speed + offset) % length) + length) % length;
  return from + Math.floor(phase);
}

/** Positions of `data` animated by one playback record (12 floats) at `time`; influences from joints/weights (+ joints2/weights2). */
export function animateOnCpu(
  data: MeshData,
  frames: Float32Array,
  boneCount: number,
  record: ArrayLike<number>,
  time: number,
): Float32Array {
  const positions = data.positions!;
  const out = new Float32Array(positions.length);
  const rows = [
    clipRow(record[0], record[1], record[2], record[3], time),
    clipRow(record[4], record[5], record[6], record[7], time),
  ];
  const clipWeights = [1 - record[8], record[8]];
  const sets: [ArrayLike<number>, ArrayLike<number>][] = [[data.joints!, data.weights!]];
  if (data.joints2) sets.push([data.joints2, data.weights2!]);
  for (let v = 0; v < positions.length / 3; v++) {
    const p = [positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2]];
    const sum = [0, 0, 0];
    rows.forEach((row, c) => {
      for (const [joints, weights] of sets) {
        for (let k = 0; k < 4; k++) {
          const w = weights[v * 4 + k] * clipWeights[c];
          if (!w) continue;
          const bone = frames.subarray(
            (row * boneCount + joints[v * 4 + k]) * 16,
            (row * boneCount + joints[v * 4 + k]) * 16 + 16,
          );
          const moved = vec3.transformMat4(p, bone);
          for (let r = 0; r < 3; r++) sum[r] += w * moved[r];
        }
      }
    });
    out.set(sum, v * 3);
  }
  return out;
}

/** A unit box whose lower half follows bone 0 and upper half bone 1 (4 influences). */
export function twoBoneBox(): MeshData {
  const box = makeBoxData();
  const n = box.positions!.length / 3;
  const joints = new Uint16Array(n * 4);
  const weights = new Float32Array(n * 4);
  for (let v = 0; v < n; v++) {
    joints[v * 4] = box.positions![v * 3 + 1] > 0 ? 1 : 0;
    weights[v * 4] = 1;
  }
  return { ...box, joints, weights };
}

/** Two bones over 4 frames: the box rises frame by frame, its upper half leaning further each frame. */
export function crowdFrames(): Float32Array {
  return bakeFrames(
    4,
    2,
    (f, b) =>
      (b === 0
        ? mat4.translation([0, 0.6 * f - 0.9, 0])
        : mat4.multiply(mat4.translation([0.1 * f, 0.7 * f - 0.9, 0]), mat4.rotationZ(0.25 * f))) as Float32Array,
  );
}

/** Five crowd members: instance matrices (a row along x, scaled 0.7) and playback records with their own offsets and speeds. */
export function crowdInstances(): { matrices: Float32Array; playback: Float32Array } {
  const clips: [number, number, number, number][] = [
    [0, 3, 0, 1],
    [0, 3, 1, 2],
    [0, 3, 2, 1.5],
    [0, 3, 3.5, -1],
    [1, 3, 0.5, 1.25],
  ];
  const matrices = new Float32Array(clips.length * 16);
  const playback = new Float32Array(clips.length * 12);
  clips.forEach((clip, i) => {
    matrices.set(mat4.multiply(mat4.translation([-2.4 + 1.2 * i, 0, 0]), mat4.scaling([0.7, 0.7, 0.7])), i * 16);
    playback.set([...clip, ...clip, 0, 0, 0, 0], i * 12);
  });
  return { matrices, playback };
}
