// Clones that share one Babylon.js Geometry (the picker compares a geometry's buffers once per pick for all of its
// meshes, and the rest per mesh): between two picks the shared positions get a new array in the same vertex buffer,
// the indices a new array and buffer (winding reversed), one clone new sub-meshes (then edited in place, then its first
// one replaced in the same array), the shared material its side orientation, one clone a geometry of its own with new
// positions, and one clone a thin instance in a new thin-instance storage object. After each change every interior
// pixel is judged by Babylon.js's own CPU pick (scene.pickWithRay, rays in float64, the drawn side by the test's own
// rule). The picker reads a mesh's first sub-mesh and thin-instance storage through references it keeps: the last two
// changes fail if it stops checking them against the mesh's own. A steady mesh's material, side, culling, sub-mesh
// span and thin-instance count are checked on every pick too: a change to each is picked right after it.
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import type { PickingInfo } from '@babylonjs/core/Collisions/pickingInfo.js';
import type { WebGPUEngine } from '@babylonjs/core/Engines/webgpuEngine.js';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { SubMesh } from '@babylonjs/core/Meshes/subMesh.js';
import { Scene } from '@babylonjs/core/scene.js';
import {
  createBabylonPickerAsync,
  disposeBabylonPicker,
  multiPickBabylonAsync,
} from '../../../../hosts/babylon/index.js';
import { babylonReference, interiorPixels, makeFrame, multiply, pixelRay } from './reference.js';
import type { TestScene } from './scene.js';

type Vec3 = [number, number, number];

/** What a pixel shows: mesh, face over the whole mesh, sub-mesh and face within it. */
function keyOf(info: PickingInfo | null): string {
  if (!info?.hit) return '-';
  return `${info.pickedMesh?.name} face ${info.faceId} sub-mesh ${info.subMeshId} face ${info.subMeshFaceId}`;
}

