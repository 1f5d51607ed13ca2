// Snapping (issue #36 item 3) against a brute-force CPU reference written here: the triangles seen around the point by
// three-mesh-bvh rays through every pixel centre of the block, their corners projected in float64 from the camera's
// parameters, feature edges found by welding positions, occlusion by a ray cast along each feature's line of sight.
import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  type Camera,
  createMeshFromData,
  createScene,
  type Engine,
  makeMatrixCamera,
  makeOrthographicCamera,
  makePerspectiveCamera,
  type MeshData,
  type Scene,
  setThinInstances,
} from '../../../engine/index.js';
import { makeBoxData } from '../../../engine/primitives/box.js';
import { makeSphereData } from '../../../engine/primitives/sphere.js';
import {
  createGpuPicker,
  disposeGpuPicker,
  enableDetailedPicking,
  PickError,
  type PickingInfo,
  pickAsync,
  pickRectAsync,
  pickSnappedAsync,
  type SnapKind,
} from '../../../picking/index.js';
import { dot, makeFloat64Camera, normalize, pixelRay, sub, toView } from '../../support/camera-rays.js';
import {
  lookAt64,
  lookAtBasis,
  orthographic64,
  orthographicPixelRay,
  perspective64,
} from '../../support/camera-matrices64.js';
import { gpuTest } from '../../support/gpu.js';
import { makeRandom } from '../../support/random.js';
import {
  castReferenceRay,
  createReferenceScene,
  type ReferenceMesh,
  type ReferenceScene,
} from '../../support/reference-raycast.js';

type Vec3 = [number, number, number];
const size: [number, number] = [96, 72];
const radius = 8;

/** A placed mesh as the reference holds it. */
interface Placed {
  id: number;
  data: MeshData;
  world: Float32Array;
  instances: Float32Array | null;
}

/**
 * Boxes sharing faces and edges (two side by side, one on top of both, all on a slab), a rotated box, a sphere and
 * four thin-instanced boxes.
 */
function buildScene(engine: Engine): { scene: Scene; placed: Placed[] } {
  const scene = createScene(engine);
  const placed: Placed[] = [];
  const add = (name: string, data: MeshData, world: Float32Array, instances: Float32Array | null = null) => {
    const mesh = createMeshFromData(scene, name, data, { worldMatrix: world });
    if (instances) setThinInstances(mesh, instances);
    placed.push({ id: mesh.uniqueId, data, world: mesh.worldMatrix, instances });
  };
  const cube = makeBoxData({ width: 1, height: 1, depth: 1 });
  add('slab', makeBoxData({ width: 6, height: 0.2, depth: 5 }), new Float32Array(mat4.translation([0, -0.1, 0])));
  add('left', cube, new Float32Array(mat4.translation([0, 0.5, 0])));
  add('right', cube, new Float32Array(mat4.translation([1, 0.5, 0])));
  add('top', makeBoxData({ width: 1.4, height: 0.6, depth: 0.8 }), new Float32Array(mat4.translation([0.5, 1.3, 0])));
  add(
    'turned',
    makeBoxData({ width: 0.8, height: 1.3, depth: 0.7 }),
    new Float32Array(mat4.multiply(mat4.translation([-1.6, 0.65, 0.6]), mat4.rotationY(0.7))),
  );
  add('ball', makeSphereData({ radius: 0.55, segments: 10 }), new Float32Array(mat4.translation([2.2, 0.55, 0.9])));
  const instances = new Float32Array(64);
  [
    [-1.2, 0.25, 1.7, 0.3],
    [-0.4, 0.25, 1.9, 1.1],
    [0.5, 0.25, 1.6, -0.5],
    [1.3, 0.25, 2.0, 0.9],
  ].forEach(([x, y, z, turn], i) => {
    instances.set(mat4.multiply(mat4.translation([x, y, z]), mat4.rotationY(turn)), i * 16);
  });
  add('studs', makeBoxData({ width: 0.5, height: 0.5, depth: 0.5 }), new Float32Array(mat4.identity()), instances);
  return { scene, placed };
}

/** A camera as the reference sees it: pixel rays, projection to the framebuffer, the line of sight to a point. */
interface ReferenceCamera {
  ray(x: number, y: number): { origin: Vec3; direction: Vec3 };
  /** Framebuffer position and view depth (distance along the view axis) of a world point. */
  project(p: Vec3): { x: number; y: number; z: number };
  /** Where the line of sight to p starts. */
  sightOrigin(p: Vec3): Vec3;
  near: number;
  far: number;
  perspective: boolean;
}

