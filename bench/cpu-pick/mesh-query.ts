// Query and pick rows for one mesh: weft's raw BVH query and picks vs three-mesh-bvh's raycastFirst and
// Raycaster.intersectObject (firstHitOnly, acceleratedRaycast), on the same rays.
import { DoubleSide, type Intersection, Mesh as ThreeMesh, MeshBasicMaterial, Ray, Raycaster, Vector2 } from 'three';
import { acceleratedRaycast, type MeshBVH } from 'three-mesh-bvh';
import type { Engine } from '../../engine/engine.js';
import { createMeshFromData } from '../../engine/mesh.js';
import { createScene } from '../../engine/scene.js';
import {
  makeTriangleHit,
  pickSync,
  pickWithRaySync,
  raycastTriangleBvhFirst,
  type TriangleBvh,
} from '../../picking/cpu/index.js';
import { agree, describeAgreement, faceKey, makeAgreement, requireAgreement } from './agreement.js';
import type { CameraPair, MeshCase, Rays } from './data.js';
import { type BenchConfig, fmt, interleaved, type Row } from './harness.js';

let sink = 0;
const perSecond = (n: number, ms: number) => `${fmt((n / ms) * 1000)} /s`;

const queryHit = makeTriangleHit();
export function weftQuery(bvh: TriangleBvh, rays: Rays): void {
  const hit = queryHit;
  for (let i = 0; i < rays.length; i += 6) {
    if (
      raycastTriangleBvhFirst(
        bvh,
        rays[i],
        rays[i + 1],
        rays[i + 2],
        rays[i + 3],
        rays[i + 4],
        rays[i + 5],
        0,
        Infinity,
        hit,
      )
    )
      sink++;
  }
}

const ray = new Ray();
export function threeQuery(bvh: MeshBVH, rays: Rays): void {
  for (let i = 0; i < rays.length; i += 6) {
    ray.origin.set(rays[i], rays[i + 1], rays[i + 2]);
    ray.direction.set(rays[i + 3], rays[i + 4], rays[i + 5]);
    if (bvh.raycastFirst(ray, DoubleSide)) sink++;
  }
}

export interface RaySet {
  kind: string;
  rays: Rays;
}

