import { makeEmptyAabb, transformAabb } from '../../engine/bounds.js';
import type { Scene } from '../../engine/scene.js';
import { nodeCountWord, nodeFirstWord, nodeWords } from '../cpu/bvh/bvh-nodes.js';
import { getCpuPicker, syncCpuPicker } from '../cpu/cpu-picker.js';
import type { SceneBvh } from '../cpu/scene-bvh.js';
import type { SceneEntries } from '../cpu/scene-entries.js';
import { PickError } from '../pick-errors.js';
import {
  ignoredInstanceRanges,
  isInstanceInRanges,
  makePickFilter,
  makePickFilterTest,
  pickFilterKeepsMesh,
} from '../pick-filter.js';
import { maxPickId } from '../pick-id.js';
import {
  captureCandidate,
  type InstanceRun,
  type PickCandidate,
  type PickOptions,
  type PickSnapshot,
  sceneHasDeformedMeshes,
} from '../pick-snapshot.js';
import type { PixelRegion } from '../pick-zoom.js';
import type { PickSubject } from '../sources/pick-source.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';

/**
 * The five half-spaces (x ≥ left, x ≤ right, y ≥ bottom, y ≤ top, z ≤ w) of the rectangle's frustum in world space,
 * 4 float64 coefficients each (a·x + b·y + c·z + d ≥ 0 inside). The rectangle grows by `margin` pixels on each side,
 * so bounds rounded to float32 never lose a pixel centre at its border. The far side is left open.
 * @internal
 */
export function makeRectPlanes(
  viewProjection: ArrayLike<number>,
  region: PixelRegion,
  width: number,
  height: number,
  margin = 1,
): Float64Array {
  const left = ((region.x - margin) / width) * 2 - 1;
  const right = ((region.x + region.width + margin) / width) * 2 - 1;
  const top = 1 - ((region.y - margin) / height) * 2;
  const bottom = 1 - ((region.y + region.height + margin) / height) * 2;
  const m = viewProjection;
  const planes = new Float64Array(20);
  // Column k of the matrix: rows x, y, z, w (scalars, no tuple: a snap runs this cold).
  for (let k = 0; k < 4; k++) {
    const x = m[k * 4];
    const y = m[k * 4 + 1];
    const z = m[k * 4 + 2];
    const w = m[k * 4 + 3];
    planes[k] = x - left * w;
    planes[4 + k] = right * w - x;
    planes[8 + k] = y - bottom * w;
    planes[12 + k] = top * w - y;
    planes[16 + k] = w - z;
  }
  return planes;
}

/** Whether the box (interleaved min/max per axis at `b[o..o+6]`) lies wholly outside one of the planes. */
function isBoxOutsideRect(planes: Float64Array, b: ArrayLike<number>, o: number): boolean {
  for (let p = 0; p < 20; p += 4) {
    const a = planes[p];
    const c = planes[p + 1];
    const e = planes[p + 2];
    const far =
      a * (a > 0 ? b[o + 1] : b[o]) +
      c * (c > 0 ? b[o + 3] : b[o + 2]) +
      e * (e > 0 ? b[o + 5] : b[o + 4]) +
      planes[p + 3];
    if (!(far >= 0)) return true;
  }
  return false;
}

/** All five planes of `makeRectPlanes`, as a bit mask. */
const allPlanes = 0b11111;

/**
 * Of the planes in `mask`, those the box (interleaved min/max per axis at `b[o..o+6]`) straddles; −1 when it lies
 * wholly outside one of them. A box inside a plane needs no test against it for any box it contains.
 */
function straddledPlanes(planes: Float64Array, b: Float32Array, o: number, mask: number): number {
  let straddled = 0;
  for (let p = 0; p < 5; p++) {
    if ((mask & (1 << p)) === 0) continue;
    const q = p * 4;
    const a = planes[q];
    const c = planes[q + 1];
    const e = planes[q + 2];
    const d = planes[q + 3];
    const far =
      a * (a > 0 ? b[o + 1] : b[o]) + c * (c > 0 ? b[o + 3] : b[o + 2]) + e * (e > 0 ? b[o + 5] : b[o + 4]) + d;
    if (!(far >= 0)) return -1;
    const near =
      a * (a > 0 ? b[o] : b[o + 1]) + c * (c > 0 ? b[o + 2] : b[o + 3]) + e * (e > 0 ? b[o + 4] : b[o + 5]) + d;
    if (!(near >= 0)) straddled |= 1 << p;
  }
  return straddled;
}

/**
 * The valid entries whose world bounds reach into the planes' frustum, in entry (scene) order. With a scene BVH only
 * the subtrees whose node box reaches in are visited, and each is tested only against the planes its parent's box
 * straddles (a node box holds its entries' boxes), so entries of a node wholly inside the rectangle's frustum are
 * taken without a test: the cost follows what the rectangle holds and its border, not the scene.
 * @internal
 */
