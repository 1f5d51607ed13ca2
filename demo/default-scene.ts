import { mat4 } from 'wgpu-matrix';
import {
  createBoxMesh,
  createBunnyMeshAsync,
  createCapsuleMesh,
  createPlaneMesh,
  createScene,
  createSphereMesh,
  createTorusMesh,
  type Engine,
  makePerspectiveCamera,
  makeStandardMaterial,
  type Scene,
  setCameraOrbit,
} from '../engine/index.js';
import { loadGltfAsync } from '../engine/loaders/index.js';
import { makeDemoGltfDocument, writeGlb } from '../engine/loaders/gltf-build.js';

/** Counts describing the default scene. */
export interface DefaultSceneStats {
  meshes: number;
  thinInstances: number;
  triangles: number;
  glbBytes: number;
}

const material = (baseColor: number[]) => makeStandardMaterial({ baseColor });

/** Builds the demo's default scene: bunny, primitives, a thin-instanced ring and a glTF table. */
export async function buildDefaultScene(engine: Engine): Promise<{ scene: Scene; stats: DefaultSceneStats }> {
  const scene = createScene(engine, { clearColor: [0.07, 0.08, 0.1, 1] });
  scene.camera = makePerspectiveCamera({ fovY: 0.75, near: 0.1, far: 20 });
  setCameraOrbit(scene.camera, { target: [0, 0.4, 0], radius: 9.2, yaw: 0.5, pitch: 0.5 });

  createPlaneMesh(scene, 'ground', { width: 9, depth: 9, subdivisions: 4 }, { material: material([0.42, 0.45, 0.5]) });
  await createBunnyMeshAsync(
    scene,
    'bunny',
    {},
    {
      worldMatrix: mat4.multiply(mat4.translation([0, 0.75, 0]), mat4.uniformScaling(1.6)),
      material: material([0.86, 0.82, 0.74]),
    },
  );
  createBoxMesh(
    scene,
    'box',
    { width: 0.9, height: 0.9, depth: 0.9 },
    {
      worldMatrix: mat4.multiply(mat4.translation([-2.1, 0.45, 1.2]), mat4.rotationY(0.4)),
      material: material([0.85, 0.3, 0.25]),
    },
  );
  createSphereMesh(
    scene,
    'sphere',
    { radius: 0.5 },
    { worldMatrix: mat4.translation([2.0, 0.5, 1.3]), material: material([0.25, 0.55, 0.9]) },
  );
  createTorusMesh(
    scene,
    'torus',
    { radius: 0.45, tube: 0.16 },
    {
      worldMatrix: mat4.multiply(mat4.translation([2.2, 0.62, -1.2]), mat4.rotationX(1.2)),
      material: material([0.95, 0.7, 0.2]),
    },
  );
  createCapsuleMesh(
    scene,
    'capsule',
    { radius: 0.28, height: 1.3 },
    { worldMatrix: mat4.translation([-2.0, 0.65, -1.3]), material: material([0.4, 0.8, 0.45]) },
  );

  const ringCount = 24;
  const ring = new Float32Array(ringCount * 16);
  for (let i = 0; i < ringCount; i++) {
    const angle = (i / ringCount) * Math.PI * 2;
    const m = mat4.translation([Math.cos(angle) * 3.6, 0.15, Math.sin(angle) * 3.6]);
    mat4.rotateY(m, -angle, m);
    ring.set(m, i * 16);
    ring[i * 16 + 3] = i; // payload lane: the instance's own number, ignored by the transform
  }
  createBoxMesh(
    scene,
    'ring',
    { width: 0.3, height: 0.3, depth: 0.3 },
    { thinInstances: ring, material: material([0.7, 0.45, 0.85]) },
  );

  const glb = await writeGlb(makeDemoGltfDocument());
  await loadGltfAsync(scene, glb, { worldMatrix: mat4.translation([-0.4, 0, -2.3]) });

  const stats: DefaultSceneStats = {
    meshes: scene.meshes.length,
    thinInstances: scene.meshes.reduce((sum, m) => sum + m.thinInstanceCount, 0),
    triangles: scene.meshes.reduce((sum, m) => sum + m.geometry.triangleCount * Math.max(1, m.thinInstanceCount), 0),
    glbBytes: glb.byteLength,
  };
  return { scene, stats };
}
