import type { Fragment } from '../fragments/fragment-types.js';
import type { Aabb } from './bounds.js';
import type { MeshGeometry } from './mesh-data.js';

/** @internal Floats per playback record: clip A (from, to, offset, speed), clip B (same), (weightB, 0, 0, 0). */
export const vertexAnimationRecordFloats = 12;

/**
 * Baked bone matrices per frame (a vertex animation texture), made by `makeVertexAnimation`. It carries the shader
 * fragments and CPU routines the engine calls, so meshes, pick and geometry code never import VAT code themselves:
 * only a scene that makes a VertexAnimation ships it.
 */
export interface VertexAnimation {
  readonly name: string;
  readonly boneCount: number;
  readonly frameCount: number;
  /** Column-major mesh-space matrices; frame f, bone b at (f·boneCount + b)·16 (also the texture's texels, row by row). */
  readonly frames: Float32Array<ArrayBuffer>;
  /** The `deformVertex` fragment (4 influences, 8 with condition `vat8`). */
  readonly fragment: () => Fragment;
  /** The `velocityPreviousPosition` fragment for LINEAR_VELOCITY (previous playback and time). */
  readonly velocityFragment: () => Fragment;
  /** Validates a mesh's joints and texture size and the playback of `records` records; returns the playback to keep. */
  readonly checkMesh: (
    api: string,
    meshName: string,
    geometry: MeshGeometry,
    playback: ArrayLike<number> | undefined,
    records: number,
    maxTextureDimension2D: number,
  ) => Float32Array<ArrayBuffer>;
  /** Validates playback for `records` records (12 floats each); returns a copy. */
  readonly checkPlayback: (
    api: string,
    meshName: string,
    playback: ArrayLike<number>,
    records: number,
  ) => Float32Array<ArrayBuffer>;
  /** The influence matrix the fragment computes for these joints/weights (4 or 8) with playback record `record` at `time`. */
  readonly influenceMatrix: (
    joints: ArrayLike<number>,
    weights: ArrayLike<number>,
    playback: ArrayLike<number>,
    record: number,
    time: number,
    out?: Float32Array,
  ) => Float32Array;
  /** Conservative local bounds: `rest` under every bone matrix of every frame (computed once per rest box). */
  readonly animatedBounds: (rest: Aabb) => Aabb;
}