function perspectiveReference(camera: Camera & { kind: 'perspective' }): ReferenceCamera {
  const basis = makeFloat64Camera(camera, size[0], size[1]);
  return {
    ray: (x, y) => pixelRay(basis, x - 0.5, y - 0.5),
    project(p) {
      const v = toView(basis, p);
      const ndcX = v[0] / (v[2] * basis.tanHalfFov * basis.aspect);
      const ndcY = v[1] / (v[2] * basis.tanHalfFov);
      return { x: ((ndcX + 1) / 2) * size[0], y: ((1 - ndcY) / 2) * size[1], z: v[2] };
    },
    sightOrigin: () => basis.position,
    near: basis.near,
    far: basis.far,
    perspective: true,
  };
}

function orthographicReference(camera: Camera & { kind: 'orthographic' }): ReferenceCamera {
  const basis = lookAtBasis(camera.position, camera.target, camera.up);
  const halfHeight = camera.height / 2;
  const halfWidth = halfHeight * (size[0] / size[1]);
  return {
    ray: (x, y) => orthographicPixelRay(camera, x, y, size[0], size[1]),
    project(p) {
      const d = sub(p, basis.eye);
      const v = [dot(d, basis.right), dot(d, basis.up), dot(d, basis.forward)];
      return { x: ((v[0] / halfWidth + 1) / 2) * size[0], y: ((1 - v[1] / halfHeight) / 2) * size[1], z: v[2] };
    },
    sightOrigin(p) {
      const along = dot(sub(p, basis.eye), basis.forward);
      return [0, 1, 2].map((k) => p[k] - along * basis.forward[k]) as Vec3;
    },
    near: camera.near,
    far: camera.far,
    perspective: false,
  };
}

/** Feature-edge flags per triangle edge (3f + k: corners k, k + 1), from welded local positions and a 1° crease. */
function referenceFeatureEdges(data: MeshData): Uint8Array {
  const p = data.positions!;
  const index = data.indices!;
  const faces = index.length / 3;
  const weld = new Map<string, number>();
  const weldOf = (v: number) => {
    const key = [p[v * 3], p[v * 3 + 1], p[v * 3 + 2]].join('/');
    if (!weld.has(key)) weld.set(key, weld.size);
    return weld.get(key)!;
  };
  const normals: Vec3[] = [];
  const byEdge = new Map<string, number[]>();
  for (let f = 0; f < faces; f++) {
    const corner = (k: number): Vec3 => {
      const v = index[f * 3 + k];
      return [p[v * 3], p[v * 3 + 1], p[v * 3 + 2]];
    };
    const a = corner(0);
    const e1 = sub(corner(1), a);
    const e2 = sub(corner(2), a);
    normals.push(
      normalize([e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]]),
    );
    for (let k = 0; k < 3; k++) {
      const ends = [weldOf(index[f * 3 + k]), weldOf(index[f * 3 + ((k + 1) % 3)])].sort((x, y) => x - y);
      const key = ends.join('-');
      byEdge.set(key, [...(byEdge.get(key) ?? []), f * 3 + k]);
    }
  }
  const flags = new Uint8Array(faces * 3);
  for (const edges of byEdge.values()) {
    const flat =
      edges.length === 2 &&
      dot(normals[Math.floor(edges[0] / 3)], normals[Math.floor(edges[1] / 3)]) >= Math.cos(Math.PI / 180);
    if (!flat) for (const e of edges) flags[e] = 1;
  }
  return flags;
}

interface ReferenceFeature {
  kind: SnapKind;
  point: Vec3;
  pixelDistance: number;
  depth: number;
}

