// Picks made before Babylon.js has drawn a frame, as docs/babylon.md's examples make them: meshes moved in place after
// they were made (and a moved parent), no materials and no default material yet (a page that never imports
// StandardMaterial), the picking list on multi-point and box picks. Judged by Babylon.js's own CPU pick
// (scene.pickWithRay) once Babylon.js has drawn the frame, the drawn side of each triangle by the test's own rule.
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import type { PickingInfo } from '@babylonjs/core/Collisions/pickingInfo.js';
import { Ray } from '@babylonjs/core/Culling/ray.core.js';
import type { WebGPUEngine } from '@babylonjs/core/Engines/webgpuEngine.js';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';
import { Scene } from '@babylonjs/core/scene.js';
import {
  boxPickBabylonAsync,
  createBabylonPickerAsync,
  disposeBabylonPicker,
  multiPickBabylonAsync,
  setBabylonPickingList,
} from '../../../../hosts/babylon/index.js';
import { interiorPixels, makeFrame, pixelRay } from './reference.js';

type Vec3 = [number, number, number];
const keyOf = (mesh: AbstractMesh | null | undefined, thin: number | undefined) =>
  mesh ? `${mesh.name}${thin !== undefined && thin >= 0 ? `#${thin}` : ''}` : '-';

/** Babylon.js's default material factory before StandardMaterial's import replaces it (it throws). */
type Factory = (scene: Scene) => unknown;
const scenes = Scene as unknown as { DefaultMaterialFactory: Factory; _OriginalDefaultMaterialFactory: Factory };

function multiply(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return out;
}

/** Whether a new material (back faces culled, the mesh's side orientation) draws the side the ray hits. */
function drawnSide(mesh: Mesh, rightHanded: boolean, p0: Vector3, p1: Vector3, p2: Vector3, ray: Ray): boolean {
  const n = Vector3.Cross(p1.subtract(p0), p2.subtract(p0));
  const facing = Vector3.Dot(n, ray.direction) < 0;
  const clockwise = mesh.sideOrientation === 0;
  // In a right-handed world a counter-clockwise (on screen) triangle faces the viewer; each flag flips that.
  return (facing !== !rightHanded) !== clockwise;
}