export function entriesInRect(entries: SceneEntries, bvh: SceneBvh | null, planes: Float64Array): Int32Array {
  const { valid, bounds } = entries;
  const found = new Int32Array(entries.count);
  let count = 0;
  if (!bvh || bvh.nodes.nodeCount === 0) {
    for (let e = 0; e < entries.count; e++)
      if (valid[e] && straddledPlanes(planes, bounds, e * 6, allPlanes) >= 0) found[count++] = e;
    return found.subarray(0, count);
  }
  const { floats, ints, maxDepth } = bvh.nodes;
  const order = bvh.order;
  // Pairs of (node, planes its parent straddles).
  const stack = new Int32Array(2 * (maxDepth + 2));
  let sp = 0;
  stack[sp++] = 0;
  stack[sp++] = allPlanes;
  while (sp > 0) {
    const mask = stack[--sp];
    const o = stack[--sp] * nodeWords;
    const straddled = straddledPlanes(planes, floats, o, mask);
    if (straddled < 0) continue;
    const leafCount = ints[o + nodeCountWord];
    const first = ints[o + nodeFirstWord];
    if (leafCount > 0) {
      for (let i = first, end = i + leafCount; i < end; i++) {
        const e = order[i];
        if (valid[e] && (straddled === 0 || straddledPlanes(planes, bounds, e * 6, straddled) >= 0)) found[count++] = e;
      }
    } else {
      stack[sp++] = first + 1;
      stack[sp++] = straddled;
      stack[sp++] = first;
      stack[sp++] = straddled;
    }
  }
  return found.subarray(0, count).sort();
}

function idOverflow(api: string): PickError {
  return new PickError(
    api,
    'limit-exceeded',
    `the pick needs more than ${maxPickId} IDs (24-bit RGB); filter or ignore meshes`,
  );
}

/**
 * What a marquee draws: every mesh / thin instance that passes the options and whose world bounds reach into the
 * rectangle's frustum (`planes`; null draws everything that passes the options). IDs are 1-based in scene order.
 * Without deformed meshes the CPU picker's scene entries (world bounds of every mesh and instance, refit as the
 * picker refits) answer; otherwise each mesh's bounds (a deformed one's conservative pose bounds) are tested here.
 * @internal
 */
export function makeRectSnapshot(
  api: string,
  scene: Scene,
  options: PickOptions,
  planes: Float64Array | null,
): PickSnapshot {
  const pickFilter = makePickFilter(api, options, PickError);
  if (planes && !sceneHasDeformedMeshes(scene)) {
    const accept = makePickFilterTest(pickFilter);
    const picker = getCpuPicker(scene);
    syncCpuPicker(picker);
    const { entries } = picker;
    const { meshes, instances } = entries;
    const candidates: PickCandidate[] = [];
    let nextId = 1;
    let runs: InstanceRun[] = [];
    let current: PickSubject | null = null;
    const close = () => {
      if (!current) return;
      const idCount = Math.max(1, current.thinInstanceCount);
      candidates.push(captureCandidate(current, nextId, idCount, current.thinInstances ? runs : null));
      nextId += idCount;
      if (nextId - 1 > maxPickId) throw idOverflow(api);
      runs = [];
      current = null;
    };
    // Entries are in scene order and a mesh's instances are consecutive: gather each mesh's, as runs.
    for (const e of entriesInRect(entries, picker.bvh, planes)) {
      const mesh = meshes[e];
      const instance = instances[e];
      if (mesh.disposed || !accept(mesh, instance)) continue;
      if (mesh !== current) {
        close();
        current = mesh;
      }
      if (instance < 0) continue;
      const last = runs[runs.length - 1];
      if (last && last.first + last.count === instance) last.count++;
      else runs.push({ first: instance, count: 1, matrices: new Float32Array(0) });
    }
    close();
    for (const c of candidates)
      for (const run of c.runs ?? [])
        run.matrices = c.mesh.thinInstances!.slice(run.first * 16, (run.first + run.count) * 16);
    return { candidates, drawLists: [candidates.map((_, i) => i)] };
  }
  const local = new Float32Array(6);
  const box = makeEmptyAabb();
  const combined = new Float32Array(16);
  const inside = (mesh: PickSubject, matrix: Float32Array) => {
    if (!planes) return true;
    transformAabb(source.isDeformed(mesh) ? source.deformedLocalBounds(mesh) : mesh.localBounds, matrix, box);
    for (let a = 0; a < 3; a++) {
      local[a * 2] = box.min[a];
      local[a * 2 + 1] = box.max[a];
    }
    return !isBoxOutsideRect(planes, local, 0);
  };
  const candidates: PickCandidate[] = [];
  let nextId = 1;
  for (const mesh of scene.meshes) {
    if (mesh.disposed || !pickFilterKeepsMesh(pickFilter, mesh)) continue;
    let runs: InstanceRun[] | null = null;
    if (!mesh.thinInstances) {
      if (!inside(mesh, mesh.worldMatrix)) continue;
    } else {
      const ignored = ignoredInstanceRanges(pickFilter, mesh);
      runs = [];
      let start = -1;
      for (let i = 0; i <= mesh.thinInstanceCount; i++) {
        let include = i < mesh.thinInstanceCount && !isInstanceInRanges(ignored, i);
        if (include && planes) {
          source.multiplyByInstance(mesh.worldMatrix, mesh.thinInstances, i, combined);
          include = inside(mesh, combined);
        }
        if (include) {
          if (start < 0) start = i;
        } else if (start >= 0) {
          runs.push({ first: start, count: i - start, matrices: mesh.thinInstances.slice(start * 16, i * 16) });
          start = -1;
        }
      }
      if (runs.length === 0) continue;
    }
    const idCount = Math.max(1, mesh.thinInstanceCount);
    candidates.push(captureCandidate(mesh, nextId, idCount, runs));
    nextId += idCount;
    if (nextId - 1 > maxPickId) throw idOverflow(api);
  }
  return { candidates, drawLists: [candidates.map((_, i) => i)] };
}