/** The brute-force reference: every visible triangle of the block, every feature, the same rule. */
function makeReference(placed: Placed[], camera: ReferenceCamera) {
  const scene: ReferenceScene = createReferenceScene(
    placed.map(
      (p): ReferenceMesh => ({
        id: p.id,
        positions: p.data.positions!,
        indices: p.data.indices ?? null,
        worldMatrix: p.world,
        thinInstances: p.instances,
      }),
    ),
  );
  const byId = new Map(placed.map((p) => [p.id, { placed: p, flags: referenceFeatureEdges(p.data) }]));
  const pixelHits = new Map<number, string | null>();
  const hitAt = (px: number, py: number) => {
    const key = py * size[0] + px;
    if (!pixelHits.has(key)) {
      const ray = camera.ray(px + 0.5, py + 0.5);
      const hit = castReferenceRay(scene, ray.origin, ray.direction);
      pixelHits.set(key, hit ? `${hit.meshId}/${hit.thinInstanceIndex}/${hit.faceId}` : null);
    }
    return pixelHits.get(key)!;
  };
  const worldCorner = (p: Placed, instance: number, v: number): Vec3 => {
    const local = [p.data.positions![v * 3], p.data.positions![v * 3 + 1], p.data.positions![v * 3 + 2], 1];
    const m =
      instance >= 0 ? mat4.multiply(p.world, p.instances!.subarray(instance * 16, instance * 16 + 16)) : p.world;
    const at = (r: number) => m[r] * local[0] + m[4 + r] * local[1] + m[8 + r] * local[2] + m[12 + r];
    return [at(0), at(1), at(2)];
  };
  /**
   * Whether a snapped feature's fields describe its point: the named corners of faceId, placed and projected, and its
   * distance from the line of sight's origin.
   */
  const describesPoint = (info: PickingInfo): boolean => {
    const got = info.snapped!;
    const entry = byId.get(got.mesh.uniqueId);
    if (!entry) return false;
    const p = entry.placed;
    const corners = [0, 1, 2].map((k) => p.data.indices![got.faceId * 3 + k]);
    const ends = got.kind === 'vertex' ? [got.vertexIndex, got.vertexIndex] : got.edge!;
    if (!ends.every((v) => corners.includes(v)) || (p.instances === null) !== (got.thinInstanceIndex === -1))
      return false;
    const a = worldCorner(p, got.thinInstanceIndex, ends[0]);
    const b = worldCorner(p, got.thinInstanceIndex, ends[1]);
    const t = got.edgeParameter;
    const expected = [0, 1, 2].map((i) => a[i] + (b[i] - a[i]) * t);
    const screen = camera.project(got.point);
    // The distance runs from where the line of sight starts (the eye, or the point's foot on the eye plane).
    const distance = Math.hypot(...sub(got.point, camera.sightOrigin(got.point)));
    return (
      Math.hypot(...sub(got.point, expected)) <= 1e-5 * got.distance &&
      Math.abs(got.distance - distance) <= 1e-5 * distance &&
      Math.hypot(screen.x - got.pixel[0], screen.y - got.pixel[1]) <= 1e-3 &&
      (got.kind !== 'midpoint' || t === 0.5)
    );
  };
  const snapAt = (px: number, py: number): ReferenceFeature | null => {
    const cx = px + 0.5;
    const cy = py + 0.5;
    const seen = new Set<string>();
    for (let dy = -radius; dy <= radius; dy++)
      for (let dx = -radius; dx <= radius; dx++) {
        const x = px + dx;
        const y = py + dy;
        if (x < 0 || y < 0 || x >= size[0] || y >= size[1]) continue;
        const hit = hitAt(x, y);
        if (hit) seen.add(hit);
      }
    const candidates: ReferenceFeature[] = [];
    const consider = (kind: SnapKind, point: Vec3, screen: { x: number; y: number; z: number }) => {
      if (!(screen.z >= camera.near && screen.z <= camera.far)) return;
      if (!(screen.x >= 0 && screen.y >= 0 && screen.x < size[0] && screen.y < size[1])) return;
      const pixelDistance = Math.hypot(screen.x - cx, screen.y - cy);
      if (pixelDistance > radius) return;
      const origin = camera.sightOrigin(point);
      const offset = sub(point, origin);
      candidates.push({ kind, point, pixelDistance, depth: Math.hypot(offset[0], offset[1], offset[2]) });
    };
    for (const key of seen) {
      const [meshId, instance, face] = key.split('/').map(Number);
      const { placed: p, flags } = byId.get(meshId)!;
      const vertices = [0, 1, 2].map((k) => p.data.indices![face * 3 + k]);
      const corners = vertices.map((v) => worldCorner(p, instance, v));
      for (let k = 0; k < 3; k++) {
        const a = corners[k];
        const b = corners[(k + 1) % 3];
        const feature = flags[face * 3 + k] === 1;
        if (feature || flags[face * 3 + ((k + 2) % 3)] === 1) consider('vertex', a, camera.project(a));
        if (!feature) continue;
        const mid: Vec3 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
        consider('midpoint', mid, camera.project(mid));
        // The edge clipped to near ≤ view depth ≤ far, then its screen point nearest the cursor, back to the world.
        const za = camera.project(a).z;
        const zb = camera.project(b).z;
        let t0 = 0;
        let t1 = 1;
        for (const [fa, fb] of [
          [za - camera.near, zb - camera.near],
          [camera.far - za, camera.far - zb],
        ]) {
          if (!Number.isFinite(fa) || !Number.isFinite(fb)) continue;
          if (fa < 0 && fb < 0) t1 = -1;
          else if (fa < 0) t0 = Math.max(t0, fa / (fa - fb));
          else if (fb < 0) t1 = Math.min(t1, fa / (fa - fb));
        }
        if (t0 > t1) continue;
        const along = (t: number): Vec3 => [0, 1, 2].map((i) => a[i] + (b[i] - a[i]) * t) as Vec3;
        const sa = camera.project(along(t0));
        const sb = camera.project(along(t1));
        const ex = sb.x - sa.x;
        const ey = sb.y - sa.y;
        const length2 = ex * ex + ey * ey;
        const s = length2 > 0 ? Math.min(1, Math.max(0, ((cx - sa.x) * ex + (cy - sa.y) * ey) / length2)) : 0;
        // Screen-linear s is world-linear only for parallel rays; under perspective weight by the view depths.
        const fraction = camera.perspective ? (s * sa.z) / (s * sa.z + (1 - s) * sb.z) : s;
        const point = along(t0 + (t1 - t0) * fraction);
        consider('edge', point, { x: sa.x + ex * s, y: sa.y + ey * s, z: camera.project(point).z });
      }
    }
    const rank: Record<SnapKind, number> = { vertex: 0, midpoint: 1, edge: 2 };
    candidates.sort((a, b) => rank[a.kind] - rank[b.kind] || a.pixelDistance - b.pixelDistance || a.depth - b.depth);
    for (const c of candidates) {
      const origin = camera.sightOrigin(c.point);
      const hit = castReferenceRay(scene, origin, normalize(sub(c.point, origin)));
      if (!hit || hit.distance >= c.depth * (1 - 1e-4)) return c;
    }
    return null;
  };
  return { snapAt, describesPoint };
}

