import { describeValue } from '../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../core/options.js';
import { makeVertexAnimationFragment } from '../fragments/vertex-animation.js';
import { makeVertexAnimationVelocityFragment } from '../fragments/vertex-animation-velocity.js';
import { type Aabb, makeEmptyAabb, transformAabb, unionAabb } from './bounds.js';
import { EngineError, engineOptionError, MeshDataError } from './engine-errors.js';
import { findVertexAttribute, type MeshGeometry, readVertexAttribute } from './mesh-data.js';
import { type VertexAnimation, vertexAnimationRecordFloats } from './vertex-animation-types.js';

export { type VertexAnimation, vertexAnimationRecordFloats } from './vertex-animation-types.js';

/** What `makeVertexAnimation` needs: frame-major bone matrices (frame f, bone b at (f·boneCount + b)·16). */
export interface VertexAnimationOptions {
  name?: string;
  frames: Float32Array;
  boneCount: number;
  frameCount: number;
}

/**
 * The texture row clip `at..at+3` = (fromFrame, toFrame, offset, speed) of `clips` shows at `time`:
 * fromFrame + floor(mod(time·speed + offset, toFrame − fromFrame + 1)), mod(a, n) = a − n·floor(a / n), clamped to the frames.
 * @internal
 */
export function vertexAnimationRow(clips: ArrayLike<number>, at: number, time: number, frameCount: number): number {
  const length = Math.max(clips[at + 1] - clips[at] + 1, 1);
  const t = time * clips[at + 3] + clips[at + 2];
  const row = Math.trunc(clips[at] + Math.min(Math.floor(t - length * Math.floor(t / length)), length - 1));
  return Math.min(Math.max(row, 0), frameCount - 1);
}

/** One playback record: play `clipA` (and blend `clipB` by `weightB`); clips are [fromFrame, toFrame, offset, speed]. */
export function makeVertexAnimationPlayback(
  clipA: readonly [number, number, number, number],
  clipB: readonly [number, number, number, number] = clipA,
  weightB = 0,
): Float32Array<ArrayBuffer> {
  return new Float32Array([...clipA, ...clipB, weightB, 0, 0, 0]);
}

const vertexAnimationOptionKeys: OptionKeys<VertexAnimationOptions> = {
  name: true,
  frames: true,
  boneCount: true,
  frameCount: true,
};

function checkCount(api: string, what: string, value: unknown): number {
  if (!Number.isInteger(value) || (value as number) < 1)
    throw new EngineError(api, 'bad-size', `${what} ${describeValue(value)} must be a positive integer`);
  return value as number;
}

function checkPlaybackFor(
  frameCount: number,
  api: string,
  meshName: string,
  playback: ArrayLike<number>,
  records: number,
): Float32Array<ArrayBuffer> {
  const field = 'vertexAnimationPlayback';
  const expected = records * vertexAnimationRecordFloats;
  if (!playback || typeof playback.length !== 'number' || playback.length !== expected) {
    throw new MeshDataError(
      api,
      meshName,
      field,
      `expected ${expected} numbers (12 per ${records === 1 ? 'mesh' : `instance, ${records} instances`}), got ${describeValue(playback)}`,
    );
  }
  const copy = Float32Array.from(playback as ArrayLike<number>);
  for (let r = 0; r < records; r++) {
    const at = r * vertexAnimationRecordFloats;
    const record = Array.from(copy.subarray(at, at + vertexAnimationRecordFloats));
    if (!record.every(Number.isFinite))
      throw new MeshDataError(
        api,
        meshName,
        field,
        `record ${r} holds a non-finite number (${record.find((x) => !Number.isFinite(x))})`,
      );
    for (const clip of [0, 4]) {
      const [from, to] = [record[clip], record[clip + 1]];
      if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || from > to || to >= frameCount) {
        throw new MeshDataError(
          api,
          meshName,
          field,
          `record ${r} clip ${clip ? 'B' : 'A'} frames ${from}..${to} must be integers with 0 ≤ fromFrame ≤ toFrame ≤ ${frameCount - 1}`,
        );
      }
    }
    if (record[8] < 0 || record[8] > 1)
      throw new MeshDataError(api, meshName, field, `record ${r} weightB ${record[8]} must be in 0..1`);
  }
  return copy;
}

/**
 * Validates and copies the frames; the returned object also brings the VAT fragments and CPU routines to the engine.
 * @throws {MeshDataError} when the frames have the wrong size or hold non-finite or non-affine matrices
 * @throws {EngineError} when an option is invalid
 */
