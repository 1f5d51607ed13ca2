import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  createMeshFromData, createScene, type Engine, makeBoxData, makeBunnyData, makePerspectiveCamera, makeSphereData, makeTorusData,
  type MeshData, type Scene, setCameraOrbit,
} from '../../../engine/index.js';
import { createGpuPicker, enableDetailedPicking, getPickedUV, pickAsync, type PickingInfo } from '../../../picking/index.js';
import { gpuTest } from '../../support/gpu.js';
import { castReferenceRay, castReferenceRayAll, createReferenceScene, makePixelRay, type ReferenceHit, type ReferenceMesh, type ReferenceScene } from '../../support/reference-raycast.js';

/** Small deterministic PRNG so every run draws the same scenes. */
function makeRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Generated { scene: Scene; reference: ReferenceScene; ids: Map<number, string> }

async function generateScene(engine: Engine, seed: number): Promise<Generated> {
  const random = makeRandom(seed);
  const scene = createScene(engine);
  const bunny = await makeBunnyData();
  const shapes: [string, MeshData][] = [
    ['sphere', makeSphereData({ radius: 0.5, segments: 24, rings: 12 })],
    ['box', makeBoxData()],
    ['torus', makeTorusData({ radius: 0.45, tube: 0.15 })],
    ['bunny', bunny],
  ];
  const references: ReferenceMesh[] = [];
  const ids = new Map<number, string>();
  for (let i = 0; i < 9; i++) {
    const [kind, data] = shapes[i % shapes.length];
    const scale: [number, number, number] = [0.6 + random(), 0.6 + random(), 0.6 + random()]; // non-uniform
    const world = mat4.multiply(mat4.multiply(mat4.translation([(random() - 0.5) * 5, (random() - 0.5) * 3, (random() - 0.5) * 5]), mat4.rotationY(random() * 6)), mat4.multiply(mat4.rotationX(random() * 6), mat4.scaling(scale)));
    let instances: Float32Array | undefined;
    if (i % 3 === 2) {
      instances = new Float32Array(3 * 16);
      for (let k = 0; k < 3; k++) {
        instances.set(mat4.multiply(mat4.translation([(random() - 0.5) * 3, (random() - 0.5) * 2, (random() - 0.5) * 3]), mat4.rotationZ(random() * 6)), k * 16);
        instances[k * 16 + 3] = random() * 100; // payload
      }
    }
    const mesh = createMeshFromData(scene, `${kind}${i}`, data, { worldMatrix: world, thinInstances: instances });
    ids.set(mesh.uniqueId, mesh.name);
    references.push({ id: mesh.uniqueId, positions: data.positions!, indices: data.indices ?? null, normals: data.normals ?? null, uvs: data.uvs ?? null, worldMatrix: new Float32Array(world), thinInstances: instances ?? null, doubleSided: true });
  }
  scene.camera = makePerspectiveCamera({ fovY: 0.6 + random() * 0.6, near: 0.1 });
  setCameraOrbit(scene.camera, { target: [0, 0, 0], radius: 4.5 + random() * 2, yaw: random() * 6.28, pitch: (random() - 0.5) * 1.2 });
  return { scene, reference: createReferenceScene(references), ids };
}

interface Figures { compared: number; identity: number; face: number; point: number; barycentric: number; normal: number; uvCompared: number; uv: number; misses: number; missAgree: number }

const sameHit = (a: ReferenceHit | null, b: ReferenceHit | null) => (!a || !b ? a === b : a.meshId === b.meshId && a.thinInstanceIndex === b.thinInstanceIndex && a.faceId === b.faceId);
const close = (a: readonly number[], b: readonly number[], tolerance: number) => a.every((v, i) => Math.abs(v - b[i]) <= tolerance);

