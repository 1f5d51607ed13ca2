// An independent marquee reference: float64 rays through pixel centres, built from the camera's parameters (not with
// weft's ray helper), cast analytically against axis-aligned boxes.

/** A world-space axis-aligned box and the identity a pick should report for it. */
export interface RefBox {
  key: string;
  min: readonly [number, number, number];
  max: readonly [number, number, number];
}

/** What the reference needs of a perspective camera (the same parameters `makePerspectiveCamera` takes). */
export interface RefCamera {
  position: readonly number[];
  target: readonly number[];
  up?: readonly number[];
  fovY: number;
}

type V3 = [number, number, number];
const sub = (a: readonly number[], b: readonly number[]): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: V3): V3 => {
  const l = Math.hypot(...a);
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** The float64 ray from the eye through framebuffer point (sx, sy) (pixel i spans i .. i + 1). */
export function refRay(camera: RefCamera, width: number, height: number, sx: number, sy: number): [V3, V3] {
  const forward = unit(sub(camera.target, camera.position));
  const right = unit(cross(forward, [...(camera.up ?? [0, 1, 0])] as V3));
  const up = cross(right, forward);
  const t = Math.tan(camera.fovY / 2);
  const nx = (sx / width) * 2 - 1;
  const ny = 1 - (sy / height) * 2;
  const a = nx * t * (width / height);
  const b = ny * t;
  return [
    [camera.position[0], camera.position[1], camera.position[2]],
    [0, 1, 2].map((k) => forward[k] + right[k] * a + up[k] * b) as V3,
  ];
}

/** Slab test: the entry distance along the ray, or Infinity on a miss; `grow` widens (negative: shrinks) the box. */
function entry(origin: V3, dir: V3, box: RefBox, grow: number): number {
  let near = 0;
  let far = Infinity;
  for (let k = 0; k < 3; k++) {
    const lo = box.min[k] - grow;
    const hi = box.max[k] + grow;
    if (dir[k] === 0) {
      if (origin[k] < lo || origin[k] > hi) return Infinity;
      continue;
    }
    const t0 = (lo - origin[k]) / dir[k];
    const t1 = (hi - origin[k]) / dir[k];
    near = Math.max(near, Math.min(t0, t1));
    far = Math.min(far, Math.max(t0, t1));
  }
  return near <= far ? near : Infinity;
}

/** The nearest box's key, and the runner-up's when its entry is within a depth buffer's reach (relative 1e-4). */
function firstHit(origin: V3, dir: V3, boxes: readonly RefBox[], grow: number): [string | null, string | null] {
  let best = Infinity;
  let second = Infinity;
  let key: string | null = null;
  let runnerUp: string | null = null;
  for (const box of boxes) {
    const t = entry(origin, dir, box, grow);
    if (t < best) {
      [second, runnerUp] = [best, key];
      [best, key] = [t, box.key];
    } else if (t < second) [second, runnerUp] = [t, box.key];
  }
  return [key, second - best <= best * 1e-4 ? runnerUp : null];
}

/** The expected marquee over pixels x0 .. x0 + w − 1 × y0 .. y0 + h − 1. */
export interface RefRect {
  /** Keys first hit at some pixel centre whatever the rounding (the boxes grown, exact and shrunk by `epsilon`,
   * and no other box's entry within a depth buffer's reach). */
  certain: Set<string>;
  /** Every key first hit at some pixel centre under one of those three. */
  possible: Set<string>;
  /** Pixel centres whose first hit depends on the rounding (an edge within `epsilon`): 0 in a designed layout. */
  ambiguous: number;
  /** Pixel centres cast. */
  pixels: number;
}

/**
 * The union of first hits of the rays through every pixel centre of the rectangle. Only the boxes whose projected
 * corners come near a pixel are cast against it (each box's screen bounds, from the same float64 camera, bucket it).
 */
export function refRect(
  camera: RefCamera,
  width: number,
  height: number,
  boxes: readonly RefBox[],
  rect: { x: number; y: number; width: number; height: number },
  epsilon = 1e-3,
): RefRect {
  const tile = 8;
  const tilesX = Math.ceil(width / tile);
  const buckets = new Map<number, RefBox[]>();
  const forward = unit(sub(camera.target, camera.position));
  const right = unit(cross(forward, [...(camera.up ?? [0, 1, 0])] as V3));
  const up = cross(right, forward);
  const t = Math.tan(camera.fovY / 2);
  for (const box of boxes) {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let c = 0; c < 8; c++) {
      const p = sub(
        [c & 1 ? box.max[0] : box.min[0], c & 2 ? box.max[1] : box.min[1], c & 4 ? box.max[2] : box.min[2]],
        camera.position,
      );
      const z = p[0] * forward[0] + p[1] * forward[1] + p[2] * forward[2];
      if (!(z > 0)) throw new Error(`reference box ${box.key} reaches behind the eye`);
      const sx = (((p[0] * right[0] + p[1] * right[1] + p[2] * right[2]) / (z * t * (width / height)) + 1) / 2) * width;
      const sy = ((1 - (p[0] * up[0] + p[1] * up[1] + p[2] * up[2]) / (z * t)) / 2) * height;
      [x0, y0, x1, y1] = [Math.min(x0, sx), Math.min(y0, sy), Math.max(x1, sx), Math.max(y1, sy)];
    }
    const tx0 = Math.max(0, Math.floor((x0 - 1) / tile));
    const tx1 = Math.min(tilesX - 1, Math.floor((x1 + 1) / tile));
    const ty0 = Math.max(0, Math.floor((y0 - 1) / tile));
    const ty1 = Math.min(Math.ceil(height / tile) - 1, Math.floor((y1 + 1) / tile));
    for (let ty = ty0; ty <= ty1; ty++)
      for (let tx = tx0; tx <= tx1; tx++) {
        const list = buckets.get(ty * tilesX + tx) ?? [];
        list.push(box);
        buckets.set(ty * tilesX + tx, list);
      }
  }
  const certain = new Set<string>();
  const possible = new Set<string>();
  let ambiguous = 0;
  for (let py = rect.y; py < rect.y + rect.height; py++)
    for (let px = rect.x; px < rect.x + rect.width; px++) {
      const near = buckets.get(Math.floor(py / tile) * tilesX + Math.floor(px / tile)) ?? [];
      const [origin, dir] = refRay(camera, width, height, px + 0.5, py + 0.5);
      const [exact, tie] = firstHit(origin, dir, near, 0);
      const hits = [firstHit(origin, dir, near, epsilon)[0], exact, firstHit(origin, dir, near, -epsilon)[0], tie];
      for (const hit of hits) if (hit !== null) possible.add(hit);
      if (tie === null && hits[0] === hits[1] && hits[1] === hits[2]) {
        if (hits[0] !== null) certain.add(hits[0]);
      } else ambiguous++;
    }
  return { certain, possible, ambiguous, pixels: rect.width * rect.height };
}

/** A pixel boundary's world coordinate on the plane facing a camera that looks straight down −Z (x, or y going up). */
export function pixelToPlane(camera: RefCamera, width: number, height: number, distance: number) {
  const t = Math.tan(camera.fovY / 2);
  return {
    x: (px: number) => camera.position[0] + ((px / width) * 2 - 1) * t * (width / height) * distance,
    y: (py: number) => camera.position[1] + (1 - (py / height) * 2) * t * distance,
  };
}
