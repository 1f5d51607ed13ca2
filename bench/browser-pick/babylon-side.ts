// The Babylon.js half of the bench page: the same scenes in a WebGPUEngine on its own device, GPUPicker and
// GeometryBufferRenderer with default options.
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { GPUPicker } from '@babylonjs/core/Collisions/gpuPicker.js';
import type { WebGPUEngine } from '@babylonjs/core/Engines/webgpuEngine.js';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight.js';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { Color3 } from '@babylonjs/core/Maths/math.color.js';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder.js';
import { CreateTorus } from '@babylonjs/core/Meshes/Builders/torusBuilder.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import '@babylonjs/core/Meshes/thinInstanceMesh.js';
import type { GeometryBufferRenderer } from '@babylonjs/core/Rendering/geometryBufferRenderer.js';
import '@babylonjs/core/Rendering/geometryBufferRendererSceneComponent.js';
import { Scene } from '@babylonjs/core/scene.js';
import {
  boxSize,
  centre,
  gbufferColour,
  gbufferPlacement,
  gbufferRowPlacement,
  gridCell,
  type HitKey,
  marquee,
  type PickSceneSpec,
  pickCamera,
  points,
} from './shared.js';

/** The outputs enabled on Babylon.js's G-buffer: the closest match to weft's six. */
export const babylonOutputs = ['depth', 'normal', 'position', 'reflectivity', 'velocity'];

/** A right-handed scene with weft's camera convention and a light (Babylon.js's default material is lit). */
function makeScene(
  engine: WebGPUEngine,
  camera: { position: readonly number[]; target: readonly number[]; fovY: number; near: number; far: number },
): Scene {
  const scene = new Scene(engine);
  scene.useRightHandedSystem = true;
  const [x, y, z] = camera.position;
  const eye = new FreeCamera('camera', new Vector3(x, y, z), scene);
  eye.setTarget(new Vector3(camera.target[0], camera.target[1], camera.target[2]));
  eye.fov = camera.fovY;
  eye.minZ = camera.near;
  eye.maxZ = camera.far;
  new HemisphericLight('light', new Vector3(0.3, 1, 0.5), scene);
  return scene;
}

export interface BabylonPickSide {
  engine: WebGPUEngine;
  scene: Scene;
  picker: GPUPicker;
  /** Frames rendered to carry the last pick. */
  framesLastPick: number;
}

/** The same grid as weft's (separate meshes: clones of one box; or one box with thin instances) and a GPUPicker. */
export function createBabylonPickSide(engine: WebGPUEngine, spec: PickSceneSpec): BabylonPickSide {
  const scene = makeScene(engine, { ...pickCamera });
  const side = Math.ceil(Math.sqrt(spec.count));
  const meshes: AbstractMesh[] = [];
  if (spec.thin) {
    const box = CreateBox('boxes', { size: boxSize }, scene);
    const matrices = new Float32Array(spec.count * 16);
    for (let i = 0; i < spec.count; i++) {
      const [x, y, z] = gridCell(i, side);
      Matrix.Translation(x, y, z).copyToArray(matrices, i * 16);
    }
    box.thinInstanceSetBuffer('matrix', matrices, 16, true);
    meshes.push(box);
  } else {
    const first = CreateBox('box0', { size: boxSize }, scene);
    for (let i = 0; i < spec.count; i++) {
      const mesh: Mesh = i === 0 ? first : first.clone(`box${i}`);
      const [x, y, z] = gridCell(i, side);
      mesh.position.set(x, y, z);
      meshes.push(mesh);
    }
  }
  const picker = new GPUPicker();
  picker.setPickingList(meshes);
  return { engine, scene, picker, framesLastPick: 0 };
}

export function disposeBabylonPickSide(side: BabylonPickSide): void {
  side.picker.dispose();
  side.scene.dispose();
}

/** One Babylon.js frame: begin, render the scene, end (which submits). */
export function renderBabylonFrame(engine: WebGPUEngine, scene: Scene): void {
  engine.beginFrame();
  scene.render();
  engine.endFrame();
}

/** A task boundary without setTimeout's clamping: lets an async pick reach the point where it queues its target. */
function yieldTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/**
 * Runs a GPUPicker request the way an app's render loop carries it: GPUPicker queues its picking texture as a
 * custom render target of the scene and reads it back after the next scene render, so a frame is rendered as soon
 * as the target is queued (no waiting for requestAnimationFrame), and no more frames once it has been drawn.
 */
