// Picked = drawn: one face rule across the forward pass, its frame IDs, the G-buffer, the GPU pick and pickSync.
// References: three.js raycasts (FrontSide for one-sided materials, DoubleSide otherwise) with rays built here in
// float64 from the camera's parameters (test/support/camera-rays.ts, which uses none of weft's maths).
import * as THREE from 'three';
import { describe, expect } from 'vitest';
import { mat4 } from 'wgpu-matrix';
import {
  createForwardRenderTask,
  createMeshFromData,
  createScene,
  type FrameIdHit,
  makeBoxData,
  makePerspectiveCamera,
  makeStandardMaterial,
  type Mesh,
  type MeshData,
  readForwardFrameIdAsync,
  runTasks,
  type Scene,
  setMeshWorldMatrix,
  setThinInstances,
} from '../../../engine/index.js';
import { createGeometryRendererTask, GeometryTextureType, readGeometryFrameIdAsync } from '../../../geometry/index.js';
import {
  createGpuPicker,
  disposeGpuPicker,
  enableDetailedPicking,
  type PickingInfo,
  pickAsync,
  pickManyAsync,
  pickRectAsync,
} from '../../../picking/index.js';
import { pickSync } from '../../../picking/cpu/index.js';
import { cameraBasis, dot, pixelRay } from '../../support/camera-rays.js';
import { gpuTest } from '../../support/gpu.js';
import { readPixels } from '../geometry/geometry-test-helpers.js';

type Vec3 = [number, number, number];

interface Reference {
  /** three.js objects by weft mesh. */
  objects: Map<THREE.Object3D, Mesh>;
  root: THREE.Object3D[];
}

/** The same meshes in three.js: FrontSide for one-sided materials (three culls in local space), else DoubleSide. */
function makeReference(meshes: readonly Mesh[], cull = true): Reference {
  const objects = new Map<THREE.Object3D, Mesh>();
  for (const mesh of meshes) {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(Float32Array.from(mesh.positions), 3));
    if (mesh.geometry.indices) geometry.setIndex(new THREE.BufferAttribute(Uint32Array.from(mesh.geometry.indices), 1));
    const side = cull && !mesh.material.doubleSided ? THREE.FrontSide : THREE.DoubleSide;
    const material = new THREE.MeshBasicMaterial({ side });
    const object = mesh.thinInstances
      ? new THREE.InstancedMesh(geometry, material, mesh.thinInstanceCount)
      : new THREE.Mesh(geometry, material);
    if (object instanceof THREE.InstancedMesh)
      for (let i = 0; i < mesh.thinInstanceCount; i++)
        object.setMatrixAt(
          i,
          new THREE.Matrix4().fromArray(Array.from(mesh.thinInstances!.subarray(i * 16, i * 16 + 16))),
        );
    object.matrixAutoUpdate = false;
    object.matrix.fromArray(Array.from(mesh.worldMatrix));
    object.updateMatrixWorld(true);
    objects.set(object, mesh);
  }
  return { objects, root: [...objects.keys()] };
}

interface Truth {
  mesh: Mesh;
  instance: number;
  faceId: number;
  point: Vec3;
  distance: number;
  /** The hit triangle's world normal, turned towards the ray's origin. */
  faceNormal: Vec3;
}

const raycaster = new THREE.Raycaster();

function cast(reference: Reference, ray: { origin: Vec3; direction: Vec3 }): Truth | null {
  raycaster.ray.origin.set(...ray.origin);
  raycaster.ray.direction.set(...ray.direction);
  raycaster.near = 0;
  raycaster.far = Infinity;
  const [hit] = raycaster.intersectObjects(reference.root, false);
  if (!hit) return null;
  const object = hit.object;
  const world = object.matrixWorld.clone();
  if (object instanceof THREE.InstancedMesh) {
    const instance = new THREE.Matrix4();
    object.getMatrixAt(hit.instanceId!, instance);
    world.multiply(instance);
  }
  const n = hit.face!.normal.clone().applyNormalMatrix(new THREE.Matrix3().getNormalMatrix(world)).normalize();
  if (n.dot(raycaster.ray.direction) > 0) n.negate();
  return {
    mesh: reference.objects.get(object)!,
    instance: hit.instanceId ?? -1,
    faceId: hit.faceIndex!,
    point: [hit.point.x, hit.point.y, hit.point.z],
    distance: hit.distance,
    faceNormal: [n.x, n.y, n.z],
  };
}

const sameTruth = (a: Truth | null, b: Truth | null) =>
  !a || !b ? a === b : a.mesh === b.mesh && a.instance === b.instance && a.faceId === b.faceId;

