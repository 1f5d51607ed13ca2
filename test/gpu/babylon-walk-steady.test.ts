// The Babylon.js walk's steady places (`walk.steady`, the hint the pick-source seam may use to skip a drawable): 1 only
// where the drawable is the one the last complete walk listed at that place and nothing it describes changed. Between
// two walks one thing of one kind changes — a world matrix (a mesh's, an InstancedMesh's), a Geometry's buffers, a
// mesh's own geometry, thin-instance matrices, bone matrices, morph influences, a material's culling and side, a
// mesh's side, visibility, pickability — and the places of the meshes it changed must be 0, every other one 1. A walk
// that failed leaves nothing steady. Babylon.js's NullEngine scene, with Dawn GPU buffers standing in for a
// WebGPUEngine's (the walk binds buffers, it draws nothing).
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Bone } from '@babylonjs/core/Bones/bone.js';
import { Skeleton } from '@babylonjs/core/Bones/skeleton.js';
import { Material } from '@babylonjs/core/Materials/material.js';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import { CreateLines } from '@babylonjs/core/Meshes/Builders/linesBuilder.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import '@babylonjs/core/Meshes/instancedMesh.js';
import '@babylonjs/core/Meshes/thinInstanceMesh.js';
import { MorphTarget } from '@babylonjs/core/Morph/morphTarget.js';
import { MorphTargetManager } from '@babylonjs/core/Morph/morphTargetManager.js';
import { Scene } from '@babylonjs/core/scene.js';
import { describe, expect } from 'vitest';
import { makeSceneWalk, type SceneWalk, walkBabylonScene } from '../../hosts/babylon/babylon-drawables.js';
import { makeOwnedBuffers, type OwnedBuffers, releaseAllOwned } from '../../hosts/owned-buffers.js';
import type { PickDrawable } from '../../picking/sources/drawable-types.js';
import { gpuTest } from '../support/gpu.js';

/** Gives every vertex and index buffer of the scene a Dawn GPU buffer (NullEngine's hold none). */
function standIn(device: GPUDevice, scene: Scene): void {
  const give = (data: object | null | undefined) => {
    if (!data || (data as { underlyingResource?: unknown }).underlyingResource) return;
    const size = 1 << 16;
    const buffer = device.createBuffer({ size, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE });
    Object.defineProperty(data, 'underlyingResource', { value: buffer, configurable: true });
  };
  for (const mesh of scene.meshes) {
    const geometry = (mesh as Mesh).geometry;
    if (!geometry) continue;
    for (const kind of geometry.getVerticesDataKinds()) give(geometry.getVertexBuffer(kind)?.getBuffer());
    give(geometry.getIndexBuffer());
  }
}

function makeScene() {
  const engine = new NullEngine();
  const scene = new Scene(engine);
  const camera = new FreeCamera('camera', new Vector3(0, 0, -20), scene);
  camera.setTarget(Vector3.Zero());
  const shared = new StandardMaterial('shared', scene);
  const own = new StandardMaterial('own', scene);
  const a = CreateBox('a', { size: 1 }, scene);
  a.material = shared;
  const b = a.clone('b');
  const c = a.clone('c');
  const d = CreateBox('d', { size: 1 }, scene);
  d.material = own;
  const instance = a.createInstance('instance');
  const thin = CreateBox('thin', { size: 1 }, scene);
  thin.material = own;
  const matrices = new Float32Array(32);
  Matrix.Translation(-1, 0, 0).copyToArray(matrices, 0);
  Matrix.Translation(1, 0, 0).copyToArray(matrices, 16);
  thin.thinInstanceSetBuffer('matrix', matrices, 16);
  const skinned = CreateBox('skinned', { size: 1 }, scene);
  skinned.material = shared;
  const skeleton = new Skeleton('skeleton', 'skeleton', scene);
  const bone = new Bone('bone', skeleton);
  const vertices = skinned.getTotalVertices();
  skinned.setVerticesData('matricesIndices', new Float32Array(vertices * 4));
  skinned.setVerticesData(
    'matricesWeights',
    Float32Array.from({ length: vertices * 4 }, (_, i) => (i % 4 ? 0 : 1)),
  );
  skinned.skeleton = skeleton;
  const morphed = CreateBox('morphed', { size: 1 }, scene);
  morphed.material = shared;
  const manager = new MorphTargetManager(scene);
  const target = new MorphTarget('grown', 0.3, scene);
  target.setPositions(Float32Array.from(morphed.getVerticesData('position')!, (v) => v * 1.5));
  manager.addTarget(target);
  morphed.morphTargetManager = manager;
  [a, b, c, d, instance, thin, skinned, morphed].forEach((mesh, i) => mesh.position.set(i * 2 - 7, 0, 0));
  scene.render();
  return { engine, scene, camera, shared, own, a, b, c, d, instance, thin, skinned, skeleton, bone, morphed, target };
}

