// Deep scenes for drill-through: seeded stacks of overlapping boxes and spheres along the view axis (thin instances,
// one plain mesh, one morphed mesh), so a pixel near the centre has 8 and more surfaces under it. The reference twin
// and the edge map are built here from the same data in float64 (the morph is applied on the CPU from its deltas).
import { mat4 } from 'wgpu-matrix';
import {
  createMeshFromData,
  createScene,
  type Engine,
  makeBoxData,
  makePerspectiveCamera,
  makeSphereData,
  makeStandardMaterial,
  type Mesh,
  type MeshData,
} from '../../engine/index.js';
import type { AcceptanceScene } from './acceptance-scenes.js';
import { makeFloat64Camera } from './camera-rays.js';
import { type EdgeSource, makeEdgeMap } from './projected-edges.js';
import { makeRandom } from './random.js';
import { createReferenceScene, type ReferenceMesh } from './reference-raycast.js';

/** Thin-instance matrices at the given depths: jittered in x, y, spun about every axis, scaled 1.1 .. 1.7. */
function stackInstances(random: () => number, depths: readonly number[]): Float32Array {
  const instances = new Float32Array(depths.length * 16);
  depths.forEach((z, k) => {
    const s = 1.1 + random() * 0.6;
    const m = mat4.multiply(
      mat4.multiply(
        mat4.translation([(random() - 0.5) * 0.6, (random() - 0.5) * 0.6, z]),
        mat4.rotationZ(random() * 6),
      ),
      mat4.multiply(
        mat4.multiply(mat4.rotationX((random() - 0.5) * 0.8), mat4.rotationY((random() - 0.5) * 0.8)),
        mat4.scaling([s, s, s * 0.6]),
      ),
    );
    instances.set(m, k * 16);
    instances[k * 16 + 3] = random() * 10; // payload lane: must not move the instance
  });
  return instances;
}

/** One instance's world matrix as the pick draws it (payload lanes zeroed), composed in float64. */
function instanceWorld(world: ArrayLike<number>, instances: Float32Array, k: number): number[] {
  const m = Array.from(instances.subarray(k * 16, k * 16 + 16));
  m[3] = m[7] = m[11] = 0;
  m[15] = 1;
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) for (let i = 0; i < 4; i++) out[c * 4 + r] += world[i * 4 + r] * m[c * 4 + i];
  return out;
}

/**
 * A seeded stack: 5 thin-instanced boxes and 4 thin-instanced spheres alternating along z in -4 .. 4, a morphed
 * sphere in front (z 5.2) and a plain box behind (z -5.5), seen from z ≈ 11. One-sided materials unless
 * `doubleSided`; `morph: 'rest'` keeps the morph at weight 0 (for the CPU picker, which sees undeformed geometry), `'absent'` leaves it out (a compatibility device cannot draw it). The result has the acceptance scene's shape (its `pixels` are left empty: judge with `edges`).
 */
export function buildStackScene(
  engine: Engine,
  seed: number,
  doubleSided: boolean,
  options: { morph?: 'posed' | 'rest' | 'absent' } = {},
): AcceptanceScene {
  const random = makeRandom(seed);
  const scene = createScene(engine);
  const box = makeBoxData();
  const sphere = makeSphereData({ radius: 0.5, segments: 24, rings: 12 });
  const material = makeStandardMaterial({ doubleSided });
  const references: ReferenceMesh[] = [];
  const edges: EdgeSource[] = [];
  const meshes: Mesh[] = [];
  const add = (
    name: string,
    data: MeshData,
    world: Float32Array,
    instances: Float32Array | null,
    drawnPositions: Float32Array,
    extra: { morphTargets?: { positions: Float32Array[] }; morphWeights?: number[] } = {},
  ) => {
    const mesh = createMeshFromData(scene, name, data, {
      worldMatrix: world,
      ...(instances ? { thinInstances: new Float32Array(instances) } : {}),
      material,
      ...extra,
    });
    meshes.push(mesh);
    references.push({
      id: mesh.uniqueId,
      positions: drawnPositions,
      indices: data.indices ?? null,
      normals: data.normals ?? null,
      uvs: data.uvs ?? null,
      worldMatrix: new Float32Array(world),
      thinInstances: instances,
      doubleSided,
      frontFace: 'determinant',
    });
    const count = instances ? instances.length / 16 : 0;
    edges.push({
      positions: drawnPositions,
      indices: data.indices ?? null,
      worldMatrices: instances
        ? Array.from({ length: count }, (_, k) => instanceWorld(world, instances, k))
        : [Array.from(world)],
    });
    return mesh;
  };
  const identity = mat4.identity() as Float32Array;
  add('boxes', box, identity, stackInstances(random, [-4, -2, 0, 2, 4]), box.positions!);
  const sphereScale = mat4.scaling([1.6, 1.6, 1.6]) as Float32Array;
  add(
    'spheres',
    sphere,
    sphereScale,
    stackInstances(
      random,
      [-3, -1, 1, 3].map((z) => z / 1.6),
    ),
    sphere.positions!,
  );
  const inflate = sphere.positions!.map((c) => c * 0.6);
  // The CPU picker sees undeformed geometry (docs/picking.md): its scenes keep the morph at weight 0.
  const drawnWeight = 0.25 + random() * 0.5;
  const weight = options.morph === 'rest' ? 0 : drawnWeight;
  // The morph as the vertex stage applies it (float32 position + weight × delta), the reference's own positions.
  const morphed = sphere.positions!.map((c, i) => Math.fround(c + Math.fround(weight) * inflate[i]));
  if (options.morph !== 'absent')
    add('morphed', sphere, mat4.translation([0.1, -0.1, 5.2]) as Float32Array, null, morphed, {
      morphTargets: { positions: [inflate] },
      morphWeights: [weight],
    });
  add(
    'back',
    box,
    mat4.multiply(mat4.translation([0, 0, -5.5]), mat4.scaling([2.5, 2.5, 0.5])) as Float32Array,
    null,
    box.positions!,
  );
  scene.camera = makePerspectiveCamera({
    position: [0.3 + random() * 0.2, 0.4 - random() * 0.2, 11],
    target: [0, 0, 0],
    fovY: 0.22,
    near: 0.1,
  });
  const camera = makeFloat64Camera(scene.camera, engine.width, engine.height);
  return {
    scene,
    meshes,
    reference: createReferenceScene(references),
    camera,
    edges: makeEdgeMap(camera, edges),
    pixels: [],
  };
}