export function makeVertexAnimation(options: VertexAnimationOptions): VertexAnimation {
  const api = 'makeVertexAnimation';
  checkOptionKeys(api, options, vertexAnimationOptionKeys, engineOptionError);
  if (options === undefined)
    throw new EngineError(api, 'bad-option', 'options { frames, boneCount, frameCount, name? } are required');
  const name = options?.name ?? 'vertex-animation';
  const boneCount = checkCount(api, 'boneCount', options?.boneCount);
  const frameCount = checkCount(api, 'frameCount', options?.frameCount);
  const source = options.frames;
  const expected = frameCount * boneCount * 16;
  if (!(source instanceof Float32Array) || source.length !== expected) {
    throw new EngineError(
      api,
      'bad-data',
      `VAT texture of the wrong size: frames ${describeValue(source)} must be a Float32Array of frameCount × boneCount × 16 = ${frameCount} × ${boneCount} × 16 = ${expected} floats`,
    );
  }
  for (let i = 0; i < source.length; i++) {
    const at = `frame ${Math.floor(i / 16 / boneCount)} bone ${Math.floor(i / 16) % boneCount} lane ${i % 16}`;
    if (!Number.isFinite(source[i]))
      throw new EngineError(api, 'bad-data', `frames: ${at} is ${source[i]}; every value must be finite`);
    const lane = i % 16;
    const affine = lane === 15 ? 1 : lane === 3 || lane === 7 || lane === 11 ? 0 : null;
    if (affine !== null && Math.abs(source[i] - affine) > 1e-6)
      throw new EngineError(
        api,
        'bad-data',
        `frames: ${at} is ${source[i]}; bone matrices must be affine (lanes 3, 7, 11 = 0 and 15 = 1)`,
      );
  }
  const frames = new Float32Array(source);
  const boundsByRest = new WeakMap<Aabb, Aabb>();

  const influenceMatrix = (
    joints: ArrayLike<number>,
    weights: ArrayLike<number>,
    playback: ArrayLike<number>,
    record: number,
    time: number,
    out: Float32Array = new Float32Array(16),
  ): Float32Array => {
    out.fill(0);
    const at = record * vertexAnimationRecordFloats;
    const weightB = Math.min(Math.max(playback[at + 8], 0), 1);
    for (const [clip, scale] of [
      [at, 1 - weightB],
      [at + 4, weightB],
    ]) {
      const base = vertexAnimationRow(playback, clip, time, frameCount) * boneCount;
      for (let k = 0; k < joints.length; k++) {
        const w = weights[k] * scale;
        if (!w) continue;
        const m = (base + joints[k]) * 16;
        for (let e = 0; e < 16; e++) out[e] += w * frames[m + e];
      }
    }
    return out;
  };

  const animatedBounds = (rest: Aabb): Aabb => {
    let bounds = boundsByRest.get(rest);
    if (!bounds) {
      bounds = makeEmptyAabb();
      const scratch = makeEmptyAabb();
      for (let m = 0; m < frameCount * boneCount; m++)
        unionAabb(bounds, transformAabb(rest, frames.subarray(m * 16, m * 16 + 16), scratch));
      boundsByRest.set(rest, bounds);
    }
    return bounds;
  };

  const checkMesh = (
    meshApi: string,
    meshName: string,
    geometry: MeshGeometry,
    playback: ArrayLike<number> | undefined,
    records: number,
    maxTextureDimension2D: number,
  ) => {
    if (!findVertexAttribute(geometry, 'joints'))
      throw new MeshDataError(
        meshApi,
        meshName,
        'joints',
        `is missing: vertex animation "${name}" needs joints and weights (4 influences; 8 with joints2/weights2)`,
      );
    const j = [0, 0, 0, 0];
    for (const semantic of ['joints', 'joints2'] as const) {
      for (let v = 0; findVertexAttribute(geometry, semantic) && v < geometry.vertexCount; v++) {
        readVertexAttribute(geometry, semantic, v, j);
        const bad = j.find((b) => b >= boneCount);
        if (bad !== undefined)
          throw new MeshDataError(
            meshApi,
            meshName,
            semantic,
            `vertex ${v} uses bone ${bad}; vertex animation "${name}" has ${boneCount} bones (0..${boneCount - 1})`,
          );
      }
    }
    if (boneCount * 4 > maxTextureDimension2D || frameCount > maxTextureDimension2D) {
      throw new MeshDataError(
        meshApi,
        meshName,
        'vertexAnimation',
        `vertex animation "${name}" needs a ${boneCount * 4} × ${frameCount} texture (4 texels per bone × frames); the device allows at most ${maxTextureDimension2D} × ${maxTextureDimension2D} (maxTextureDimension2D)`,
      );
    }
    if (playback === undefined) {
      const all = new Float32Array(records * vertexAnimationRecordFloats);
      for (let r = 0; r < records; r++)
        all.set(makeVertexAnimationPlayback([0, frameCount - 1, 0, 1]), r * vertexAnimationRecordFloats);
      return all;
    }
    return checkPlaybackFor(frameCount, meshApi, meshName, playback, records);
  };

  return {
    name,
    boneCount,
    frameCount,
    frames,
    fragment: makeVertexAnimationFragment,
    velocityFragment: makeVertexAnimationVelocityFragment,
    checkMesh,
    checkPlayback: (meshApi, meshName, playback, records) =>
      checkPlaybackFor(frameCount, meshApi, meshName, playback, records),
    influenceMatrix,
    animatedBounds,
  };
}