async function carryPick<T>(side: BabylonPickSide, request: () => Promise<T>): Promise<T> {
  let settled = false;
  const promise = request().finally(() => (settled = true));
  side.framesLastPick = 0;
  for (let tries = 0; tries < 10_000 && !settled; tries++) {
    await yieldTask();
    if (settled || side.scene.customRenderTargets.length === 0) continue;
    renderBabylonFrame(side.engine, side.scene);
    side.framesLastPick++;
    // Drawn: GPUPicker removed its target and now waits for the read-back.
    if (side.scene.customRenderTargets.length === 0) break;
  }
  return promise;
}

export const babylonPick = (side: BabylonPickSide) => carryPick(side, () => side.picker.pickAsync(centre.x, centre.y));
export const babylonMultiPick = (side: BabylonPickSide) =>
  carryPick(side, () => side.picker.multiPickAsync([...points]));
/** boxPickAsync scans columns x1 .. x2 − 1 and rows y1 + 1 .. y2: these corners cover weft's marquee exactly. */
export const babylonBoxPick = (side: BabylonPickSide) =>
  carryPick(side, () =>
    side.picker.boxPickAsync(marquee.x, marquee.y - 1, marquee.x + marquee.width, marquee.y + marquee.height - 1),
  );

function keyOf(mesh: AbstractMesh | null | undefined, thinInstanceIndex: number | undefined, thin: boolean): HitKey {
  if (!mesh) return '-';
  return thin ? `${mesh.name}#${thinInstanceIndex ?? 0}` : mesh.name;
}

/** The answers to the three requests, as hit keys (the box pick's per-pixel list deduplicated and sorted). */
export async function babylonAnswers(
  side: BabylonPickSide,
  thin: boolean,
): Promise<{ centre: HitKey; many: HitKey[]; rect: HitKey[] }> {
  const single = await babylonPick(side);
  const many = await babylonMultiPick(side);
  const box = await babylonBoxPick(side);
  const manyKeys = points.map((_, i) => keyOf(many?.meshes[i], many?.thinInstanceIndexes?.[i], thin));
  const rect = new Set((box?.meshes ?? []).map((mesh, i) => keyOf(mesh, box?.thinInstanceIndexes?.[i], thin)));
  rect.delete('-');
  return { centre: keyOf(single?.mesh, single?.thinInstanceIndex, thin), many: manyKeys, rect: [...rect].sort() };
}

export interface BabylonGbufferSide {
  scene: Scene;
  gbuffer: GeometryBufferRenderer;
}

/** weft's G-buffer scene in Babylon.js (same placements, shapes of the same size, lit standard materials). */
export function createBabylonGbufferSide(engine: WebGPUEngine): BabylonGbufferSide {
  const scene = makeScene(engine, { position: [0, 3, 9], target: [0, 0, 0], fovY: 0.9, near: 0.1, far: 60 });
  const shapes = [
    CreateSphere('sphere', { diameter: 0.9, segments: 16 }, scene),
    CreateBox('box', { size: 0.8 }, scene),
    CreateTorus('torus', { diameter: 0.8, thickness: 0.28, tessellation: 32 }, scene),
  ];
  for (const shape of shapes) shape.setEnabled(false);
  for (let i = 0; i < 90; i++) {
    const [x, y, z, angle] = gbufferPlacement(i);
    const mesh = shapes[i % 3].clone(`m${i}`);
    mesh.setEnabled(true);
    mesh.position.set(x, y, z);
    mesh.rotation.y = angle;
    const material = new StandardMaterial(`mat${i}`, scene);
    const [r, g, b] = gbufferColour(i);
    material.diffuseColor = new Color3(r, g, b);
    mesh.material = material;
  }
  const row = shapes[0].clone('row');
  row.setEnabled(true);
  const matrices = new Float32Array(6 * 16);
  for (let k = 0; k < 6; k++) {
    const [x, y, z] = gbufferRowPlacement(k);
    Matrix.Translation(x, y, z).copyToArray(matrices, k * 16);
  }
  row.thinInstanceSetBuffer('matrix', matrices, 16, true);
  const gbuffer = scene.enableGeometryBufferRenderer()!;
  gbuffer.enableDepth = true;
  gbuffer.enableNormal = true;
  gbuffer.enablePosition = true;
  gbuffer.enableReflectivity = true;
  gbuffer.enableVelocity = true;
  return { scene, gbuffer };
}