const pointError = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** Each triangle's corners 1 and 2 swapped: the same closed surface wound clockwise seen from outside. */
function clockwise(data: MeshData): MeshData {
  const indices = Uint32Array.from(data.indices!);
  for (let t = 0; t < indices.length; t += 3) [indices[t + 1], indices[t + 2]] = [indices[t + 2], indices[t + 1]];
  return { ...data, indices };
}

/** A unit square at z = 0 wound counter-clockwise seen from −Z: its front faces away from a camera on +Z. */
const squareFacingAway: MeshData = {
  positions: new Float32Array([-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0]),
  normals: new Float32Array([0, 0, -1, 0, 0, -1, 0, 0, -1, 0, 0, -1]),
  indices: new Uint16Array([0, 2, 1, 0, 3, 2]),
};

const eye: Vec3 = [0.3, 0.4, 8];
const fovY = Math.PI / 4;

function makeScene(engine: Parameters<typeof createScene>[0]): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: eye, target: [0, 0, 0], fovY, near: 0.1, far: 100 });
  return scene;
}

function rayAt(width: number, height: number, x: number, y: number) {
  // pixelRay samples (px + 0.5, py + 0.5): shift by half a pixel to sample exactly (x, y).
  return pixelRay(cameraBasis(eye, [0, 0, 0], fovY, width, height), x - 0.5, y - 0.5, width, height);
}

