/**
 * CPU picking benchmark, side by side with three.js + three-mesh-bvh in one run, on the same data:
 *   bunny (makeBunnyDataAsync), a 500k-triangle torus, and a 10 000-object scene.
 * Per mesh: BVH build time (three-mesh-bvh: strategy SAH, indirect) and first-hit rays/second for
 * camera-coherent (pixel grid) and random rays, both as raw BVH queries (local rays, no result objects
 * beyond a hit record / three's Intersection) and as the full pick (weft PickingInfo vs three Raycaster).
 * Scene: scene-level build (weft scene BVH vs ObjectBVH), full picks, and the offers-per-ray census.
 * Ratios are weft relative to three-mesh-bvh; > 1 means weft is faster. Best of several interleaved passes.
 * Run: npx tsx bench/cpu-pick.ts [passes]
 */
import {
  BufferAttribute,
  BufferGeometry,
  DoubleSide,
  Matrix4,
  Mesh as ThreeMesh,
  MeshBasicMaterial,
  Ray,
  Raycaster,
} from 'three';
import { acceleratedRaycast, MeshBVH, ObjectBVH, SAH } from 'three-mesh-bvh';
import { mat4, vec3 } from 'wgpu-matrix';
import { makePerspectiveCamera, setCameraOrbit } from '../engine/camera.js';
import type { Engine } from '../engine/engine.js';
import { createMeshFromData, type Mesh } from '../engine/mesh.js';
import type { MeshData } from '../engine/mesh-data.js';
import {
  makeBoxData,
  makeBunnyDataAsync,
  makeCapsuleData,
  makeSphereData,
  makeTorusData,
} from '../engine/primitives/index.js';
import { createScene } from '../engine/scene.js';
import { makePickingRay } from '../picking/picking-ray.js';
import {
  buildTriangleBvh,
  createCpuPicker,
  makeTriangleHit,
  pickWithRaySync,
  raycastTriangleBvhFirst,
  refitCpuPicker,
  takeCpuPickCensus,
  type CpuPickCensusReport,
} from '../picking/cpu/index.js';

const passes = Number(process.argv[2] ?? 5);
type Rays = Float64Array; // 6 numbers per ray: origin, unit direction

function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Best time (ms) of `passes` runs of each function, interleaved so load spikes hit both sides alike. */
function bestOf(...runs: Array<() => void>): number[] {
  const best = runs.map(() => Infinity);
  for (let p = 0; p < passes; p++) {
    runs.forEach((run, i) => {
      const start = performance.now();
      run();
      best[i] = Math.min(best[i], performance.now() - start);
    });
  }
  return best;
}

function cameraRays(centre: number[], radius: number, size: number): Rays {
  const camera = makePerspectiveCamera({ fovY: 0.8 });
  setCameraOrbit(camera, { target: centre, radius, yaw: 0.6, pitch: 0.35 });
  const rays = new Float64Array(size * size * 6);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const r = makePickingRay(camera, x, y, { width: size, height: size });
      rays.set([...r.origin, ...r.direction], (y * size + x) * 6);
    }
  }
  return rays;
}

function randomRays(centre: number[], extent: number, count: number, seed: number): Rays {
  const rand = seeded(seed);
  const rays = new Float64Array(count * 6);
  for (let i = 0; i < count; i++) {
    const o = [0, 1, 2].map((a) => centre[a] + (rand() - 0.5) * extent * 3);
    const t = [0, 1, 2].map((a) => centre[a] + (rand() - 0.5) * extent);
    rays.set([...o, ...vec3.normalize(vec3.sub(t, o))], i * 6);
  }
  return rays;
}

function threeGeometry(data: { positions: Float32Array; indices: Uint16Array | Uint32Array | null }): BufferGeometry {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(data.positions, 3));
  if (data.indices) geometry.setIndex(new BufferAttribute(data.indices.slice(), 1));
  return geometry;
}

