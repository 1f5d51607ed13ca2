import type { CheckedRule } from '../discard-rules.js';
import type { PickRaster } from './pick-pipelines.js';
import type { PickPipeline } from './pick-resources.js';
import type { PickCulling } from '../sources/pick-source.js';
import type { PickDetailMethod } from './pick-shader.js';
import type { PickSnapshot } from '../pick-snapshot.js';
import type { CapturedSource, ContributorViewData } from '../sources/pick-contributors.js';
import type { PixelRegion } from '../pick-zoom.js';
import type { RectIdReducer } from './id-bitset-reduce.js';
import type { BatchDraw } from './pick-batches.js';

/** @internal One pick pass to draw: the snapshot, the camera matrix and where each point lands in the target. */
export interface PickPassRequest {
  api: string;
  snapshot: PickSnapshot;
  viewProjection: Float32Array;
  width: number;
  height: number;
  /** `row`: one 1×1 region per point, side by side; `rect`: one region drawn at full size. */
  regions: PixelRegion[];
  layout: 'row' | 'rect';
  detailed: boolean;
  /** How a detailed pass learns the triangle (default 'primitive-index'). */
  detailMethod?: PickDetailMethod;
  rule: CheckedRule | null;
  /** Non-mesh pick sources captured with the snapshot, after the meshes' IDs. */
  sources: readonly CapturedSource[];
  /** Camera data the sources draw with (null without sources). */
  view: ContributorViewData | null;
  /** The rule's storage contents per candidate, copied at the call (`readPickRuleStorage`); undefined: read now. */
  ruleStorage?: (ArrayBufferView | null)[][] | null;
  /** Back faces: culled as the renderers cull them (default), or all picked. */
  culling?: PickCulling;
  /**
   * Side of each point's overlay neighbourhood (2 · tolerance + 1; 0 or undefined: none). A `row` target then holds
   * the points' texels in row 0 and point p's neighbourhood at x = p · block, rows 1 .. block.
   */
  overlayBlock?: number;
  /** A `rect` request's GPU reduction of the ID target (id-bitset-reduce.ts): replaces the texel copies. */
  reducer?: RectIdReducer;
}

/**
 * One draw of a candidate's instances that share a front face, with the raster state (and pipeline) it needs.
 * @internal
 */
export interface RasterRun {
  first: number;
  count: number;
  raster: PickRaster;
  pipeline: PickPipeline | null;
}

/**
 * A point drawing a candidate: its draw-uniform slot and which thin instances (null: every run of the candidate).
 * @internal
 */
export interface PointUse {
  point: number;
  slot: number;
  instances: readonly { first: number; count: number }[] | null;
}

/**
 * A candidate's part in a marquee batch: `alone` draws itself; a `batch-leader` (a batch's first member) draws the
 * whole batch with its slot and buffers; a `batch-follower` has no slot, pipeline or draw of its own.
 * @internal
 */
export type BatchRole = 'alone' | 'batch-leader' | 'batch-follower';

/** @internal How one pass draws one snapshot candidate. */
export interface CandidatePlan {
  /** The pipeline of its first run (null for a mesh disposed since the snapshot, and for batch members). */
  pipeline: PickPipeline | null;
  /** Its instance runs split by front face, each with its pipeline (empty when disposed or batched). */
  rasterRuns: readonly RasterRun[];
  /** The rule's storage data in binding order (null without rule storage). */
  storage: (ArrayBufferView | null)[] | null;
  role: BatchRole;
  /** The points of this pass that draw it, the draw-uniform slot of each, the instances it draws (null: all). */
  uses: readonly PointUse[];
}

/** @internal What one pass draws, worked out before anything is written. */
export interface PickPassPlan {
  /** `row`: one 1×1 region per point, side by side in the target; otherwise one region at full size. */
  row: boolean;
  targetWidth: number;
  targetHeight: number;
  /**
   * Per snapshot candidate, in order. All but `uses` is the same for every pass of a split request: the first pass
   * holds the records `planPickShared` made, a later pass copies them with uses of its own.
   */
  candidates: CandidatePlan[];
  slots: number;
  /** A marquee's batches drawn instanced, by first candidate (each drawn at its `batch-leader`). */
  batchDraws: BatchDraw[] | null;
}

/**
 * The device limits a pick pass must fit (the values of `device.limits`). The uniform bindings are fixed-size
 * (256 B each, at dynamic offsets), so `maxUniformBufferBindingSize` never binds; the buffers' size does.
 * @internal
 */
export interface PickPassLimits {
  /** Bounds the per-point and per-draw uniform buffers (512 B a slot) and the staging buffer of the copies. */
  maxBufferSize: number;
  /** Bounds the pick targets: a `row` pass is one texel per point, a `rect` pass the rectangle. */
  maxTextureDimension2D: number;
}
