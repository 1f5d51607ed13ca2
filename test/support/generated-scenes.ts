import { mat4 } from 'wgpu-matrix';
import {
  createMeshFromData,
  createScene,
  type Engine,
  makeBoxData,
  makeBunnyDataAsync,
  makePerspectiveCamera,
  makeSphereData,
  makeTorusData,
  type MeshData,
  type Scene,
  setCameraOrbit,
} from '../../engine/index.js';
import { createReferenceScene, type ReferenceMesh, type ReferenceScene } from './reference-raycast.js';
import { makeRandom } from './random.js';

export { makeRandom };

/** A generated scene and its independent reference (three-mesh-bvh). */
export interface Generated {
  scene: Scene;
  reference: ReferenceScene;
  ids: Map<number, string>;
}

/** Nine meshes (spheres, boxes, tori, bunnies; thin instances, non-uniform scales) and a random camera. */
export async function generateScene(engine: Engine, seed: number): Promise<Generated> {
  const random = makeRandom(seed);
  const scene = createScene(engine);
  const bunny = await makeBunnyDataAsync();
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
    const world = mat4.multiply(
      mat4.multiply(
        mat4.translation([(random() - 0.5) * 5, (random() - 0.5) * 3, (random() - 0.5) * 5]),
        mat4.rotationY(random() * 6),
      ),
      mat4.multiply(mat4.rotationX(random() * 6), mat4.scaling(scale)),
    );
    let instances: Float32Array | undefined;
    if (i % 3 === 2) {
      instances = new Float32Array(3 * 16);
      for (let k = 0; k < 3; k++) {
        instances.set(
          mat4.multiply(
            mat4.translation([(random() - 0.5) * 3, (random() - 0.5) * 2, (random() - 0.5) * 3]),
            mat4.rotationZ(random() * 6),
          ),
          k * 16,
        );
        instances[k * 16 + 3] = random() * 100; // payload
      }
    }
    const mesh = createMeshFromData(scene, `${kind}${i}`, data, { worldMatrix: world, thinInstances: instances });
    ids.set(mesh.uniqueId, mesh.name);
    references.push({
      id: mesh.uniqueId,
      positions: data.positions!,
      indices: data.indices ?? null,
      normals: data.normals ?? null,
      uvs: data.uvs ?? null,
      worldMatrix: new Float32Array(world),
      thinInstances: instances ?? null,
      doubleSided: true,
    });
  }
  scene.camera = makePerspectiveCamera({ fovY: 0.6 + random() * 0.6, near: 0.1 });
  setCameraOrbit(scene.camera, {
    target: [0, 0, 0],
    radius: 4.5 + random() * 2,
    yaw: random() * 6.28,
    pitch: (random() - 0.5) * 1.2,
  });
  return { scene, reference: createReferenceScene(references), ids };
}