const table: string[][] = [];
const row = (...cells: string[]) => table.push(cells);
const fmt = (v: number, digits = 0) =>
  v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function benchMesh(label: string, data: MeshData): void {
  const positions = data.positions!;
  const indices = data.indices ?? null;
  const triangles = indices ? indices.length / 3 : positions.length / 9;
  const geometry = threeGeometry({ positions, indices });
  let weft = buildTriangleBvh(positions, indices);
  let three = new MeshBVH(geometry, { strategy: SAH, indirect: true });
  const [buildWeft, buildThree] = bestOf(
    () => (weft = buildTriangleBvh(positions, indices)),
    () => (three = new MeshBVH(geometry, { strategy: SAH, indirect: true })),
  );
  row(
    `${label} (${fmt(triangles)} tris)`,
    'build (ms)',
    fmt(buildWeft, 1),
    fmt(buildThree, 1),
    fmt(buildThree / buildWeft, 2),
  );
  const box = weft.nodes.floats;
  const centre = [(box[0] + box[1]) / 2, (box[2] + box[3]) / 2, (box[4] + box[5]) / 2];
  const extent = Math.max(box[1] - box[0], box[3] - box[2], box[5] - box[4]);
  const scene = createScene({ width: 1, height: 1 } as Engine);
  createMeshFromData(scene, label, data);
  createCpuPicker(scene, { refit: 'manual' });
  const threeMesh = new ThreeMesh(geometry, new MeshBasicMaterial({ side: DoubleSide }));
  geometry.boundsTree = three;
  threeMesh.raycast = acceleratedRaycast;
  const raycaster = new Raycaster();
  raycaster.firstHitOnly = true;
  for (const [kind, rays] of [
    ['camera rays', cameraRays(centre, extent * 1.6, 256)],
    ['random rays', randomRays(centre, extent, 65536, 7)],
  ] as const) {
    const n = rays.length / 6;
    const hit = makeTriangleHit();
    const ray = new Ray();
    let hitsWeft = 0;
    let hitsThree = 0;
    let agree = 0;
    for (let i = 0; i < n; i++) {
      const b = i * 6;
      const ours = raycastTriangleBvhFirst(
        weft,
        rays[b],
        rays[b + 1],
        rays[b + 2],
        rays[b + 3],
        rays[b + 4],
        rays[b + 5],
        0,
        Infinity,
        hit,
      );
      ray.origin.set(rays[b], rays[b + 1], rays[b + 2]);
      ray.direction.set(rays[b + 3], rays[b + 4], rays[b + 5]);
      const theirs = three.raycastFirst(ray, DoubleSide);
      hitsWeft += ours ? 1 : 0;
      hitsThree += theirs ? 1 : 0;
      if (ours === !!theirs && (!theirs || theirs.faceIndex === hit.faceId)) agree++;
    }
    const [tWeft, tThree] = bestOf(
      () => {
        for (let i = 0; i < n; i++) {
          const b = i * 6;
          raycastTriangleBvhFirst(
            weft,
            rays[b],
            rays[b + 1],
            rays[b + 2],
            rays[b + 3],
            rays[b + 4],
            rays[b + 5],
            0,
            Infinity,
            hit,
          );
        }
      },
      () => {
        for (let i = 0; i < n; i++) {
          const b = i * 6;
          ray.origin.set(rays[b], rays[b + 1], rays[b + 2]);
          ray.direction.set(rays[b + 3], rays[b + 4], rays[b + 5]);
          three.raycastFirst(ray, DoubleSide);
        }
      },
    );
    const note = `${fmt((100 * hitsWeft) / n, 1)} % hit; same face as three on ${fmt((100 * agree) / n, 2)} % (three hits ${fmt((100 * hitsThree) / n, 1)} %)`;
    row(
      '',
      `${kind}: BVH query (rays/s)`,
      fmt((n / tWeft) * 1000),
      fmt((n / tThree) * 1000),
      fmt(tThree / tWeft, 2),
      note,
    );
    const [pWeft, pThree] = bestOf(
      () => {
        for (let i = 0; i < n; i++)
          pickWithRaySync(scene, {
            origin: rays.subarray(i * 6, i * 6 + 3) as unknown as number[],
            direction: rays.subarray(i * 6 + 3, i * 6 + 6) as unknown as number[],
          });
      },
      () => {
        const out: unknown[] = [];
        for (let i = 0; i < n; i++) {
          raycaster.ray.origin.set(rays[i * 6], rays[i * 6 + 1], rays[i * 6 + 2]);
          raycaster.ray.direction.set(rays[i * 6 + 3], rays[i * 6 + 4], rays[i * 6 + 5]);
          out.length = 0;
          threeMesh.raycast(raycaster, out as never);
        }
      },
    );
    row(
      '',
      `${kind}: full pick (rays/s)`,
      fmt((n / pWeft) * 1000),
      fmt((n / pThree) * 1000),
      fmt(pThree / pWeft, 2),
      'pickWithRaySync → PickingInfo vs Mesh.raycast (accelerated) → Intersection',
    );
  }
}