/** Whether the GPU's snapped feature is the reference's: both none, or the same kind at the same world point. */
function agrees(info: PickingInfo, expected: ReferenceFeature | null): boolean {
  const got = info.snapped ?? null;
  if (!got || !expected) return got === expected;
  const gap = Math.hypot(...sub(got.point, expected.point));
  return got.kind === expected.kind && gap <= 1e-5 * expected.depth;
}

describe('snapping (pickSnappedAsync)', () => {
  gpuTest(
    'the snapped feature equals the brute-force CPU reference on >= 99.9 % of 2000 seeded points (perspective, orthographic)',
    async ({ engine }) => {
      const { scene, placed } = buildScene(engine);
      const picker = createGpuPicker(scene);
      const cameras = [
        makePerspectiveCamera({ position: [3.2, 3.4, 5.6], target: [0.3, 0.5, 0.6], fovY: 0.75 }),
        makeOrthographicCamera({ position: [-3, 4.5, 5.5], target: [0.3, 0.4, 0.7], height: 5, far: 40 }),
      ];
      const count = 1000;
      let total = 0;
      for (const [c, camera] of cameras.entries()) {
        scene.camera = camera;
        const reference = makeReference(
          placed,
          camera.kind === 'perspective'
            ? perspectiveReference(camera)
            : orthographicReference(camera as Camera & { kind: 'orthographic' }),
        );
        const random = makeRandom(3601 + c);
        let agreed = 0;
        let badFields = 0;
        const kinds: Record<string, number> = { vertex: 0, midpoint: 0, edge: 0, none: 0 };
        const misses: string[] = [];
        for (let i = 0; i < count; i++) {
          const x = Math.floor(random() * size[0]);
          const y = Math.floor(random() * size[1]);
          const info = await pickSnappedAsync(picker, x, y, { snap: { radius } });
          const expected = reference.snapAt(x, y);
          kinds[expected?.kind ?? 'none']++;
          if (info.snapped && !reference.describesPoint(info)) badFields++;
          if (agrees(info, expected)) agreed++;
          else
            misses.push(
              `(${x}, ${y}): gpu ${info.snapped?.kind ?? 'none'} ${info.snapped?.point.map((v) => v.toFixed(5))} vs reference ${expected?.kind ?? 'none'} ${expected?.point.map((v) => v.toFixed(5))}`,
            );
        }
        console.log(
          `snapping ${camera.kind}: ${agreed}/${count} agree with the reference (${JSON.stringify(kinds)})${misses.length ? `; differ: ${misses.join('; ')}` : ''}`,
        );
        expect(badFields).toBe(0);
        // Every kind occurs, so each rule is exercised.
        expect(Math.min(kinds.vertex, kinds.midpoint, kinds.edge, kinds.none)).toBeGreaterThan(10);
        total += agreed;
      }
      console.log(`snapping: ${total}/${count * cameras.length} agree with the reference`);
      expect(total / (count * cameras.length)).toBeGreaterThanOrEqual(0.999);
      disposeGpuPicker(picker);
    },
    size,
  );

  gpuTest(
    "a host's matrix cameras (perspective, orthographic) snap as the reference of the camera they copy",
    async ({ engine }) => {
      const { scene, placed } = buildScene(engine);
      const picker = createGpuPicker(scene);
      // A finite far plane: a host's projection matrix holds finite numbers.
      const perspective = makePerspectiveCamera({
        position: [3.2, 3.4, 5.6],
        target: [0.3, 0.5, 0.6],
        fovY: 0.75,
        far: 60,
      });
      const orthographic = makeOrthographicCamera({
        position: [-3, 4.5, 5.5],
        target: [0.3, 0.4, 0.7],
        height: 5,
        far: 40,
      });
      const aspect = size[0] / size[1];
      const cases = [
        {
          reference: perspectiveReference(perspective),
          camera: makeMatrixCamera({
            view: lookAt64(perspective.position, perspective.target, perspective.up),
            projection: perspective64(perspective.fovY, aspect, perspective.near, perspective.far, 'standard'),
            depth: 'standard',
          }),
        },
        {
          reference: orthographicReference(orthographic as Camera & { kind: 'orthographic' }),
          camera: makeMatrixCamera({
            view: lookAt64(orthographic.position, orthographic.target, orthographic.up),
            projection: orthographic64(orthographic.height, aspect, orthographic.near, orthographic.far, 'standard'),
            depth: 'standard',
          }),
        },
      ];
      const count = 250;
      for (const [c, { reference: camera, camera: matrices }] of cases.entries()) {
        scene.camera = matrices;
        const reference = makeReference(placed, camera);
        const random = makeRandom(3701 + c);
        let agreed = 0;
        let snapped = 0;
        let distanceOff = 0;
        for (let i = 0; i < count; i++) {
          const x = Math.floor(random() * size[0]);
          const y = Math.floor(random() * size[1]);
          const info = await pickSnappedAsync(picker, x, y, { snap: { radius } });
          if (agrees(info, reference.snapAt(x, y))) agreed++;
          if (!info.snapped) continue;
          snapped++;
          // A perspective matrix camera measures from its eye, as a placed one does (an orthographic one from its
          // near plane, where its picking rays start).
          if (!camera.perspective) continue;
          const expected = Math.hypot(...sub(info.snapped.point, camera.sightOrigin(info.snapped.point)));
          if (!(Math.abs(info.snapped.distance - expected) <= 1e-5 * expected)) distanceOff++;
        }
        console.log(`snapping matrices (${camera.perspective ? 'perspective' : 'orthographic'}): ${agreed}/${count}`);
        expect(snapped).toBeGreaterThan(count / 3);
        expect(distanceOff).toBe(0);
        expect(agreed / count).toBeGreaterThanOrEqual(0.99);
      }
      disposeGpuPicker(picker);
    },
    size,
  );

  gpuTest(
    'bad input: typed PickErrors naming the value, and the next call works',
    async ({ engine }) => {
      const { scene } = buildScene(engine);
      scene.camera = makePerspectiveCamera({ position: [3.2, 3.4, 5.6], target: [0.3, 0.5, 0.6], fovY: 0.75 });
      const picker = createGpuPicker(scene);
      const good = await pickSnappedAsync(picker, 48, 40);
      expect(good.snapped).not.toBeUndefined();
      const refusal = async (options: unknown, x = 48, y = 40) => {
        const error = await pickSnappedAsync(picker, x, y, options as never).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(PickError);
        const again = await pickSnappedAsync(picker, 48, 40);
        expect(again.snapped).toEqual(good.snapped);
        return error as PickError;
      };
      for (const radius of [0, 17, 2.5, '8', Number.NaN]) {
        const error = await refusal({ snap: { radius } });
        expect(error.code).toBe('bad-option');
        expect(error.message).toMatch(/pickSnappedAsync.*snap\.radius.*integer 1\.\.16/);
      }
      for (const to of [[], ['face'], 'vertex', ['vertex', 7]]) {
        const error = await refusal({ snap: { to } });
        expect(error.code).toBe('bad-option');
        expect(error.message).toMatch(/snap\.to/);
      }
      expect((await refusal({ snap: { radius: 4, near: 2 } })).message).toMatch(/near/);
      expect((await refusal({ snap: 8 })).code).toBe('bad-option');
      expect((await refusal({ overlays: false })).message).toMatch(/overlays/);
      expect((await refusal({}, 96, 10)).code).toBe('out-of-range');
      const moved = await refusal({
        discard: {
          key: 'lift',
          wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return false;\n}',
          worldAdjustWgsl: 'fn adjustPickWorld(input: PickWorldInput) -> vec3f {\n  return input.worldPos;\n}',
        },
      });
      expect(moved.code).toBe('unsupported');
      expect(moved.message).toMatch(/worldAdjustWgsl/);
      // Only vertices: an edge point is never answered.
      const vertices = await pickSnappedAsync(picker, 48, 40, { snap: { to: ['vertex'], radius: 16 } });
      expect(vertices.snapped?.kind ?? 'vertex').toBe('vertex');
      disposeGpuPicker(picker);
    },
    size,
  );

  gpuTest(
    'a morphed mesh snaps to its vertex as posed at the call, exact in float64; a later pose change does not leak in',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [1.6, 2.2, 3.1], target: [0, 0.4, 0], fovY: 0.8 });
      const data = makeBoxData({ width: 1, height: 1, depth: 1 });
      const positions = data.positions!;
      // One target lifts the top vertices by 0.5 and pushes them 0.25 along x.
      const delta = new Float32Array(positions.length);
      for (let v = 0; v < positions.length / 3; v++) if (positions[v * 3 + 1] > 0) delta.set([0.25, 0.5, 0], v * 3);
      const world = new Float32Array(mat4.multiply(mat4.translation([0.1, 0.2, -0.3]), mat4.rotationY(0.35)));
      const mesh = createMeshFromData(scene, 'morphed', data, {
        worldMatrix: world,
        morphTargets: { positions: [delta] },
        morphWeights: [0.6],
      });
      const picker = createGpuPicker(scene);
      const camera = perspectiveReference(scene.camera);
      // The top front-right corner as posed: local (0.5, 0.5, 0.5) + 0.6 · (0.25, 0.5, 0), placed in float64.
      const local = [0.5 + 0.6 * 0.25, 0.5 + 0.6 * 0.5, 0.5, 1];
      const corner = [0, 1, 2].map(
        (r) => world[r] * local[0] + world[4 + r] * local[1] + world[8 + r] * local[2] + world[12 + r],
      ) as Vec3;
      const screen = camera.project(corner);
      const picking = pickSnappedAsync(picker, screen.x + 3, screen.y + 2, { snap: { radius: 8, to: ['vertex'] } });
      mesh.morphWeights[0] = 0; // after the call: the pick keeps the pose it captured
      const info = await picking;
      expect(info.snapped?.kind).toBe('vertex');
      expect(info.snapped!.mesh).toBe(mesh);
      const gap = Math.hypot(...sub(info.snapped!.point, corner));
      expect(gap).toBeLessThanOrEqual(1e-6 * info.snapped!.distance);
      expect(Math.hypot(info.snapped!.pixel[0] - screen.x, info.snapped!.pixel[1] - screen.y)).toBeLessThan(1e-3);
      // The rest pose now: the snapped corner is the unlifted one, not the posed one.
      const rest = await pickSnappedAsync(picker, screen.x + 3, screen.y + 2, { snap: { radius: 8, to: ['vertex'] } });
      expect(rest.snapped == null || Math.hypot(...sub(rest.snapped.point, corner)) > 0.1).toBe(true);
      disposeGpuPicker(picker);
    },
    size,
  );

  gpuTest(
    'pickAsync with `snap` answers as pickSnappedAsync (hit and snapped feature); bad snap options name pickAsync',
    async ({ engine }) => {
      const { scene, placed } = buildScene(engine);
      scene.camera = makePerspectiveCamera({ position: [3.2, 3.4, 5.6], target: [0.3, 0.5, 0.6], fovY: 0.75 });
      const reference = makeReference(placed, perspectiveReference(scene.camera));
      const picker = createGpuPicker(scene);
      const random = makeRandom(3650);
      let snapped = 0;
      let agreed = 0;
      const count = 150;
      for (let i = 0; i < count; i++) {
        const x = Math.floor(random() * size[0]);
        const y = Math.floor(random() * size[1]);
        const snap = { radius: 1 + (i % 12), to: i % 5 === 0 ? (['midpoint', 'edge'] as SnapKind[]) : undefined };
        const viaOption = await pickAsync(picker, x, y, { snap });
        const explicit = await pickSnappedAsync(picker, x, y, { snap });
        expect(viaOption).toEqual(explicit);
        if (viaOption.snapped) snapped++;
        // At the default kinds and radius 8 the option is held to the brute-force reference too.
        if (snap.radius === 8 && !snap.to) agreed += agrees(viaOption, reference.snapAt(x, y)) ? 1 : 0;
      }
      expect(snapped).toBeGreaterThan(count / 3);
      expect(agreed).toBeGreaterThan(8);
      // No snap option: no snapping, no `snapped` field.
      expect((await pickAsync(picker, 48, 40)).snapped).toBeUndefined();
      expect((await pickAsync(picker, 48, 40, { snap: undefined })).snapped).toBeUndefined();
      const refusal = async (options: unknown) => {
        const error = await pickAsync(picker, 48, 40, options as never).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(PickError);
        expect((error as PickError).code).toBe('bad-option');
        return (error as PickError).message;
      };
      expect(await refusal({ snap: { radius: 0 } })).toMatch(/pickAsync.*snap\.radius.*integer 1\.\.16/);
      expect(await refusal({ snap: { radius: 4 }, overlays: false })).toMatch(/pickAsync.*overlays/);
      expect((await pickAsync(picker, 48, 40, { snap: {} })).snapped).toEqual(
        (await pickSnappedAsync(picker, 48, 40)).snapped,
      );
      disposeGpuPicker(picker);
    },
    size,
  );

  gpuTest(
    'a snap draws into target sets of its own: point picks after it clear 1×1 targets again, marquees their own sets',
    async ({ engine }) => {
      const { scene } = buildScene(engine);
      scene.camera = makePerspectiveCamera({ position: [3.2, 3.4, 5.6], target: [0.3, 0.5, 0.6], fovY: 0.75 });
      const picker = createGpuPicker(scene);
      enableDetailedPicking(picker);
      const before = await pickAsync(picker, 48, 40);
      const pointTargets = picker.gpu!.targets!;
      expect([pointTargets.width, pointTargets.height, pointTargets.detailed]).toEqual([1, 1, true]);
      const snappedInfo = await pickAsync(picker, 48, 40, { snap: { radius: 8 } });
      expect(snappedInfo.snapped).not.toBeNull();
      // The point targets are untouched: the same 1×1 set, not regrown to the 17×17 block.
      expect(picker.gpu!.targets).toBe(pointTargets);
      expect([pointTargets.width, pointTargets.height]).toEqual([1, 1]);
      expect(picker.gpu!.rectTargets.map((t) => [t.width, t.height, t.detailed])).toEqual([[17, 17, true]]);
      const after = await pickAsync(picker, 48, 40);
      expect(after).toEqual(before);
      expect(picker.gpu!.targets).toBe(pointTargets);
      // A marquee takes a set without detail; the snap's set is kept beside it and used again as it is.
      const snapSet = picker.gpu!.rectTargets[0];
      await pickRectAsync(picker, 10, 10, 20, 20);
      expect(picker.gpu!.rectTargets.map((t) => t.detailed)).toEqual([false, true]);
      await pickSnappedAsync(picker, 30, 30, { snap: { radius: 8 } });
      expect(picker.gpu!.rectTargets[0]).toBe(snapSet);
      expect(picker.gpu!.targets).toBe(pointTargets);
      disposeGpuPicker(picker);
    },
    size,
  );
});