async function oneScene(engine: WebGPUEngine, rightHanded: boolean, checks: Record<string, unknown>): Promise<void> {
  const name = `before the first frame (${rightHanded ? 'right' : 'left'}-handed)`;
  const scene = new Scene(engine);
  scene.useRightHandedSystem = rightHanded;
  engine.useReverseDepthBuffer = false;
  const z = rightHanded ? 7 : -7;
  const camera = new FreeCamera('camera', new Vector3(0.3, 0.5, z), scene);
  camera.setTarget(Vector3.Zero());
  const boxes = CreateBox('boxes', { size: 0.9 }, scene);
  const matrices = new Float32Array(3 * 16);
  for (let i = 0; i < 3; i++) Matrix.Translation((i - 1) * 2, 0, 0).copyToArray(matrices, i * 16);
  boxes.thinInstanceSetBuffer('matrix', matrices, 16);
  boxes.thinInstanceEnablePicking = true;
  // Moved in place after it was made: Babylon.js keeps its world matrix of the current render id until a frame.
  const ball = CreateSphere('ball', { diameter: 1.2, segments: 12 }, scene);
  ball.position.y = 1.5;
  ball.rotation.y = 0.7;
  const parent = new TransformNode('parent', scene);
  const child = CreateBox('child', { width: 1.4, height: 0.6, depth: 0.6 }, scene);
  child.parent = parent;
  child.position.y = -0.4;
  child.computeWorldMatrix(true);
  parent.position.y = -1.2; // only the parent moves after the child's world matrix was computed
  parent.rotation.z = 0.3;
  const meshes: Mesh[] = [boxes, ball, child];

  const width = engine.getRenderWidth();
  const height = engine.getRenderHeight();
  const points = Array.from({ length: width * height }, (_, i) => ({ x: i % width, y: Math.floor(i / width) }));
  const picker = await createBabylonPickerAsync(engine, scene);
  const all = await multiPickBabylonAsync(picker, points);
  setBabylonPickingList(picker, [ball, child]);
  const listed = await multiPickBabylonAsync(picker, points);
  const listedBox = await boxPickBabylonAsync(picker, 0, 0, width, height);
  setBabylonPickingList(picker, null);

  // Now Babylon.js draws the frame (with its default material, as a page that imports StandardMaterial would).
  scenes.DefaultMaterialFactory = defaultFactory!;
  await scene.whenReadyAsync();
  engine.beginFrame();
  scene.render();
  engine.endFrame();
  const after = await multiPickBabylonAsync(picker, points);

  const params = {
    eye: [0.3, 0.5, z] as Vec3,
    target: [0, 0, 0] as Vec3,
    up: [0, 1, 0] as Vec3,
    fovY: camera.fov,
    near: camera.minZ,
    far: camera.maxZ,
    halfX: 0,
    halfY: 0,
  };
  const frame = makeFrame(params, width, height, rightHanded, false);
  const soups = meshes.map((mesh) => {
    const world = mesh.getWorldMatrix().m;
    const thin = mesh.thinInstanceCount;
    return {
      positions: mesh.getVerticesData('position')!,
      indices: mesh.getIndices()!,
      worlds: thin
        ? Array.from({ length: thin }, (_, k) => multiply(world, matrices.subarray(k * 16, k * 16 + 16)))
        : [world],
    };
  });
  const inside = interiorPixels(frame, soups);
  const reference = (among: Set<AbstractMesh>, x: number, y: number): PickingInfo | null => {
    const { origin, direction } = pixelRay(frame, x, y);
    let current: Mesh | null = null;
    const hit = scene.pickWithRay(
      new Ray(new Vector3(...origin), new Vector3(...direction), 1e4),
      (mesh) => {
        current = mesh as Mesh;
        return among.has(mesh);
      },
      false,
      (p0, p1, p2, ray) => drawnSide(current!, rightHanded, p0, p1, p2, ray),
    );
    return hit?.hit ? hit : null;
  };
  const compare = (what: string, got: PickingInfo[], among: Set<AbstractMesh>) => {
    let interior = 0;
    let hits = 0;
    let agree = 0;
    const failures: string[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < points.length; i++) {
      if (got[i].hit) seen.add(keyOf(got[i].pickedMesh, got[i].thinInstanceIndex));
      if (!inside[i]) continue;
      interior++;
      const ref = reference(among, points[i].x, points[i].y);
      if (ref) hits++;
      const want = ref ? `${keyOf(ref.pickedMesh, ref.thinInstanceIndex)} face ${ref.faceId}` : '-';
      const have = got[i].hit ? `${keyOf(got[i].pickedMesh, got[i].thinInstanceIndex)} face ${got[i].faceId}` : '-';
      if (want === have) agree++;
      else if (failures.length < 6) failures.push(`pixel (${points[i].x}, ${points[i].y}): ${have}, reference ${want}`);
    }
    // Every listed mesh is seen on enough pixels that a misplaced one cannot pass.
    const enough = [...among].every((m) => got.filter((info) => info.pickedMesh === m).length >= 20);
    checks[`${name}: ${what}`] = (agree === interior && enough) || {
      interior,
      hits,
      agree,
      failures,
      meshes: [...seen].sort(),
    };
    return seen;
  };
  const everything = new Set<AbstractMesh>(meshes);
  compare('every pixel agrees with Babylon.js once it drew the frame', all, everything);
  const listedSeen = compare('picking list [ball, child], multi-point', listed, new Set([ball, child]));
  const boxKeys = listedBox.meshes.map((m, k) => keyOf(m, listedBox.thinInstanceIndexes[k])).sort();
  checks[`${name}: picking list [ball, child], box pick = the pixels' meshes`] =
    JSON.stringify(boxKeys) === JSON.stringify([...listedSeen].sort()) &&
    JSON.stringify(boxKeys) === JSON.stringify(['ball', 'child']);
  compare('after the frame, every pixel agrees', after, everything);
  disposeBabylonPicker(picker);
  scene.dispose();
}

let defaultFactory: Factory | null = null;

/** The checks of picks made before Babylon.js drew a frame, in both handedness. */
export async function beforeFirstFrame(engine: WebGPUEngine, checks: Record<string, unknown>): Promise<void> {
  defaultFactory = scenes.DefaultMaterialFactory;
  try {
    for (const rightHanded of [false, true]) {
      scenes.DefaultMaterialFactory = scenes._OriginalDefaultMaterialFactory;
      await oneScene(engine, rightHanded, checks);
    }
  } finally {
    scenes.DefaultMaterialFactory = defaultFactory;
  }
}
