// The pick pass's planning rules that need no device: when a pick asks the scene hierarchy, which candidates batch,
// when a run reuses the previous run's pipeline, when a candidate draws from the buffers already bound.
import { mat4 } from 'wgpu-matrix';
import { describe, expect, test } from 'vitest';
import { createMeshFromData, disposeMesh, type Mesh } from '../../engine/mesh.js';
import { makeBoxData, makeSphereData } from '../../engine/primitives/index.js';
import type { Scene } from '../../engine/scene.js';
import { captureCandidate, hierarchyThreshold, usesSceneHierarchy } from '../../picking/pick-snapshot.js';
import type { PickingRay } from '../../picking/picking-ray.js';
import { batchable } from '../../picking/gpu/pick-batches.js';
import { reusesPreviousRunPipeline } from '../../picking/gpu/pick-pass-plan.js';
import {
  type BoundBuffers,
  canDrawFromBoundBuffers,
  hasOnlyGeometryBuffers,
} from '../../picking/gpu/pick-pass-draw.js';
import { geometryClassOf } from '../../picking/gpu/geometry-class.js';
import type { RasterRun } from '../../picking/gpu/pick-pass-types.js';
import type { PickPipeline } from '../../picking/gpu/pick-resources.js';
import { makeCpuScene } from './cpu-picking/scene-fixtures.js';

function addBoxes(scene: Scene, count: number): Mesh[] {
  return Array.from({ length: count }, (_, i) =>
    createMeshFromData(scene, `box${i}`, makeBoxData(), { worldMatrix: mat4.translation([i, 0, 0]) }),
  );
}

function rays(count: number): PickingRay[] {
  return Array.from({ length: count }, (_, i) => ({
    origin: [i, 0, 10],
    direction: [0, 0, -1],
    pixelX: i,
    pixelY: 0,
  })) as unknown as PickingRay[];
}

function instances(count: number): Float32Array {
  const matrices = new Float32Array(count * 16);
  for (let i = 0; i < count; i++) matrices.set(mat4.translation([i, 2, 0]), i * 16);
  return matrices;
}

describe('usesSceneHierarchy: when a pick asks the CPU scene hierarchy instead of scanning the meshes', () => {
  test('from hierarchyThreshold drawables on, meshes and thin instances counted alike', () => {
    const scene = makeCpuScene();
    addBoxes(scene, hierarchyThreshold - 1);
    expect(usesSceneHierarchy(scene.meshes, {}, rays(1), 1, scene)).toBe(false);
    addBoxes(scene, 1);
    expect(usesSceneHierarchy(scene.meshes, {}, rays(1), 1, scene)).toBe(true);
    expect(usesSceneHierarchy(scene.meshes, {}, rays(3), 3, scene)).toBe(true);

    const instanced = makeCpuScene();
    createMeshFromData(instanced, 'one', makeBoxData(), { thinInstances: instances(hierarchyThreshold - 2) });
    createMeshFromData(instanced, 'two', makeBoxData());
    expect(usesSceneHierarchy(instanced.meshes, {}, rays(1), 1, instanced)).toBe(false);
    createMeshFromData(instanced, 'three', makeBoxData());
    expect(usesSceneHierarchy(instanced.meshes, {}, rays(1), 1, instanced)).toBe(true);
  });

  test('only where it answers as the scan does: rays for every point, pre-filter on, the scene`s own list', () => {
    const scene = makeCpuScene();
    addBoxes(scene, hierarchyThreshold);
    expect(usesSceneHierarchy(scene.meshes, {}, rays(1), 1, undefined)).toBe(false);
    expect(usesSceneHierarchy(scene.meshes, {}, null, 1, scene)).toBe(false);
    expect(usesSceneHierarchy(scene.meshes, {}, rays(1), 2, scene)).toBe(false);
    expect(usesSceneHierarchy(scene.meshes, { preFilter: false }, rays(1), 1, scene)).toBe(false);
    expect(usesSceneHierarchy(scene.meshes, { preFilter: true }, rays(1), 1, scene)).toBe(true);
    expect(usesSceneHierarchy([...scene.meshes], {}, rays(1), 1, scene)).toBe(false);
  });

  test('not while any mesh of the scene is deformed (its pose only the scan bounds)', () => {
    const scene = makeCpuScene();
    addBoxes(scene, hierarchyThreshold);
    const data = makeBoxData();
    const morphed = createMeshFromData(scene, 'morphed', data, {
      morphTargets: { positions: [new Float32Array(data.positions!.length)] },
    });
    expect(usesSceneHierarchy(scene.meshes, {}, rays(1), 1, scene)).toBe(false);
    disposeMesh(morphed);
    expect(usesSceneHierarchy(scene.meshes, {}, rays(1), 1, scene)).toBe(true);
  });
});