/** The checks of picks after shared-geometry, sub-mesh and material changes (keys start with `shared geometry`). */
export async function sharedGeometry(engine: WebGPUEngine, checks: Record<string, unknown>): Promise<void> {
  engine.useReverseDepthBuffer = false;
  const scene = new Scene(engine);
  const eye: Vec3 = [0.4, 0.6, -9];
  const camera = new FreeCamera('camera', new Vector3(...eye), scene);
  camera.setTarget(Vector3.Zero());
  const material = new StandardMaterial('shared', scene);
  const first = CreateBox('clone0', { size: 1.2, updatable: true }, scene);
  const clones: Mesh[] = [first];
  for (let i = 1; i < 6; i++) clones.push(first.clone(`clone${i}`));
  clones.forEach((mesh, i) => {
    mesh.material = material;
    mesh.position.set(((i % 3) - 1) * 3, i < 3 ? 1.3 : -1.3, 0);
    mesh.rotation.set(0.35 + 0.1 * i, 0.5 - 0.15 * i, 0);
  });
  const shared = first.geometry;
  await scene.whenReadyAsync();
  const render = () => {
    engine.beginFrame();
    scene.render();
    engine.endFrame();
  };
  render();

  const width = engine.getRenderWidth();
  const height = engine.getRenderHeight();
  const points = Array.from({ length: width * height }, (_, i) => ({ x: i % width, y: Math.floor(i / width) }));
  const frame = makeFrame(
    {
      eye,
      target: [0, 0, 0],
      up: [0, 1, 0],
      fovY: camera.fov,
      near: camera.minZ,
      far: camera.maxZ,
      halfX: 0,
      halfY: 0,
    },
    width,
    height,
    false,
    false,
  );
  const among = new Set<AbstractMesh>(clones);
  const test = { scene } as unknown as TestScene;
  const picker = await createBabylonPickerAsync(engine, scene);
  let previous: string[] | null = null;

  const step = async (what: string) => {
    // Picked right after the change, before Babylon.js draws it; the reference once it has.
    const got = await multiPickBabylonAsync(picker, points);
    render();
    for (const mesh of clones) {
      mesh.refreshBoundingInfo();
      if (mesh.thinInstanceCount) mesh.thinInstanceRefreshBoundingInfo();
    }
    const inside = interiorPixels(
      frame,
      clones.map((mesh) => {
        const world = mesh.getWorldMatrix().m;
        const thin = mesh.thinInstanceCount ? mesh.thinInstanceGetWorldMatrices() : [];
        return {
          positions: mesh.getVerticesData('position')!,
          indices: mesh.getIndices()!,
          worlds: thin.length ? thin.map((m) => multiply(world, m.m)) : [world],
        };
      }),
    );
    let interior = 0;
    let agree = 0;
    const failures: string[] = [];
    const keys = got.map(keyOf);
    for (let i = 0; i < points.length; i++) {
      if (!inside[i]) continue;
      interior++;
      const { origin, direction } = pixelRay(frame, points[i].x, points[i].y);
      const want = keyOf(babylonReference(test, among, false, origin, direction));
      if (want === keys[i]) agree++;
      else if (failures.length < 6)
        failures.push(`pixel (${points[i].x}, ${points[i].y}): ${keys[i]}, reference ${want}`);
    }
    // Every clone is seen, and a change shows on enough pixels that a picker still picking the old scene would fail.
    const seen = clones.every((mesh) => got.filter((info) => info.pickedMesh === mesh).length >= 20);
    const changed = previous ? keys.filter((k, i) => k !== previous![i]).length : interior;
    previous = keys;
    checks[`shared geometry: ${what}`] = (agree === interior && seen && changed >= 50) || {
      interior,
      agree,
      seen,
      changed,
      failures,
    };
  };

  await step('cloned boxes');
  const grown = Float32Array.from(first.getVerticesData('position')!, (v) => v * 1.5);
  first.updateVerticesData('position', grown, true);
  await step('positions: a new array in the same vertex buffer (updateVerticesData)');
  const indices = Array.from(shared!.getIndices()!);
  for (let f = 0; f < indices.length; f += 3) [indices[f + 1], indices[f + 2]] = [indices[f + 2], indices[f + 1]];
  shared!.setIndices(indices);
  await step('indices: a new array and buffer, winding reversed (setIndices)');
  const split = clones[2];
  const vertices = split.getTotalVertices();
  const half = split.getTotalIndices() / 2;
  split.subMeshes = [];
  new SubMesh(0, 0, vertices, half, half, split);
  new SubMesh(0, 0, vertices, 0, half, split);
  await step("one clone's sub-meshes: two, the second half first");
  // Edited in place: the same sub-mesh objects and count, other spans (faces 4 … 11, then 0 … 3).
  const [second, firstHalf] = split.subMeshes;
  second.indexStart = 12;
  second.indexCount = 2 * half - 12;
  firstHalf.indexCount = 12;
  await step("that clone's sub-meshes edited in place (indexStart, indexCount)");
  // Its first sub-mesh replaced in the same array (same count) by one that overlaps the second: faces drawn twice,
  // refused. Put back, it picks as before.
  const kept = split.subMeshes[0];
  split.subMeshes[0] = new SubMesh(0, 0, vertices, 0, half, split, undefined, true, false);
  checks['sub-mesh replaced in the same array: typed error'] = await multiPickBabylonAsync(picker, [
    { x: 0, y: 0 },
  ]).then(
    () => 'no error',
    (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
  );
  split.subMeshes[0] = kept;
  material.sideOrientation = 1 - (material.sideOrientation ?? first.sideOrientation);
  await step("the shared material's sideOrientation flipped");
  // A steady mesh is checked without its records: its material (as SubMesh.getMaterial finds it), the mesh's own side
  // where the material has none, a material's culling (compared once per pick), its one sub-mesh's span and its
  // thin-instance count. Each of the next changes fails if the picker stops reading what it changes.
  const ownMaterial = new StandardMaterial('own', scene);
  clones[1].material = ownMaterial;
  ownMaterial.sideOrientation = null;
  await step("one clone: a material of its own, without a side orientation (the mesh's own)");
  clones[1].sideOrientation = 1 - clones[1].sideOrientation;
  await step("that clone's own sideOrientation flipped");
  material.cullBackFaces = false;
  await step('the shared material culls front faces (cullBackFaces false)');
  material.backFaceCulling = false;
  await step("the shared material's backFaceCulling off");
  const lone = clones[3].subMeshes[0];
  lone.indexCount -= 6;
  checks['single sub-mesh edited in place: typed error'] = await multiPickBabylonAsync(picker, [{ x: 0, y: 0 }]).then(
    () => 'no error',
    (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
  );
  lone.indexCount += 6;
  clones[3].thinInstanceSetBuffer('matrix', new Float32Array(Matrix.Translation(-0.5, 0.6, 0).asArray()), 16, false);
  clones[3].thinInstanceEnablePicking = true;
  await step('one clone: a thin instance in the thin-instance storage it had');
  const own = clones[4];
  own.makeGeometryUnique();
  own.setVerticesData(
    'position',
    Float32Array.from(own.getVerticesData('position')!, (v, i) => (i % 3 === 1 ? v * 0.4 : v * 1.3)),
  );
  await step('one clone: a geometry of its own with new positions (makeGeometryUnique, setVerticesData)');
  // Babylon.js 9 makes a mesh's thin-instance storage once; a version that made it again must not leave the picker
  // reading the old one (no thin instances: the clone where it was).
  const thinned = clones[5];
  type Storage = typeof thinned._thinInstanceDataStorage;
  thinned._thinInstanceDataStorage = new (thinned._thinInstanceDataStorage.constructor as new () => Storage)();
  thinned.thinInstanceSetBuffer('matrix', new Float32Array(Matrix.Translation(0.5, 0.7, 0).asArray()), 16, false);
  thinned.thinInstanceEnablePicking = true;
  await step('one clone: a thin instance, moved, in a new thin-instance storage object');
  disposeBabylonPicker(picker);
  scene.dispose();
}