/** Query, pick-from-ray and pick-from-pixel rows; the answers are checked on every ray before timing. */
export function benchQueries(
  c: MeshCase,
  weftBvh: TriangleBvh,
  sah: MeshBVH,
  center: MeshBVH,
  camera: CameraPair,
  raySets: readonly RaySet[],
  config: BenchConfig,
  rows: Row[],
): void {
  const threeIndex = sah.geometry.index!.array;
  for (const { kind, rays } of raySets) {
    const n = rays.length / 6;
    const a = makeAgreement();
    const hit = makeTriangleHit();
    for (let i = 0; i < rays.length; i += 6) {
      const ours = raycastTriangleBvhFirst(
        weftBvh,
        rays[i],
        rays[i + 1],
        rays[i + 2],
        rays[i + 3],
        rays[i + 4],
        rays[i + 5],
        0,
        Infinity,
        hit,
      );
      ray.origin.set(rays[i], rays[i + 1], rays[i + 2]);
      ray.direction.set(rays[i + 3], rays[i + 4], rays[i + 5]);
      const theirs = sah.raycastFirst(ray, DoubleSide);
      agree(
        a,
        ours ? hit.t : Infinity,
        ours ? faceKey(c.indices, hit.faceId) : '',
        theirs ? theirs.distance : Infinity,
        theirs ? faceKey(threeIndex, theirs.faceIndex!) : '',
      );
    }
    requireAgreement(`${c.label} query, ${kind}`, a);
    const [w, s, cc] = interleaved(config, [
      () => weftQuery(weftBvh, rays),
      () => threeQuery(sah, rays),
      () => threeQuery(center, rays),
    ]);
    rows.push(
      {
        subject: '',
        measure: `query, ${kind}`,
        weft: perSecond(n, w),
        three: perSecond(n, s),
        ratio: s / w,
        target: { kind: 'min', value: 1.5 },
        notes: `raycastTriangleBvhFirst vs bvh.raycastFirst (SAH tree), ${fmt(n)} rays; ${describeAgreement(a)}`,
      },
      {
        subject: '',
        measure: `query, ${kind}, vs CENTER`,
        weft: perSecond(n, w),
        three: perSecond(n, cc),
        ratio: cc / w,
        target: null,
        notes: 'vs bvh.raycastFirst on the default CENTER tree',
      },
    );
  }

  // Full picks: weft's scene (default picker, its own cached BVH) vs a three.js Mesh with acceleratedRaycast on the SAH
  // tree. Both double-sided, so both test the same faces.
  const scene = createScene({ width: camera.width, height: camera.height } as Engine);
  createMeshFromData(scene, c.label, { positions: c.positions, indices: c.indices });
  (scene as { camera: unknown }).camera = camera.weft;
  const options = { culling: 'none' } as const;
  const mesh = new ThreeMesh(sah.geometry, new MeshBasicMaterial({ side: DoubleSide }));
  sah.geometry.boundsTree = sah;
  mesh.raycast = acceleratedRaycast;
  mesh.updateMatrixWorld(true);
  const raycaster = new Raycaster();
  raycaster.firstHitOnly = true;
  const out: Intersection[] = [];
  const weftRay = { origin: [0, 0, 0], direction: [0, 0, 1] };
  const pickRays = (rays: Rays, check?: (i: number, t: number, face: number) => void) => {
    for (let i = 0; i < rays.length; i += 6) {
      weftRay.origin[0] = rays[i];
      weftRay.origin[1] = rays[i + 1];
      weftRay.origin[2] = rays[i + 2];
      weftRay.direction[0] = rays[i + 3];
      weftRay.direction[1] = rays[i + 4];
      weftRay.direction[2] = rays[i + 5];
      const info = pickWithRaySync(scene, weftRay, options);
      check?.(i, info.hit ? info.distance : Infinity, info.faceId);
    }
  };
  const threeRays = (rays: Rays, check?: (i: number, t: number, face: number) => void) => {
    for (let i = 0; i < rays.length; i += 6) {
      raycaster.ray.origin.set(rays[i], rays[i + 1], rays[i + 2]);
      raycaster.ray.direction.set(rays[i + 3], rays[i + 4], rays[i + 5]);
      out.length = 0;
      raycaster.intersectObject(mesh, false, out);
      check?.(i, out.length ? out[0].distance : Infinity, out.length ? out[0].faceIndex! : -1);
    }
  };
  for (const { kind, rays } of raySets) {
    const n = rays.length / 6;
    const weftAnswers = new Float64Array(n * 2);
    pickRays(rays, (i, t, face) => weftAnswers.set([t, face], i / 3));
    const a = makeAgreement();
    threeRays(rays, (i, t, face) =>
      agree(
        a,
        weftAnswers[i / 3],
        weftAnswers[i / 3] < Infinity ? faceKey(c.indices, weftAnswers[i / 3 + 1]) : '',
        t,
        face >= 0 ? faceKey(threeIndex, face) : '',
      ),
    );
    requireAgreement(`${c.label} pick from a ray, ${kind}`, a);
    const [w, t] = interleaved(config, [() => pickRays(rays), () => threeRays(rays)]);
    rows.push({
      subject: '',
      measure: `pick from a ray, ${kind}`,
      weft: perSecond(n, w),
      three: perSecond(n, t),
      ratio: t / w,
      target: { kind: 'min', value: 1.5 },
      notes: `pickWithRaySync → PickingInfo vs intersectObject (firstHitOnly); ${describeAgreement(a)}`,
    });
  }

  // Pick from a pixel: each library makes its own ray (weft's pixel → ray path inside pickSync; three's setFromCamera).
  const { width, height } = camera;
  const ndc = new Vector2();
  const weftPixels = (check?: (p: number, t: number, face: number) => void) => {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const info = pickSync(scene, x, y, options);
        check?.(y * width + x, info.hit ? info.distance : Infinity, info.faceId);
      }
    }
  };
  const threePixels = (check?: (p: number, t: number, face: number) => void) => {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        ndc.set(((x + 0.5) / width) * 2 - 1, 1 - ((y + 0.5) / height) * 2);
        raycaster.setFromCamera(ndc, camera.three);
        out.length = 0;
        raycaster.intersectObject(mesh, false, out);
        check?.(y * width + x, out.length ? out[0].distance : Infinity, out.length ? out[0].faceIndex! : -1);
      }
    }
  };
  const weftAnswers = new Float64Array(width * height * 2);
  weftPixels((p, t, face) => weftAnswers.set([t, face], p * 2));
  const a = makeAgreement();
  threePixels((p, t, face) =>
    agree(
      a,
      weftAnswers[p * 2],
      weftAnswers[p * 2] < Infinity ? faceKey(c.indices, weftAnswers[p * 2 + 1]) : '',
      t,
      face >= 0 ? faceKey(threeIndex, face) : '',
    ),
  );
  requireAgreement(`${c.label} pick from a pixel`, a);
  const [w, t] = interleaved(config, [() => weftPixels(), () => threePixels()]);
  rows.push({
    subject: '',
    measure: `pick from a pixel (${width}×${height})`,
    weft: perSecond(width * height, w),
    three: perSecond(width * height, t),
    ratio: t / w,
    target: { kind: 'min', value: 1.5 },
    notes: `pickSync(x, y) vs setFromCamera + intersectObject; ${describeAgreement(a)}`,
  });
}

/** Keeps the optimiser from dropping the query loops. */
export function querySink(): number {
  return sink;
}
