// The editor's scene: primitives, a generated dodecahedron and dense knot, a glTF table and thin-instanced crates.
import { mat4 } from 'wgpu-matrix';
import {
  createBoxMesh,
  createMeshFromData,
  createScene,
  createSphereMesh,
  createTorusMesh,
  type Engine,
  makePerspectiveCamera,
  makeStandardMaterial,
  type Mesh,
  type OrbitState,
  type Scene,
  setCameraOrbit,
} from '../../../engine/index.js';
import { loadGltfAsync } from '../../../engine/loaders/index.js';
import { makeDemoGltfDocument, writeGlb } from '../../../engine/loaders/gltf-build.js';
import { makeDodecahedronData } from './dodecahedron.js';
import { makeTorusKnotData } from './torus-knot.js';

/** Where the camera starts and where Space puts it back. */
export const homeOrbit: OrbitState = { target: [0, 0.45, 0.2], radius: 8.6, yaw: 0.3, pitch: 0.45 };

/** Number of thin instances of the crate mesh. */
export const crateCount = 7;

/** The built scene and its meshes by role. */
export interface EditorScene {
  scene: Scene;
  /** Every selectable mesh (the crate mesh once; its instances are selected one by one). */
  meshes: Mesh[];
  crates: Mesh;
}

const material = (baseColor: number[]) => makeStandardMaterial({ baseColor });

function crateMatrices(): Float32Array {
  const data = new Float32Array(crateCount * 16);
  for (let i = 0; i < crateCount; i++) {
    const m = mat4.translation([(i - (crateCount - 1) / 2) * 1.0, 0.2, 2.3]);
    mat4.rotateY(m, i * 0.35, m);
    data.set(m, i * 16);
    data[i * 16 + 3] = i; // payload lane: the crate's number (the transform ignores the w lanes)
  }
  return data;
}

/** Builds the editor scene on an engine (CPU data; GPU buffers appear on the first frame). */
export async function buildEditorScene(engine: Engine): Promise<EditorScene> {
  const scene = createScene(engine, {
    clearColor: [0.11, 0.12, 0.14, 1],
    ambientColor: [0.3, 0.3, 0.32],
    lightDirection: [0.45, 0.8, 0.35],
  });
  scene.camera = makePerspectiveCamera({ fovY: 0.75, near: 0.1 });
  setCameraOrbit(scene.camera, homeOrbit);

  const meshes: Mesh[] = [];
  meshes.push(
    createBoxMesh(
      scene,
      'cube',
      { width: 1, height: 1, depth: 1 },
      { worldMatrix: mat4.translation([-3, 0.5, 0]), material: material([0.85, 0.32, 0.26]) },
    ),
  );
  meshes.push(
    createMeshFromData(scene, 'dodecahedron', makeDodecahedronData(0.62), {
      worldMatrix: mat4.translation([-1.5, 0.55, 0]),
      material: material([0.35, 0.75, 0.45]),
    }),
  );
  meshes.push(
    createSphereMesh(
      scene,
      'sphere',
      { radius: 0.5, segments: 24, rings: 12 },
      { worldMatrix: mat4.translation([0, 0.5, 0]), material: material([0.25, 0.55, 0.9]) },
    ),
  );
  const torusWorld = mat4.multiply(mat4.translation([1.5, 0.6, 0]), mat4.rotationX(Math.PI / 2));
  meshes.push(
    createTorusMesh(
      scene,
      'torus',
      { radius: 0.42, tube: 0.16 },
      { worldMatrix: torusWorld, material: material([0.95, 0.72, 0.2]) },
    ),
  );
  meshes.push(
    createMeshFromData(scene, 'knot', makeTorusKnotData(), {
      worldMatrix: mat4.translation([3, 0.6, 0]),
      material: material([0.75, 0.55, 0.85]),
    }),
  );

  const glb = await writeGlb(makeDemoGltfDocument());
  const table = await loadGltfAsync(scene, glb, { worldMatrix: mat4.translation([-0.6, 0, -2.3]) });
  meshes.push(...table.meshes);

  const crates = createBoxMesh(
    scene,
    'crates',
    { width: 0.4, height: 0.4, depth: 0.4 },
    { thinInstances: crateMatrices(), material: material([0.72, 0.55, 0.36]) },
  );
  meshes.push(crates);
  return { scene, meshes, crates };
}
