// The acceptance suite's scene variants and the per-pixel reference: seeded random scenes (spheres, boxes, tori,
// bunny, planes, thin instances, non-uniform scales), their three.js + three-mesh-bvh twin, and which pixel centres
// are far enough (≥ 0.05 px) from every projected edge to be judged. No Node API: a browser page can bundle it.
import { mat4 } from 'wgpu-matrix';
import {
  createMeshFromData,
  createScene,
  type Engine,
  makeBoxData,
  makeBunnyDataAsync,
  makePerspectiveCamera,
  makePlaneData,
  makeSphereData,
  makeStandardMaterial,
  makeSkeleton,
  makeTorusData,
  type Mesh,
  type MeshData,
  type Scene,
  setBoneMatrix,
  setCameraOrbit,
  type Skeleton,
} from '../../engine/index.js';
import { type CameraBasis, makeFloat64Camera, pixelRay, toView } from './camera-rays.js';
import { type EdgeMap, type EdgeSource, isInterior, makeEdgeMap } from './projected-edges.js';
import { makeRandom } from './random.js';
import {
  castReferenceRay,
  castReferenceRayAll,
  createReferenceScene,
  type ReferenceHit,
  type ReferenceMesh,
  type ReferenceScene,
} from './reference-raycast.js';

/** One mesh of a variant: its data, world matrix, thin instances and sidedness. */
export interface AcceptanceMeshSpec {
  name: string;
  data: MeshData;
  world: Float32Array;
  instances: Float32Array | null;
  doubleSided: boolean;
  /** A skinned mesh: its skeleton, and its positions and normals as posed (computed in the test, the reference's). */
  skin?: { skeleton: Skeleton; posedPositions: Float32Array; posedNormals: Float32Array | null };
}

/** The shapes a variant draws from (bunny is loaded once). */
export interface AcceptanceShapes {
  sphere: MeshData;
  box: MeshData;
  flatBox: MeshData;
  torus: MeshData;
  bunny: MeshData;
  plane: MeshData;
  invertedBox: MeshData;
}

/** A scene variant: a name the table shows and the meshes it places for a seeded random stream. */
export interface SceneVariant {
  name: string;
  description: string;
  meshes(random: () => number, shapes: AcceptanceShapes): AcceptanceMeshSpec[];
}

/** Everything a path needs to run on one generated scene, and the reference it is judged by. */
export interface AcceptanceScene {
  scene: Scene;
  meshes: Mesh[];
  reference: ReferenceScene;
  camera: CameraBasis;
  edges: EdgeMap;
  /** Per pixel (row-major): the reference hit, and whether the pixel is judged (see `judgePixel`). */
  pixels: JudgedPixel[];
}

/** Why a pixel is or is not judged. */
export type PixelVerdict = 'judged' | 'near-edge' | 'depth-tie';

/** The reference at one pixel centre. */
export interface JudgedPixel {
  x: number;
  y: number;
  truth: ReferenceHit | null;
  verdict: PixelVerdict;
}

async function loadShapes(): Promise<AcceptanceShapes> {
  const box = makeBoxData();
  const inverted = box.indices!.slice();
  for (let i = 0; i < inverted.length; i += 3) [inverted[i + 1], inverted[i + 2]] = [inverted[i + 2], inverted[i + 1]];
  return {
    sphere: makeSphereData({ radius: 0.5, segments: 24, rings: 12 }),
    box,
    flatBox: { positions: box.positions, indices: box.indices }, // no normals: face normals only
    torus: makeTorusData({ radius: 0.45, tube: 0.15 }),
    bunny: await makeBunnyDataAsync(),
    plane: makePlaneData({ width: 1.4, depth: 1.4, subdivisions: 3 }),
    invertedBox: { positions: box.positions, normals: box.normals, uvs: box.uvs, indices: inverted },
  };
}

/** A random placement: translation, yaw, pitch and a non-uniform scale (negative on the axes in `mirror`). */
export function randomWorld(random: () => number, mirror: readonly number[] = [1, 1, 1]): Float32Array {
  const s = [0.6 + random(), 0.6 + random(), 0.6 + random()].map((v, i) => v * mirror[i]);
  return mat4.multiply(
    mat4.multiply(
      mat4.translation([(random() - 0.5) * 5, (random() - 0.5) * 3, (random() - 0.5) * 5]),
      mat4.rotationY(random() * 6),
    ),
    mat4.multiply(mat4.rotationX(random() * 6), mat4.scaling(s)),
  ) as Float32Array;
}

/** Three thin instances (random offsets and spins; payload in lane 3 that must not move them). */
export function randomInstances(random: () => number, mirror: readonly number[] = [1, 1, 1]): Float32Array {
  const instances = new Float32Array(3 * 16);
  for (let k = 0; k < 3; k++) {
    const m = mat4.multiply(
      mat4.translation([(random() - 0.5) * 3, (random() - 0.5) * 2, (random() - 0.5) * 3]),
      mat4.rotationZ(random() * 6),
    );
    if (k === 1) mat4.scale(m, mirror, m);
    instances.set(m, k * 16);
    instances[k * 16 + 3] = random() * 100;
  }
  return instances;
}