function benchScene(count: number): void {
  const rand = seeded(3);
  const shapes: MeshData[] = [
    makeSphereData({ segments: 16, rings: 8 }),
    makeBoxData(),
    makeTorusData({ radialSegments: 8, tubularSegments: 16 }),
    makeCapsuleData({ segments: 12, capRings: 4 }),
  ];
  const scene = createScene({ width: 1, height: 1 } as Engine);
  const threeMeshes: ThreeMesh[] = [];
  const material = new MeshBasicMaterial({ side: DoubleSide });
  const spread = 200;
  let triangles = 0;
  for (let i = 0; i < count; i++) {
    const world = mat4.translation([(rand() - 0.5) * spread, (rand() - 0.5) * spread * 0.3, (rand() - 0.5) * spread]);
    mat4.rotate(world, [rand(), rand(), rand()], rand() * 6, world);
    mat4.uniformScale(world, 0.5 + rand() * 1.5, world);
    const mesh: Mesh = createMeshFromData(scene, `object${i}`, shapes[i % 4], { worldMatrix: world });
    triangles += mesh.geometry.triangleCount;
    const geometry = threeGeometry({ positions: mesh.positions, indices: mesh.geometry.indices });
    const object = new ThreeMesh(geometry, material);
    object.matrixAutoUpdate = false;
    object.matrixWorld.copy(new Matrix4().fromArray(world));
    object.raycast = acceleratedRaycast;
    threeMeshes.push(object);
  }
  let picker = createCpuPicker(scene, { refit: 'manual' });
  let objects = new ObjectBVH(threeMeshes, { strategy: SAH });
  const [sceneWeft, sceneThree] = bestOf(
    () => {
      picker = createCpuPicker(scene, { refit: 'manual' });
      refitCpuPicker(picker);
    },
    () => (objects = new ObjectBVH(threeMeshes, { strategy: SAH })),
  );
  row(
    `${fmt(count)} objects (${fmt(triangles)} tris)`,
    'scene-level build (ms)',
    fmt(sceneWeft, 1),
    fmt(sceneThree, 1),
    fmt(sceneThree / sceneWeft, 2),
    `scene BVH: ${picker.diagnostics.at(-1)!.consequence}`,
  );
  const meshes = scene.meshes;
  const [meshesWeft, meshesThree] = bestOf(
    () => meshes.forEach((m) => buildTriangleBvh(m.positions, m.geometry.indices)),
    () =>
      threeMeshes.forEach((m) => (m.geometry.boundsTree = new MeshBVH(m.geometry, { strategy: SAH, indirect: true }))),
  );
  row(
    '',
    'all mesh BVHs (ms)',
    fmt(meshesWeft, 1),
    fmt(meshesThree, 1),
    fmt(meshesThree / meshesWeft, 2),
    'weft builds them lazily, on the first pick that reaches a mesh',
  );
  const raycaster = new Raycaster();
  raycaster.firstHitOnly = true;
  const censuses: Record<string, CpuPickCensusReport> = {};
  for (const [kind, rays] of [
    ['camera rays', cameraRays([0, 0, 0], spread * 0.9, 128)],
    ['random rays', randomRays([0, 0, 0], spread, 16384, 11)],
  ] as const) {
    const n = rays.length / 6;
    const pick = (i: number) =>
      pickWithRaySync(scene, {
        origin: rays.subarray(i * 6, i * 6 + 3) as unknown as number[],
        direction: rays.subarray(i * 6 + 3, i * 6 + 6) as unknown as number[],
      });
    let agree = 0;
    let hits = 0;
    const out: Array<{ object: unknown; faceIndex?: number | null }> = [];
    for (let i = 0; i < n; i++) {
      const info = pick(i);
      raycaster.ray.origin.set(rays[i * 6], rays[i * 6 + 1], rays[i * 6 + 2]);
      raycaster.ray.direction.set(rays[i * 6 + 3], rays[i * 6 + 4], rays[i * 6 + 5]);
      out.length = 0;
      objects.raycast(raycaster, out as never);
      hits += info.hit ? 1 : 0;
      const theirs = out[0];
      if (
        info.hit === !!theirs &&
        (!theirs ||
          (threeMeshes.indexOf(theirs.object as ThreeMesh) === meshes.indexOf(info.pickedMesh!) &&
            theirs.faceIndex === info.faceId))
      )
        agree++;
    }
    takeCpuPickCensus(picker);
    pickRays(n, pick);
    censuses[kind] = takeCpuPickCensus(picker);
    const [tWeft, tThree] = bestOf(
      () => pickRays(n, pick),
      () => {
        for (let i = 0; i < n; i++) {
          raycaster.ray.origin.set(rays[i * 6], rays[i * 6 + 1], rays[i * 6 + 2]);
          raycaster.ray.direction.set(rays[i * 6 + 3], rays[i * 6 + 4], rays[i * 6 + 5]);
          out.length = 0;
          objects.raycast(raycaster, out as never);
        }
      },
    );
    row(
      '',
      `${kind}: full pick (rays/s)`,
      fmt((n / tWeft) * 1000),
      fmt((n / tThree) * 1000),
      fmt(tThree / tWeft, 2),
      `${fmt((100 * hits) / n, 1)} % hit; same object + face as three on ${fmt((100 * agree) / n, 2)} %; vs ObjectBVH.raycast (firstHitOnly)`,
    );
  }
  const flat = createCpuPicker(scene, { refit: 'manual', sceneBvh: 'never' });
  const flatRays = randomRays([0, 0, 0], spread, 2048, 11);
  pickRays(2048, (i) =>
    pickWithRaySync(scene, {
      origin: Array.from(flatRays.subarray(i * 6, i * 6 + 3)),
      direction: Array.from(flatRays.subarray(i * 6 + 3, i * 6 + 6)),
    }),
  );
  const flatCensus = takeCpuPickCensus(flat);
  census.push(
    `offers per ray (entries offered to the ray), ${fmt(count)} objects: scene BVH ${fmt(censuses['camera rays'].offersPerRay, 2)} (camera rays), ${fmt(censuses['random rays'].offersPerRay, 2)} (random rays); flat scan ${fmt(flatCensus.offersPerRay, 0)}`,
    `box tests per ray (offers + BVH nodes): scene BVH ${fmt(censuses['camera rays'].boxTestsPerRay, 2)} / ${fmt(censuses['random rays'].boxTestsPerRay, 2)}; flat scan ${fmt(flatCensus.boxTestsPerRay, 0)}; narrow phases per ray ${fmt(censuses['random rays'].narrowPhasePerRay, 2)} vs ${fmt(flatCensus.narrowPhasePerRay, 2)}`,
  );
}