/** Picks every pixel of the frame and compares with the three-mesh-bvh ray through the same pixel centre. */
async function measure(generated: Generated, engine: Engine, figures: Figures): Promise<void> {
  const picker = createGpuPicker(generated.scene);
  expect(enableDetailedPicking(picker)).toBe(true);
  const { width, height } = engine;
  const camera = generated.scene.camera!;
  const cameraPosition = Array.from(camera.position) as [number, number, number];
  const pixels: [number, number][] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels.push([x, y]);
  for (let start = 0; start < pixels.length; start += 64) {
    const batch = pixels.slice(start, start + 64);
    const infos: PickingInfo[] = await Promise.all(batch.map(([x, y]) => pickAsync(picker, x, y)));
    batch.forEach(([x, y], k) => {
      const info = infos[k];
      const inverse = mat4.inverse(info.ray?.viewProjection ?? new Float32Array(16));
      const cast = (dx: number, dy: number) => {
        const ray = makePixelRay(inverse, cameraPosition, x + dx, y + dy, width, height);
        return castReferenceRay(generated.reference, ray.origin, ray.direction);
      };
      const truth = cast(0, 0);
      if ([[-0.05, 0], [0.05, 0], [0, -0.05], [0, 0.05]].some(([dx, dy]) => !sameHit(truth, cast(dx, dy)))) return;
      if (!truth) {
        figures.misses++;
        if (!info.hit) figures.missAgree++;
        return;
      }
      const ray = makePixelRay(inverse, cameraPosition, x, y, width, height);
      const next = castReferenceRayAll(generated.reference, ray.origin, ray.direction).find((h) => h.meshId !== truth.meshId || h.thinInstanceIndex !== truth.thinInstanceIndex);
      if (next && next.distance - truth.distance < 1e-3 * truth.distance) return; // identities too close in depth to tell apart
      figures.compared++;
      if (info.pickedMesh?.uniqueId !== truth.meshId || info.thinInstanceIndex !== truth.thinInstanceIndex) return;
      figures.identity++;
      if (info.faceId !== truth.faceId) return;
      figures.face++;
      if (close(info.pickedPoint!, truth.point, 1e-3 * truth.distance)) figures.point++;
      if (close([info.bu, info.bv], [truth.bu, truth.bv], 1e-3)) figures.barycentric++;
      if (truth.normalWorld && info.pickedNormalWorld && close(info.pickedNormalWorld, truth.normalWorld, 1e-3)) figures.normal++;
      if (truth.uv) {
        figures.uvCompared++;
        const uv = getPickedUV(info);
        if (uv && close(uv, truth.uv, 1e-3)) figures.uv++;
      }
    });
  }
}

describe('GPU picker accuracy against three.js + three-mesh-bvh', () => {
  gpuTest('identity, face, point, barycentrics, world normal and UV agree on generated scenes', async ({ engine }) => {
    const figures: Figures = { compared: 0, identity: 0, face: 0, point: 0, barycentric: 0, normal: 0, uvCompared: 0, uv: 0, misses: 0, missAgree: 0 };
    for (const seed of [1, 2, 3, 4]) await measure(await generateScene(engine, seed), engine, figures);
    const ratio = (n: number, of = figures.compared) => n / of;
    const base: Record<string, number> = { missAgree: figures.misses, uv: figures.uvCompared };
    const report = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, ['compared', 'misses', 'uvCompared'].includes(k) ? v : `${v} (${(100 * ratio(v, base[k] ?? figures.compared)).toFixed(3)} %)`]));
    console.log('[picker accuracy]', report);
    expect(figures.compared).toBeGreaterThan(2000);
    expect(figures.misses).toBeGreaterThan(500);
    expect(figures.missAgree).toBe(figures.misses);
    for (const key of ['identity', 'face', 'point', 'barycentric', 'normal'] as const) {
      expect(ratio(figures[key]), key).toBeGreaterThanOrEqual(0.999);
    }
    expect(figures.uvCompared).toBeGreaterThan(1000);
    expect(ratio(figures.uv, figures.uvCompared), 'uv').toBeGreaterThanOrEqual(0.999);
  }, [80, 60]);
});
