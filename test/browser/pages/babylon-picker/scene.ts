// The seeded random Babylon.js scene of the accuracy test: meshes with both side orientations, culled or not, mirrored
// and non-uniformly scaled; instances; thin instances; a posed skinned column; a morphed sphere; and meshes Babylon.js
// does not draw (hidden, disabled, on another layer, not pickable) that must never be picked.
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Camera } from '@babylonjs/core/Cameras/camera.js';
import type { WebGPUEngine } from '@babylonjs/core/Engines/webgpuEngine.js';
import { Bone } from '@babylonjs/core/Bones/bone.js';
import { Skeleton } from '@babylonjs/core/Bones/skeleton.js';
import { Material } from '@babylonjs/core/Materials/material.js';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder.js';
import { CreateTorus } from '@babylonjs/core/Meshes/Builders/torusBuilder.js';
import { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData.js';
import { MorphTarget } from '@babylonjs/core/Morph/morphTarget.js';
import { MorphTargetManager } from '@babylonjs/core/Morph/morphTargetManager.js';
import { Scene } from '@babylonjs/core/scene.js';
import '@babylonjs/core/Meshes/instancedMesh.js';
import '@babylonjs/core/Meshes/thinInstanceMesh.js';
import '@babylonjs/core/Culling/ray.js';
import { makeRandom } from '../../../support/random.js';

export interface SceneVariant {
  name: string;
  rightHanded: boolean;
  orthographic: boolean;
  reverseDepth: boolean;
  seed: number;
}

/** Camera parameters, float64, as the test builds its rays from them. */
export interface CameraParams {
  eye: [number, number, number];
  target: [number, number, number];
  up: [number, number, number];
  fovY: number;
  near: number;
  far: number;
  /** Orthographic half extents (left = −halfX … right = halfX). */
  halfX: number;
  halfY: number;
}

export interface TestScene {
  scene: Scene;
  camera: CameraParams;
  /** Meshes Babylon.js's CPU pick is the reference for (rigid). */
  rigid: Mesh[];
  /** The skinned column and the morphed sphere (three-mesh-bvh is their reference). */
  skinned: Mesh;
  morphed: Mesh;
  /** Meshes that are not drawn (or not pickable) and must never be picked. */
  hidden: AbstractMesh[];
}

function column(scene: Scene): Mesh {
  const positions: number[] = [];
  const joints: number[] = [];
  const weights: number[] = [];
  const corners: Array<[number, number]> = [
    [-0.3, 0.3],
    [0.3, 0.3],
    [0.3, -0.3],
    [-0.3, -0.3],
  ];
  for (const [ring, y] of [-1, 0, 1].entries())
    for (const [x, z] of corners) {
      positions.push(x, y, z);
      joints.push(0, 1, 0, 0);
      const top = ring === 2 ? 1 : ring === 1 ? 0.5 : 0;
      weights.push(1 - top, top, 0, 0);
    }
  const indices: number[] = [];
  for (let ring = 0; ring < 2; ring++)
    for (let side = 0; side < 4; side++) {
      const a = ring * 4 + side;
      const b = ring * 4 + ((side + 1) % 4);
      indices.push(a, b, b + 4, a, b + 4, a + 4);
    }
  indices.push(0, 3, 2, 0, 2, 1, 8, 9, 10, 8, 10, 11);
  const mesh = new Mesh('skinned', scene);
  const data = new VertexData();
  data.positions = positions;
  data.indices = indices;
  data.matricesIndices = joints;
  data.matricesWeights = weights;
  const normals: number[] = [];
  VertexData.ComputeNormals(positions, indices, normals);
  data.normals = normals;
  data.applyToMesh(mesh);
  const skeleton = new Skeleton('skeleton', 'skeleton', scene);
  const root = new Bone('root', skeleton, null, Matrix.Identity());
  const tip = new Bone('tip', skeleton, root, Matrix.Identity());
  tip.setRotation(new Vector3(0, 0.3, 0.5));
  tip.setPosition(new Vector3(0.1, 0.05, 0));
  mesh.skeleton = skeleton;
  mesh.numBoneInfluencers = 4;
  return mesh;
}

export function buildScene(engine: WebGPUEngine, variant: SceneVariant): TestScene {
  const random = makeRandom(variant.seed);
  const range = (a: number, b: number) => a + (b - a) * random();
  const scene = new Scene(engine);
  scene.useRightHandedSystem = variant.rightHanded;
  engine.useReverseDepthBuffer = variant.reverseDepth;
  const camera: CameraParams = {
    eye: [0.4, 1.1, variant.rightHanded ? 7 : -7],
    target: [0, 0, 0],
    up: [0, 1, 0],
    fovY: 0.8,
    near: 0.5,
    far: 40,
    halfX: 3.2,
    halfY: 2.4,
  };
  const eye = new FreeCamera('camera', new Vector3(...camera.eye), scene);
  eye.setTarget(new Vector3(...camera.target));
  eye.fov = camera.fovY;
  eye.minZ = camera.near;
  eye.maxZ = camera.far;
  if (variant.orthographic) {
    eye.mode = Camera.ORTHOGRAPHIC_CAMERA;
    eye.orthoLeft = -camera.halfX;
    eye.orthoRight = camera.halfX;
    eye.orthoTop = camera.halfY;
    eye.orthoBottom = -camera.halfY;
  }
  const shapes = [
    () => CreateBox('box', { width: 0.9, height: 0.7, depth: 0.8 }, scene),
    () => CreateSphere('sphere', { diameter: 1, segments: 8 }, scene),
    () => CreateTorus('torus', { diameter: 0.9, thickness: 0.3, tessellation: 16 }, scene),
  ];
  const rigid: Mesh[] = [];
  const place = (mesh: AbstractMesh, mirror: boolean) => {
    mesh.position.set(range(-2.6, 2.6), range(-1.8, 1.8), range(-2, 2));
    mesh.rotation.set(range(0, 6.3), range(0, 6.3), range(0, 6.3));
    mesh.scaling.set(range(0.6, 1.4) * (mirror ? -1 : 1), range(0.6, 1.4), range(0.6, 1.4));
  };
  for (let i = 0; i < 12; i++) {
    const mesh = shapes[i % 3]();
    mesh.name = `m${i}`;
    place(mesh, i % 4 === 1);
    const material = new StandardMaterial(`mat${i}`, scene);
    material.backFaceCulling = i % 5 !== 2;
    material.sideOrientation =
      i % 2 === 0 ? Material.ClockWiseSideOrientation : Material.CounterClockWiseSideOrientation;
    if (i === 5) material.cullBackFaces = false;
    mesh.material = material;
    rigid.push(mesh);
    if (i < 3) {
      for (let k = 0; k < 2; k++) {
        const instance = mesh.createInstance(`m${i}-instance${k}`);
        place(instance, k === 1);
      }
    }
  }
  const thin = CreateBox('thin', { size: 0.5 }, scene);
  const thinMaterial = new StandardMaterial('thin-mat', scene);
  thin.material = thinMaterial;
  const matrices = new Float32Array(6 * 16);
  for (let k = 0; k < 6; k++)
    Matrix.Compose(
      new Vector3(range(0.6, 1.3), range(0.6, 1.3), range(0.6, 1.3)),
      Quaternion.RotationYawPitchRoll(range(0, 6), range(0, 6), range(0, 6)),
      new Vector3(range(-2.5, 2.5), range(-1.8, 1.8), range(-1, 1)),
    ).copyToArray(matrices, k * 16);
  thin.thinInstanceSetBuffer('matrix', matrices, 16, false);
  thin.thinInstanceEnablePicking = true;
  thin.position.set(0.2, 0, 0.3);
  rigid.push(thin);

  const skinned = column(scene);
  skinned.position.set(-0.8, 0.2, 1.2);
  skinned.scaling.set(1.2, 1, 0.9);
  const skinMaterial = new StandardMaterial('skin-mat', scene);
  skinMaterial.backFaceCulling = false;
  skinned.material = skinMaterial;

  const morphed = CreateSphere('morphed', { diameter: 1.2, segments: 8 }, scene);
  morphed.position.set(1.1, -0.4, 1.4);
  const morphMaterial = new StandardMaterial('morph-mat', scene);
  morphMaterial.backFaceCulling = false;
  morphed.material = morphMaterial;
  const base = morphed.getVerticesData('position')!;
  const target = new MorphTarget('bulge', 0.6, scene);
  target.setPositions(Float32Array.from(base, (v, i) => (i % 3 === 1 ? v * 1.8 : v * 0.7)));
  const manager = new MorphTargetManager(scene);
  manager.addTarget(target);
  morphed.morphTargetManager = manager;

  const hidden: AbstractMesh[] = [];
  const hiddenKinds: Array<(m: Mesh) => void> = [
    (m) => (m.isVisible = false),
    (m) => m.setEnabled(false),
    (m) => (m.layerMask = 0x10000000),
    (m) => (m.isPickable = false),
    (m) => (m.visibility = 0),
  ];
  hiddenKinds.forEach((hide, k) => {
    const mesh = CreateBox(`hidden${k}`, { size: 1.5 }, scene);
    mesh.position.set(-2 + k, 0.3 * k - 0.5, 2.5);
    hide(mesh);
    hidden.push(mesh);
  });
  return { scene, camera, rigid, skinned, morphed, hidden };
}