/** Nine closed meshes cycling sphere, box, torus, bunny, normal-less box; every third thin-instanced. */
export function closedMeshes(
  random: () => number,
  shapes: AcceptanceShapes,
  doubleSided: boolean,
  mirror: (i: number) => readonly number[] = () => [1, 1, 1],
): AcceptanceMeshSpec[] {
  const kinds = ['sphere', 'box', 'torus', 'bunny', 'flatBox'] as const;
  return Array.from({ length: 9 }, (_, i) => {
    const kind = kinds[i % kinds.length];
    const world = randomWorld(random, mirror(i));
    const instances = i % 3 === 2 ? randomInstances(random, mirror(i + 1)) : null;
    return { name: `${kind}${i}`, data: shapes[kind], world, instances, doubleSided };
  });
}

/** Two planes (open surfaces: one side faces the camera, the other away) placed randomly. */
export function openMeshes(random: () => number, shapes: AcceptanceShapes, doubleSided: boolean): AcceptanceMeshSpec[] {
  return [0, 1].map((i) => ({
    name: `plane${i}`,
    data: shapes.plane,
    world: randomWorld(random),
    instances: null,
    doubleSided,
  }));
}

/** The scene variants of issue 15's acceptance, shared by the Dawn suite and the Chromium page. */
export const ACCEPTANCE_VARIANTS: readonly SceneVariant[] = [
  {
    name: 'default materials',
    description: 'closed meshes (sphere, box, torus, bunny, normal-less box), thin instances, non-uniform scales',
    meshes: (random, shapes) => closedMeshes(random, shapes, false),
  },
  {
    name: 'double-sided materials',
    description: 'the closed meshes and two open planes, all double-sided (planes seen from both sides)',
    meshes: (random, shapes) => [...closedMeshes(random, shapes, true), ...openMeshes(random, shapes, true)],
  },
  {
    name: 'single-sided materials',
    description: 'one-sided open planes (invisible from behind) and an inside-out box among the closed meshes',
    meshes: (random, shapes) => {
      const meshes = [...closedMeshes(random, shapes, false), ...openMeshes(random, shapes, false)];
      meshes[1] = { ...meshes[1], name: 'invertedBox1', data: shapes.invertedBox };
      return meshes;
    },
  },
  {
    name: 'mirrored scales / mirrored thin instances',
    description: 'one-sided closed meshes whose world or thin-instance matrix has a negative determinant',
    meshes: (random, shapes) => closedMeshes(random, shapes, false, (i) => (i % 2 === 0 ? [-1, 1, 1] : [1, 1, -1])),
  },
];

/**
 * Skins a shape rigidly over two random bones (vertices above y = 0 follow bone 1, the rest bone 0, weight 1; with
 * `eightInfluences` the weight is split in halves over joints and joints2), posed in float64 here, independently of
 * weft's skinning.
 */
export function rigidTwoBoneSkin(
  random: () => number,
  data: MeshData,
  eightInfluences: boolean,
): { data: MeshData; skin: NonNullable<AcceptanceMeshSpec['skin']> } {
  const skeleton = makeSkeleton(2);
  for (let b = 0; b < 2; b++)
    setBoneMatrix(
      skeleton,
      b,
      mat4.multiply(
        mat4.translation([(random() - 0.5) * 0.4, (random() - 0.5) * 0.4, (random() - 0.5) * 0.4]),
        mat4.multiply(mat4.rotationZ((random() - 0.5) * 0.8), mat4.rotationX((random() - 0.5) * 0.8)),
      ),
    );
  const positions = data.positions!;
  const count = positions.length / 3;
  const joints = new Uint16Array(count * 4);
  const weights = new Float32Array(count * 4);
  const posedPositions = new Float32Array(positions.length);
  const posedNormals = data.normals ? new Float32Array(positions.length) : null;
  for (let v = 0; v < count; v++) {
    const bone = positions[v * 3 + 1] > 0 ? 1 : 0;
    joints[v * 4] = bone;
    weights[v * 4] = eightInfluences ? 0.5 : 1;
    const m = Array.from(skeleton.matrices.subarray(bone * 16, bone * 16 + 16));
    for (let r = 0; r < 3; r++) {
      const [x, y, z] = [positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2]];
      posedPositions[v * 3 + r] = m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r];
      if (posedNormals && data.normals) {
        const [nx, ny, nz] = [data.normals[v * 3], data.normals[v * 3 + 1], data.normals[v * 3 + 2]];
        posedNormals[v * 3 + r] = m[r] * nx + m[4 + r] * ny + m[8 + r] * nz;
      }
    }
  }
  const influences = eightInfluences ? { joints2: joints, weights2: weights } : {};
  return { data: { ...data, joints, weights, ...influences }, skin: { skeleton, posedPositions, posedNormals } };
}

/**
 * The closed meshes skinned over two bones each (4 influences on even meshes, 8 on odd), some thin-instanced; the
 * bunnies are spheres here, as a skinned bunny costs a software rasteriser seconds per pick without testing more.
 */
