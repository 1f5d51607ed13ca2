import { describe, expect, test } from 'vitest';
import { setMeshWorldMatrix } from '../../../engine/mesh.js';
import { createCpuPicker, syncCpuPicker } from '../../../picking/cpu/cpu-picker.js';
import { entriesInRect, makeRectPlanes } from '../../../picking/rect/pick-rect-snapshot.js';
import { addRandomMeshes, makeCpuScene, mulberry32, randomTransform } from './scene-fixtures.js';

type V3 = [number, number, number];

const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const unit = (a: V3): V3 => {
  const l = Math.hypot(...a);
  return [a[0] / l, a[1] / l, a[2] / l];
};

/**
 * A column-major float64 view-projection built here (look-at × WebGPU perspective, depth 0..1), so the planes under
 * test and the reference below share nothing but the camera's parameters.
 */
function viewProjection(eye: V3, target: V3, fovY: number, aspect: number, near: number, far: number): Float64Array {
  const zAxis = unit(sub(eye, target));
  const xAxis = unit(cross([0, 1, 0], zAxis));
  const yAxis = cross(zAxis, xAxis);
  const f = 1 / Math.tan(fovY / 2);
  const rows = [
    [...xAxis, -dot(xAxis, eye)].map((v) => (v * f) / aspect),
    [...yAxis, -dot(yAxis, eye)].map((v) => v * f),
    [...zAxis, -dot(zAxis, eye)].map((v, k) => (v * far) / (near - far) + (k === 3 ? (near * far) / (near - far) : 0)),
    [...zAxis, -dot(zAxis, eye)].map((v) => -v),
  ];
  const m = new Float64Array(16);
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) m[c * 4 + r] = rows[r][c];
  return m;
}

/** Where each of the box's 8 corners lands in pixels (null behind the eye). */
function cornerPixels(m: Float64Array, b: ArrayLike<number>, o: number, width: number, height: number) {
  const pixels: Array<[number, number] | null> = [];
  for (let i = 0; i < 8; i++) {
    const p = [b[o + (i & 1)], b[o + 2 + ((i >> 1) & 1)], b[o + 4 + ((i >> 2) & 1)], 1];
    const clip = [0, 1, 2, 3].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r] * p[3]);
    pixels.push(
      clip[3] > 1e-6 ? [((clip[0] / clip[3] + 1) / 2) * width, ((1 - clip[1] / clip[3]) / 2) * height] : null,
    );
  }
  return pixels;
}

describe('marquee cull: the scene BVH walk finds what a flat scan finds', () => {
  test('same entries with and without the hierarchy, and every box with a corner in the rectangle is among them', () => {
    const scene = makeCpuScene();
    addRandomMeshes(scene, mulberry32(21), 600, 80);
    const picker = createCpuPicker(scene, { sceneBvh: 'always' });
    syncCpuPicker(picker);
    expect(picker.bvh).not.toBeNull();
    const [width, height] = [640, 480];
    const m = viewProjection([3, 4, 90], [0, 0, 0], Math.PI / 4, width / height, 0.1, 500);
    const rand = mulberry32(5);
    let checkedRects = 0;
    for (let round = 0; round < 12; round++) {
      if (round === 6) {
        // Move a tenth of the meshes through the setter: the refit hierarchy must still agree with the entries.
        for (let i = 0; i < scene.meshes.length; i += 10)
          setMeshWorldMatrix(scene.meshes[i], randomTransform(rand, 80));
        syncCpuPicker(picker);
      }
      const region = {
        x: Math.floor(rand() * 500),
        y: Math.floor(rand() * 360),
        width: 1 + Math.floor(rand() * 140),
        height: 1 + Math.floor(rand() * 120),
      };
      const planes = makeRectPlanes(m, region, width, height, 0);
      const walked = Array.from(entriesInRect(picker.entries, picker.bvh, planes));
      const scanned = Array.from(entriesInRect(picker.entries, null, planes));
      expect(walked).toEqual(scanned);
      const found = new Set(walked);
      const { bounds, valid, count } = picker.entries;
      let inside = 0;
      for (let e = 0; e < count; e++) {
        if (!valid[e]) continue;
        const corners = cornerPixels(m, bounds, e * 6, width, height);
        const cornerInside = corners.some(
          (p) =>
            p &&
            p[0] > region.x &&
            p[0] < region.x + region.width &&
            p[1] > region.y &&
            p[1] < region.y + region.height,
        );
        if (cornerInside) inside++;
        if (cornerInside) expect(found.has(e), `entry ${e} has a corner inside ${JSON.stringify(region)}`).toBe(true);
        const allVisible = corners.every((p) => p !== null);
        const allLeft = allVisible && corners.every((p) => p && p[0] < region.x);
        const allBelow = allVisible && corners.every((p) => p && p[1] > region.y + region.height);
        if (allLeft || allBelow) expect(found.has(e), `entry ${e} lies wholly outside`).toBe(false);
      }
      if (inside > 0) checkedRects++;
    }
    expect(checkedRects).toBeGreaterThan(3);
  });
});