function pickRays(n: number, pick: (i: number) => unknown): void {
  for (let i = 0; i < n; i++) pick(i);
}

/** Runs both libraries' build and query paths on a throwaway mesh first, so neither is timed cold. */
function warmUp(): void {
  const data = makeSphereData({ segments: 96, rings: 48 });
  const geometry = threeGeometry({ positions: data.positions!, indices: data.indices! });
  const rays = randomRays([0, 0, 0], 1, 4096, 1);
  const hit = makeTriangleHit();
  const ray = new Ray();
  for (let round = 0; round < 15; round++) {
    const weft = buildTriangleBvh(data.positions!, data.indices!);
    const three = new MeshBVH(geometry, { strategy: SAH, indirect: true });
    for (let i = 0; i < rays.length / 6; i++) {
      const b = i * 6;
      raycastTriangleBvhFirst(
        weft,
        rays[b],
        rays[b + 1],
        rays[b + 2],
        rays[b + 3],
        rays[b + 4],
        rays[b + 5],
        0,
        Infinity,
        hit,
      );
      ray.origin.set(rays[b], rays[b + 1], rays[b + 2]);
      ray.direction.set(rays[b + 3], rays[b + 4], rays[b + 5]);
      three.raycastFirst(ray, DoubleSide);
    }
  }
}

const census: string[] = [];
warmUp();
benchMesh('bunny', await makeBunnyDataAsync());
benchMesh('torus', makeTorusData({ radius: 1, tube: 0.4, radialSegments: 500, tubularSegments: 500 }));
benchScene(10_000);

const header = ['mesh / scene', 'measure', 'weft', 'three-mesh-bvh', 'ratio', 'notes'];
const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => (r[i] ?? '').length)));
const line = (cells: string[]) =>
  cells
    .map((c, i) => (i >= 2 && i <= 4 ? (c ?? '').padStart(widths[i]) : (c ?? '').padEnd(widths[i])))
    .join('  ')
    .trimEnd();
console.log(
  `CPU pick benchmark (best of ${passes} interleaved passes; ratio = weft speed / three-mesh-bvh speed, > 1 = weft faster)\n`,
);
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
table.forEach((r) => console.log(line(r)));
console.log('');
census.forEach((c) => console.log(c));