export function skinnedMeshes(random: () => number, shapes: AcceptanceShapes): AcceptanceMeshSpec[] {
  return closedMeshes(random, { ...shapes, bunny: shapes.sphere }, false).map((spec, i) => {
    const { data, skin } = rigidTwoBoneSkin(random, spec.data, i % 2 === 1);
    return { ...spec, name: `skinned-${spec.name}`, data, skin };
  });
}

/** Skinned meshes (bones in a texture, so compatibility-mode devices draw them too); not one of the core variants. */
export const SKINNED_ACCEPTANCE_VARIANT: SceneVariant = {
  name: 'skinned meshes',
  description:
    'the closed meshes (bunny → sphere) skinned rigidly over two posed bones, 4 or 8 influences, some thin-instanced',
  meshes: skinnedMeshes,
};

function referenceMesh(mesh: Mesh, spec: AcceptanceMeshSpec): ReferenceMesh {
  return {
    id: mesh.uniqueId,
    positions: spec.skin?.posedPositions ?? spec.data.positions!,
    indices: spec.data.indices ?? null,
    normals: spec.skin ? spec.skin.posedNormals : (spec.data.normals ?? null),
    uvs: spec.data.uvs ?? null,
    worldMatrix: new Float32Array(spec.world),
    thinInstances: spec.instances ? new Float32Array(spec.instances) : null,
    doubleSided: spec.doubleSided,
    frontFace: 'determinant', // the agreed rule (issue 15 item 2), not the raw rasteriser's
  };
}

function multiply64(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return out;
}

function edgeSource(spec: AcceptanceMeshSpec): EdgeSource {
  const worlds: number[][] = [];
  if (!spec.instances) worlds.push(Array.from(spec.world));
  for (let k = 0; spec.instances && k < spec.instances.length / 16; k++) {
    const m = Array.from(spec.instances.subarray(k * 16, k * 16 + 16));
    m[3] = m[7] = m[11] = 0;
    m[15] = 1;
    worlds.push(multiply64(spec.world, m));
  }
  return {
    positions: spec.skin?.posedPositions ?? spec.data.positions!,
    indices: spec.data.indices ?? null,
    worldMatrices: worlds,
  };
}

/**
 * Judges one pixel centre: near-edge when a projected edge at or in front of the hit passes within 0.05 px (or any
 * edge, on a miss: a silhouette); depth-tie when another identity lies within 1e-4 × distance behind the hit (two
 * surfaces crossing: depth precision decides, not the picker).
 */
export function judgePixel(
  reference: ReferenceScene,
  camera: CameraBasis,
  edges: EdgeMap,
  x: number,
  y: number,
): JudgedPixel {
  const ray = pixelRay(camera, x, y);
  const truth = castReferenceRay(reference, ray.origin, ray.direction);
  const depth = truth ? toView(camera, truth.point)[2] : Infinity;
  if (!isInterior(edges, x, y, depth)) return { x, y, truth, verdict: 'near-edge' };
  if (truth) {
    const next = castReferenceRayAll(reference, ray.origin, ray.direction).find(
      (h) => h.meshId !== truth.meshId || h.thinInstanceIndex !== truth.thinInstanceIndex || h.faceId !== truth.faceId,
    );
    if (next && next.distance - truth.distance < 1e-4 * truth.distance) return { x, y, truth, verdict: 'depth-tie' };
  }
  return { x, y, truth, verdict: 'judged' };
}

/** Builds a variant's scene for a seed: weft meshes, the reference twin, a random camera, and every pixel judged. */
export async function buildAcceptanceScene(
  engine: Engine,
  variant: SceneVariant,
  seed: number,
): Promise<AcceptanceScene> {
  const random = makeRandom(seed);
  const shapes = await loadShapes();
  const scene = createScene(engine);
  const specs = variant.meshes(random, shapes);
  const meshes = specs.map((spec) =>
    createMeshFromData(scene, spec.name, spec.data, {
      worldMatrix: spec.world,
      thinInstances: spec.instances ? new Float32Array(spec.instances) : undefined,
      ...(spec.skin ? { skeleton: spec.skin.skeleton } : {}),
      material: makeStandardMaterial({ doubleSided: spec.doubleSided }),
    }),
  );
  const reference = createReferenceScene(meshes.map((mesh, i) => referenceMesh(mesh, specs[i])));
  scene.camera = makePerspectiveCamera({ fovY: 0.6 + random() * 0.6, near: 0.1 });
  setCameraOrbit(scene.camera, {
    target: [0, 0, 0],
    radius: 4.5 + random() * 2,
    yaw: random() * 6.28,
    pitch: (random() - 0.5) * 1.2,
  });
  const camera = makeFloat64Camera(scene.camera, engine.width, engine.height);
  const edges = makeEdgeMap(camera, specs.map(edgeSource));
  const pixels: JudgedPixel[] = [];
  for (let y = 0; y < engine.height; y++)
    for (let x = 0; x < engine.width; x++) pixels.push(judgePixel(reference, camera, edges, x, y));
  return { scene, meshes, reference, camera, edges, pixels };
}