describe('weft-gpu/babylon walk: steady places', () => {
  gpuTest('a place is steady only while the same drawable there describes the same thing', async ({ engine }) => {
    const device = engine.device;
    const babylon = makeScene();
    const { scene, camera } = babylon;
    standIn(device, scene);
    const walk: SceneWalk = makeSceneWalk();
    const owned: OwnedBuffers = makeOwnedBuffers(device, 'steady-test');
    let previous: PickDrawable<AbstractMesh>[] = [];
    const walkOnce = () => {
      standIn(device, scene);
      return walkBabylonScene('test', walk, scene, camera, owned, null);
    };
    /** Walks and checks each place against the definition, `changed` being what the step changed. */
    const expectSteady = (what: string, changed: AbstractMesh[]) => {
      const list = walkOnce();
      const want = list.map((drawable, at) =>
        previous[at] === drawable && !changed.includes(drawable.object) ? 1 : 0,
      );
      const got = Array.from(walk.steady.subarray(0, list.length));
      const names = (steady: number[]) => list.map((drawable, at) => `${drawable.object.name}:${steady[at]}`).join(' ');
      expect(names(got), what).toBe(names(want));
      previous = [...list];
      return list;
    };
    try {
      const first = expectSteady('first walk', []);
      expect(first).toHaveLength(8);
      expect(Array.from(walk.steady.subarray(0, 8))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
      expectSteady('nothing changed', []);
      expect(Array.from(walk.steady.subarray(0, 8))).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
      expectSteady('nothing changed, again', []);

      babylon.b.position.x += 0.5;
      expectSteady("a mesh's world matrix", [babylon.b]);
      babylon.instance.position.y += 0.5;
      expectSteady("an InstancedMesh's world matrix", [babylon.instance]);
      const grown = Float32Array.from(babylon.a.getVerticesData('position')!, (v) => v * 1.2);
      babylon.a.geometry!.setVerticesData('position', grown, false);
      expectSteady("the Geometry a, b, c and a's instance share: new positions", [
        babylon.a,
        babylon.b,
        babylon.c,
        babylon.instance,
      ]);
      babylon.c.makeGeometryUnique();
      expectSteady('c: a geometry of its own', [babylon.c]);
      babylon.thin.thinInstanceSetMatrixAt(1, Matrix.Translation(1, 1, 0));
      expectSteady('a thin-instance matrix', [babylon.thin]);
      babylon.bone.setRotation(new Vector3(0, 0, 0.5));
      babylon.skeleton.prepare(true);
      expectSteady('a bone matrix', [babylon.skinned]);
      babylon.target.influence = 0.6;
      expectSteady('a morph influence', [babylon.morphed]);
      babylon.own.backFaceCulling = false;
      expectSteady("the culling of d's and thin's material", [babylon.d, babylon.thin]);
      babylon.b.sideOrientation = 1 - babylon.b.sideOrientation;
      expectSteady("b's side orientation", [babylon.b]);
      babylon.shared.sideOrientation = 1 - babylon.a.sideOrientation;
      expectSteady("the shared material's side orientation (b's side flipped: b draws as before)", [
        babylon.a,
        babylon.c,
        babylon.instance,
        babylon.skinned,
        babylon.morphed,
      ]);
      babylon.c.isVisible = false;
      expect(expectSteady('c hidden: the places after it hold other drawables', [])).toHaveLength(7);
      babylon.c.isVisible = true;
      expectSteady('c shown again', []);
      babylon.d.isPickable = false;
      expect(expectSteady('d not pickable', [])).toHaveLength(7);
      babylon.d.isPickable = true;
      expectSteady('d pickable again', []);
      expectSteady('nothing changed after all that', []);
      expect(Array.from(walk.steady.subarray(0, 8))).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);

      // A walk that throws hands nothing on: the next walk cannot know what was synced, so nothing is steady.
      const lines = CreateLines('lines', { points: [Vector3.Zero(), Vector3.One()] }, scene);
      expect(walkOnce).toThrow(/LinesMesh/);
      lines.dispose();
      expect(walkOnce()).toHaveLength(8);
      expect(Array.from(walk.steady.subarray(0, 8))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
      expect(walkOnce()).toHaveLength(8);
      expect(Array.from(walk.steady.subarray(0, 8))).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);

      // Drawn as lines or points, not as its material says: refused, on a steady mesh too (checked on its fast path).
      babylon.d.overrideRenderingFillMode = Material.WireFrameFillMode;
      expect(walkOnce).toThrow(/mesh "d": overrideRenderingFillMode 1/);
      babylon.d.overrideRenderingFillMode = null;
      expect(walkOnce()).toHaveLength(8);
      // A wireframe material drawn as triangles by the meshes' override is picked; without the override, refused.
      babylon.own.wireframe = true;
      expect(walkOnce).toThrow(/material "own" draws with fillMode 1/);
      babylon.d.overrideRenderingFillMode = Material.TriangleFillMode;
      babylon.thin.overrideRenderingFillMode = Material.TriangleFillMode;
      expect(walkOnce()).toHaveLength(8);
      babylon.own.wireframe = false;
      babylon.d.overrideRenderingFillMode = babylon.thin.overrideRenderingFillMode = null;
      scene.forceWireframe = true;
      expect(walkOnce).toThrow(/scene.forceWireframe is on/);
      scene.forceWireframe = false;
      scene.forcePointsCloud = true;
      expect(walkOnce).toThrow(/scene.forcePointsCloud is on/);
      scene.forcePointsCloud = false;
      expect(walkOnce()).toHaveLength(8);
    } finally {
      releaseAllOwned(owned);
      scene.dispose();
      babylon.engine.dispose();
    }
  });
});
