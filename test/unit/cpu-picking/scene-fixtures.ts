// Shared fixtures of the CPU picking tests: CPU-only scenes, seeded random scenes, and their three.js twin.
import { mat4 } from 'wgpu-matrix';
import type { Engine } from '../../../engine/engine.js';
import { createMeshFromData, type Mesh } from '../../../engine/mesh.js';
import { readVertexAttribute, type MeshData } from '../../../engine/mesh-data.js';
import { makeBoxData, makeCapsuleData, makeSphereData, makeTorusData } from '../../../engine/primitives/index.js';
import { createScene, type Scene } from '../../../engine/scene.js';
import { createReferenceScene, type ReferenceMesh, type ReferenceScene } from '../../support/reference-raycast.js';

export { makeRandom as mulberry32 } from '../../support/random.js';

/** A scene on a stand-in engine: createScene only stores the engine, pickSync reads its width/height. */
export function makeCpuScene(width = 160, height = 120): Scene {
  return createScene({ width, height } as Engine);
}

/** A random rotation × non-uniform scale (sometimes mirrored) × translation. */
export function randomTransform(rand: () => number, spread: number, mirror = false): Float32Array {
  const m = mat4.translation([(rand() - 0.5) * spread, (rand() - 0.5) * spread, (rand() - 0.5) * spread]);
  mat4.rotate(m, [rand() - 0.5, rand() - 0.5, rand() - 0.5], rand() * Math.PI * 2, m);
  const s = 0.5 + rand();
  mat4.scale(m, [s * (0.6 + rand() * 0.8), s * (0.6 + rand() * 0.8) * (mirror ? -1 : 1), s * (0.6 + rand() * 0.8)], m);
  return m as Float32Array;
}

const shapes: Array<(rand: () => number) => MeshData> = [
  (r) =>
    makeSphereData({ radius: 0.5 + r() * 0.5, segments: 12 + Math.floor(r() * 20), rings: 8 + Math.floor(r() * 10) }),
  () => makeBoxData(),
  (r) =>
    makeTorusData({
      radius: 0.6,
      tube: 0.15 + r() * 0.2,
      radialSegments: 10 + Math.floor(r() * 10),
      tubularSegments: 16 + Math.floor(r() * 20),
    }),
  (r) => makeCapsuleData({ radius: 0.3, height: 1 + r() }),
];

/** Adds `count` random meshes (every fourth thin-instanced, every fifth mirrored) to the scene. */
export function addRandomMeshes(scene: Scene, rand: () => number, count: number, spread = 6): Mesh[] {
  const meshes: Mesh[] = [];
  for (let i = 0; i < count; i++) {
    const data = shapes[i % shapes.length](rand);
    if (i % 4 === 3) {
      const n = 2 + Math.floor(rand() * 4);
      const thin = new Float32Array(n * 16);
      for (let k = 0; k < n; k++) {
        thin.set(randomTransform(rand, spread * 0.6), k * 16);
        [3, 7, 11, 15].forEach((lane) => (thin[k * 16 + lane] = rand() * 100)); // payload lanes must be ignored
      }
      meshes.push(
        createMeshFromData(scene, `mesh${i}`, data, {
          worldMatrix: randomTransform(rand, spread * 0.3),
          thinInstances: thin,
        }),
      );
    } else {
      meshes.push(
        createMeshFromData(scene, `mesh${i}`, data, { worldMatrix: randomTransform(rand, spread, i % 5 === 4) }),
      );
    }
  }
  return meshes;
}

/** The weft mesh as the independent reference caster sees it (mesh id = uniqueId, double-sided). */
export function toReferenceMesh(mesh: Mesh): ReferenceMesh {
  const n = mesh.geometry.vertexCount;
  const normals = new Float32Array(n * 3);
  const has = readVertexAttribute(mesh.geometry, 'normal', 0, [0, 0, 0]);
  const out = [0, 0, 0];
  for (let v = 0; has && v < n; v++) {
    readVertexAttribute(mesh.geometry, 'normal', v, out);
    normals.set(out, v * 3);
  }
  return {
    id: mesh.uniqueId,
    positions: mesh.positions,
    indices: mesh.geometry.indices,
    normals: has ? normals : null,
    worldMatrix: mesh.worldMatrix,
    thinInstances: mesh.thinInstances,
  };
}

/** A reference scene of the pickable meshes. */
export function toReferenceScene(scene: Scene): ReferenceScene {
  return createReferenceScene(scene.meshes.filter((m) => m.pickable).map(toReferenceMesh));
}