describe('picked = drawn: one face rule for every pass', () => {
  gpuTest(
    'a one-sided plane seen from behind is neither drawn nor picked (GPU, CPU, G-buffer, frame IDs); culling: none picks it',
    async ({ engine }) => {
      const scene = makeScene(engine);
      const plane = createMeshFromData(scene, 'plane-facing-away', squareFacingAway);
      const wall = createMeshFromData(scene, 'wall', makeBoxData({ width: 30, height: 30, depth: 0.5 }), {
        worldMatrix: mat4.translation([0, 0, -3]),
      });
      const forward = createForwardRenderTask(scene, { objectIds: true });
      const gbuffer = createGeometryRendererTask(scene, {
        textureDescriptions: [{ type: GeometryTextureType.WORLD_NORMAL }],
        objectId: true,
      });
      expect(runTasks(engine, [forward, gbuffer])).toBe(true);
      const picker = createGpuPicker(scene);
      expect(enableDetailedPicking(picker)).toBe(true);
      const { width, height } = engine;
      const x = 32;
      const y = 32;
      const ray = rayAt(width, height, x + 0.5, y + 0.5);
      const asDrawn = cast(makeReference([plane, wall]), ray)!;
      const everyFace = cast(makeReference([plane, wall], false), ray)!;
      expect(asDrawn.mesh).toBe(wall);
      expect(everyFace.mesh).toBe(plane);
      const named = (hit: FrameIdHit) => (hit.hit ? hit.mesh : null);
      expect(named(await readForwardFrameIdAsync(forward, x, y))).toBe(wall);
      expect(named(await readGeometryFrameIdAsync(gbuffer, x, y))).toBe(wall);
      const gpu = await pickAsync(picker, x, y);
      const cpu = pickSync(scene, x, y);
      const [many] = await pickManyAsync(picker, [{ x, y }]);
      for (const info of [gpu, cpu, many]) {
        expect(info.pickedMesh).toBe(wall);
        expect(pointError(info.pickedPoint!, asDrawn.point)).toBeLessThan(1e-5 * asDrawn.distance);
      }
      const marquee = await pickRectAsync(picker, 0, 0, width, height);
      expect(marquee.map((m) => m.mesh)).toEqual([wall]);
      // On purpose: every face.
      const gpuAll = await pickAsync(picker, x, y, { culling: 'none' });
      const cpuAll = pickSync(scene, x, y, { culling: 'none' });
      for (const info of [gpuAll, cpuAll]) {
        expect(info.pickedMesh).toBe(plane);
        expect(info.faceId).toBe(everyFace.faceId);
        expect(pointError(info.pickedPoint!, everyFace.point)).toBeLessThan(1e-5 * everyFace.distance);
        // Its normals are on the side the ray came from: the back of the plane, +Z.
        expect(info.pickedFaceNormalWorld![2]).toBeCloseTo(1, 6);
        expect(info.pickedNormalWorld![2]).toBeCloseTo(1, 6);
      }
      expect(pointError(cpuAll.pickedPoint!, everyFace.point)).toBeLessThan(1e-6 * everyFace.distance);
      const marqueeAll = await pickRectAsync(picker, 0, 0, width, height, { culling: 'none' });
      expect(new Set(marqueeAll.map((m) => m.mesh))).toEqual(new Set([plane, wall]));
      // A double-sided material draws and picks it everywhere.
      plane.material = makeStandardMaterial({ doubleSided: true });
      expect(runTasks(engine, [forward, gbuffer])).toBe(true);
      expect(named(await readForwardFrameIdAsync(forward, x, y))).toBe(plane);
      expect(named(await readGeometryFrameIdAsync(gbuffer, x, y))).toBe(plane);
      expect((await pickAsync(picker, x, y)).pickedMesh).toBe(plane);
      expect(pickSync(scene, x, y).pickedMesh).toBe(plane);
      // Its WORLD_NORMAL faces the camera although its winding faces away.
      const normals = await readPixels(gbuffer.geometryWorldNormalTexture!);
      const n = normals.at(x, y);
      expect(n[2]).toBeCloseTo(1, 3);
      disposeGpuPicker(picker);
      forward.dispose();
      gbuffer.dispose();
    },
    [64, 64],
  );

  gpuTest(
    'mirrored meshes, mirrored thin instances (mixed signs in one mesh) and clockwise-wound closed meshes draw, pick and shade exactly as three.js sees them',
    async ({ engine }) => {
      const scene = makeScene(engine);
      const box = makeBoxData({ width: 1.4, height: 1.4, depth: 1.4 });
      const mirrored = createMeshFromData(scene, 'mirrored', box, {
        worldMatrix: mat4.multiply(
          mat4.translation([-2.2, 1.2, 0]),
          mat4.multiply(mat4.rotationY(0.5), mat4.scaling([-1, 1.2, 1])),
        ),
      });
      const instances = new Float32Array(3 * 16);
      instances.set(
        mat4.multiply(mat4.translation([2.2, 1.2, 0]), mat4.multiply(mat4.rotationX(0.4), mat4.scaling([1, -1, 1]))),
        0,
      );
      instances.set(mat4.multiply(mat4.translation([0, 1.2, 0]), mat4.rotationY(0.7)), 16);
      instances.set(mat4.multiply(mat4.translation([0, -1.4, 0]), mat4.scaling([-0.8, -0.8, -0.8])), 32);
      const thin = createMeshFromData(scene, 'thin', box, { thinInstances: instances });
      const inverted = createMeshFromData(scene, 'clockwise', clockwise(box), {
        worldMatrix: mat4.multiply(mat4.translation([-2.2, -1.4, 0]), mat4.rotationY(-0.6)),
      });
      const mirroredClockwise = createMeshFromData(scene, 'mirrored-clockwise', clockwise(box), {
        worldMatrix: mat4.multiply(mat4.translation([2.2, -1.4, 0]), mat4.scaling([1, 1, -1])),
      });
      const meshes = [mirrored, thin, inverted, mirroredClockwise];
      const reference = makeReference(meshes);
      const forward = createForwardRenderTask(scene, { objectIds: true });
      const gbuffer = createGeometryRendererTask(scene, {
        textureDescriptions: [{ type: GeometryTextureType.WORLD_NORMAL }],
        objectId: true,
      });
      expect(runTasks(engine, [forward, gbuffer])).toBe(true);
      const normals = await readPixels(gbuffer.geometryWorldNormalTexture!);
      const picker = createGpuPicker(scene);
      expect(enableDetailedPicking(picker)).toBe(true);
      const { width, height } = engine;
      const figures = { pixels: 0, hits: 0, forward: 0, gbuffer: 0, gpu: 0, cpu: 0, normal: 0 };
      let worstGpu = 0;
      let worstCpu = 0;
      let worstNormal = 0;
      const perMesh = new Map<Mesh, number>();
      const points: { x: number; y: number; truth: Truth | null }[] = [];
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const truth = cast(reference, rayAt(width, height, x + 0.5, y + 0.5));
          const stable = [
            [-0.05, 0],
            [0.05, 0],
            [0, -0.05],
            [0, 0.05],
          ].every(([dx, dy]) => sameTruth(truth, cast(reference, rayAt(width, height, x + 0.5 + dx, y + 0.5 + dy))));
          if (stable) points.push({ x, y, truth });
        }
      for (let start = 0; start < points.length; start += 64) {
        const batch = points.slice(start, start + 64);
        const infos = await pickManyAsync(picker, batch);
        const drawn = await Promise.all(batch.map((p) => readForwardFrameIdAsync(forward, p.x, p.y)));
        const ids = await Promise.all(batch.map((p) => readGeometryFrameIdAsync(gbuffer, p.x, p.y)));
        batch.forEach(({ x, y, truth }, k) => {
          figures.pixels++;
          const same = (hit: FrameIdHit) =>
            truth
              ? hit.hit &&
                hit.mesh === truth.mesh &&
                hit.thinInstanceIndex === truth.instance &&
                hit.primitiveIndex === truth.faceId
              : !hit.hit;
          if (same(drawn[k])) figures.forward++;
          if (same(ids[k])) figures.gbuffer++;
          const agrees = (info: PickingInfo) =>
            truth
              ? info.pickedMesh === truth.mesh &&
                info.thinInstanceIndex === truth.instance &&
                info.faceId === truth.faceId
              : !info.hit;
          const gpu = infos[k];
          const cpu = pickSync(scene, x, y);
          if (agrees(gpu)) figures.gpu++;
          if (agrees(cpu)) figures.cpu++;
          if (!truth) return;
          figures.hits++;
          perMesh.set(truth.mesh, (perMesh.get(truth.mesh) ?? 0) + 1);
          if (gpu.pickedPoint) worstGpu = Math.max(worstGpu, pointError(gpu.pickedPoint, truth.point) / truth.distance);
          if (cpu.pickedPoint) worstCpu = Math.max(worstCpu, pointError(cpu.pickedPoint, truth.point) / truth.distance);
          // WORLD_NORMAL and the picks' normals: the face normal on the camera's side (flat boxes).
          const n = normals.at(x, y);
          const angle = (v: readonly number[]) =>
            Math.acos(Math.min(1, dot(v, truth.faceNormal) / Math.hypot(v[0], v[1], v[2])));
          const worst = Math.max(
            angle([n[0], n[1], n[2]]),
            angle(gpu.pickedNormalWorld ?? [0, 0, 0]),
            angle(cpu.pickedNormalWorld ?? [0, 0, 0]),
            angle(cpu.pickedFaceNormalWorld ?? [0, 0, 0]),
          );
          worstNormal = Math.max(worstNormal, worst);
          if (worst < 0.01) figures.normal++;
        });
      }
      console.log('[picked as drawn]', figures, { worstGpu, worstCpu, worstNormal });
      // Every kind of mesh is seen, and the clockwise ones show their inside (the far faces).
      for (const mesh of meshes) expect(perMesh.get(mesh) ?? 0, mesh.name).toBeGreaterThan(20);
      expect(figures.pixels).toBeGreaterThan(3500);
      expect(figures.hits).toBeGreaterThan(600);
      expect(figures.forward).toBe(figures.pixels);
      expect(figures.gbuffer).toBe(figures.pixels);
      expect(figures.gpu).toBe(figures.pixels);
      expect(figures.cpu).toBe(figures.pixels);
      expect(figures.normal).toBe(figures.hits);
      expect(worstGpu).toBeLessThan(1e-5);
      expect(worstCpu).toBeLessThan(1e-6);

      // A discard rule compiles its pipelines per cull mode and front face too: same answers.
      const sample = points.filter((p) => p.truth).slice(0, 64);
      const withRule = await pickManyAsync(picker, sample, {
        discard: { key: 'keep-all', wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool { return false; }' },
      });
      withRule.forEach((info, k) => {
        expect([info.pickedMesh, info.thinInstanceIndex, info.faceId]).toEqual([
          sample[k].truth!.mesh,
          sample[k].truth!.instance,
          sample[k].truth!.faceId,
        ]);
      });

      // A mesh that starts mirroring after the first frame: the tasks record again and draw its clockwise front.
      setMeshWorldMatrix(inverted, mat4.multiply(mat4.scaling([-1, 1, 1]), inverted.worldMatrix));
      setThinInstances(
        thin,
        instances.map((v, i) => (i % 16 === 0 && i >= 16 ? -v : v)),
      ); // instance 1 and 2 flip
      expect(runTasks(engine, [forward, gbuffer])).toBe(true);
      const moved = makeReference(meshes);
      let checked = 0;
      for (let y = 0; y < height; y += 2)
        for (let x = 0; x < width; x += 2) {
          const truth = cast(moved, rayAt(width, height, x + 0.5, y + 0.5));
          const stable = [
            [-0.05, 0],
            [0.05, 0],
            [0, -0.05],
            [0, 0.05],
          ].every(([dx, dy]) => sameTruth(truth, cast(moved, rayAt(width, height, x + 0.5 + dx, y + 0.5 + dy))));
          if (!stable || !truth || (truth.mesh !== inverted && truth.mesh !== thin)) continue;
          const expected = [truth.mesh, truth.instance, truth.faceId];
          const f = await readForwardFrameIdAsync(forward, x, y);
          const g = await readGeometryFrameIdAsync(gbuffer, x, y);
          const info = await pickAsync(picker, x, y);
          expect(f.hit && [f.mesh, f.thinInstanceIndex, f.primitiveIndex]).toEqual(expected);
          expect(g.hit && [g.mesh, g.thinInstanceIndex, g.primitiveIndex]).toEqual(expected);
          expect([info.pickedMesh, info.thinInstanceIndex, info.faceId]).toEqual(expected);
          expect(pickSync(scene, x, y).faceId).toBe(truth.faceId);
          checked++;
        }
      expect(checked).toBeGreaterThan(80);
      disposeGpuPicker(picker);
      forward.dispose();
      gbuffer.dispose();
    },
    [80, 60],
  );
});