describe('batchable: which marquee candidates may draw as one instance of a batch', () => {
  test('a plain live mesh as captured; not thin-instanced, deformed, an overlay, a stand-in or disposed', () => {
    const scene = makeCpuScene();
    const [plain, other] = addBoxes(scene, 2);
    expect(batchable(captureCandidate(plain, 1, 1, null))).toBe(true);
    expect(batchable({ ...captureCandidate(plain, 1, 1, null), overlay: 'scene' })).toBe(false);
    expect(batchable({ ...captureCandidate(plain, 1, 1, null), drawMesh: other })).toBe(false);
    const thin = createMeshFromData(scene, 'thin', makeBoxData(), { thinInstances: instances(2) });
    const runs = [{ first: 0, count: 2, matrices: instances(2) }];
    expect(batchable(captureCandidate(thin, 1, 2, runs))).toBe(false);
    const data = makeBoxData();
    const morphed = createMeshFromData(scene, 'morphed', data, {
      morphTargets: { positions: [new Float32Array(data.positions!.length)] },
    });
    expect(batchable(captureCandidate(morphed, 1, 1, null))).toBe(false);
    const candidate = captureCandidate(other, 1, 1, null);
    disposeMesh(other);
    expect(batchable(candidate)).toBe(false);
  });
});

describe('reusesPreviousRunPipeline: a candidate`s next run takes the previous run`s pipeline', () => {
  const run = (cullMode: GPUCullMode, frontFace: GPUFrontFace): RasterRun => ({
    first: 0,
    count: 1,
    raster: { cullMode, frontFace },
    pipeline: null,
  });
  test('when the raster state is the same, the only thing that differs between runs of one candidate', () => {
    expect(reusesPreviousRunPipeline(null, run('back', 'ccw'))).toBe(false);
    expect(reusesPreviousRunPipeline(run('back', 'ccw'), run('back', 'ccw'))).toBe(true);
    expect(reusesPreviousRunPipeline(run('back', 'ccw'), run('back', 'cw'))).toBe(false);
    expect(reusesPreviousRunPipeline(run('back', 'ccw'), run('none', 'ccw'))).toBe(false);
  });
});

describe('canDrawFromBoundBuffers: the next candidate draws from the vertex/index buffers already bound', () => {
  const pipeline = { label: 'a' } as unknown as PickPipeline;
  const otherPipeline = { label: 'b' } as unknown as PickPipeline;

  test('a mesh of the bound geometry class under the same pipeline; not another class or pipeline', () => {
    const scene = makeCpuScene();
    const [a, b] = addBoxes(scene, 2);
    const sphere = createMeshFromData(scene, 'sphere', makeSphereData());
    const boxClass = geometryClassOf(a.geometry);
    expect(boxClass).not.toBeNull();
    expect(geometryClassOf(b.geometry)).toBe(boxClass);
    const bound: BoundBuffers = { pipeline, mesh: a, geometryClass: boxClass };
    expect(canDrawFromBoundBuffers(null, pipeline, a, true, boxClass)).toBe(false);
    expect(canDrawFromBoundBuffers(bound, pipeline, a, true, boxClass)).toBe(true);
    expect(canDrawFromBoundBuffers(bound, pipeline, b, true, boxClass)).toBe(true);
    expect(canDrawFromBoundBuffers(bound, otherPipeline, b, true, boxClass)).toBe(false);
    const sphereClass = geometryClassOf(sphere.geometry);
    expect(canDrawFromBoundBuffers(bound, pipeline, sphere, true, sphereClass)).toBe(false);
    // Geometry too large to compare (class null): only the mesh itself may reuse what it bound.
    expect(canDrawFromBoundBuffers({ pipeline, mesh: a, geometryClass: null }, pipeline, b, true, null)).toBe(false);
  });

  test('never a candidate with bindings of its own: thin instances, deformation data or rule storage', () => {
    const scene = makeCpuScene();
    const [a] = addBoxes(scene, 1);
    const thin = createMeshFromData(scene, 'thin', makeBoxData(), { thinInstances: instances(2) });
    expect(hasOnlyGeometryBuffers(a, null)).toBe(true);
    expect(hasOnlyGeometryBuffers(a, [new Uint8Array(4)])).toBe(false);
    expect(hasOnlyGeometryBuffers(thin, null)).toBe(false);
    expect(hasOnlyGeometryBuffers({ ...a, deformationGpu: {} } as unknown as Mesh, null)).toBe(false);
    const bound: BoundBuffers = { pipeline, mesh: a, geometryClass: geometryClassOf(a.geometry) };
    // Not shareable: no geometry class is looked up, and even the bound mesh itself binds again.
    expect(canDrawFromBoundBuffers(bound, pipeline, a, false, null)).toBe(false);
    expect(canDrawFromBoundBuffers(bound, pipeline, thin, false, null)).toBe(false);
  });
});
