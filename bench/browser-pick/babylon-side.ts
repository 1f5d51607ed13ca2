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
import '@babylonjs/core/Culling/ray.js';
import '@babylonjs/core/Engines/WebGPU/Extensions/engine.multiRender.js';
import type { GeometryBufferRenderer } from '@babylonjs/core/Rendering/geometryBufferRenderer.js';
import '@babylonjs/core/Rendering/geometryBufferRendererSceneComponent.js';
import { Scene } from '@babylonjs/core/scene.js';
import {
  boxSize,
  centre,
  frameHeight,
  frameWidth,
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
  // Babylon.js 9.35 sizes GPUPicker's read buffer as 4·w·h bytes (rounded up to 256), but WebGPU's read-back of a
  // w×h region has rows padded to 256 bytes; for regions wider than 64 px (w not a multiple of 64) the copy into
  // the smaller buffer throws a RangeError inside a .then, and multiPickAsync / boxPickAsync never settle. A buffer
  // of the full frame (rows of 2560 B, already aligned) is what GPUPicker would need; it keeps it, as it only grows it.
  (picker as unknown as { _readbuffer: Uint8Array })._readbuffer = new Uint8Array(frameWidth * frameHeight * 4);
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
 * Runs a GPUPicker request the way an app's render loop carries it, without waiting for requestAnimationFrame.
 * GPUPicker (9.x) first waits for its picking materials to compile, polling once per scene render
 * (`onAfterRenderObservable`); then queues its picking texture as a custom render target of the scene, which the
 * next `scene.render()` draws; then (in the target's `onAfterRender`) flushes the frame and reads the pixels back,
 * which needs no further frame. So: render a frame whenever the request is waiting for one (materials or target),
 * none once the target has been drawn. `framesLastPick` counts the frames the request needed.
 */
async function carryPick<T>(side: BabylonPickSide, request: () => Promise<T>): Promise<T> {
  let settled = false;
  let failure: unknown = null;
  const promise = request().then(
    (value) => {
      settled = true;
      return value;
    },
    (error) => {
      settled = true;
      failure = error;
      throw error;
    },
  );
  promise.catch(() => {});
  side.framesLastPick = 0;
  const targets = side.scene.customRenderTargets;
  let queued = false;
  const start = performance.now();
  while (!settled) {
    await yieldTask();
    if (settled) break;
    if (targets.length > 0) queued = true;
    else if (queued) break; // drawn: GPUPicker removed its target and now waits only for the read-back
    if (performance.now() - start > maxWaitMs)
      throw new Error(
        `Babylon.js GPUPicker did not finish within ${maxWaitMs / 1000} s (${side.framesLastPick} frames rendered, target ${queued ? 'queued' : 'never queued'})`,
      );
    renderBabylonFrame(side.engine, side.scene);
    side.framesLastPick++;
    if (queued && targets.length === 0) break;
  }
  if (failure) throw failure;
  return promise;
}

/** Compiling the picking shaders on SwiftShader can take tens of seconds on a busy machine; beyond this, fail. */
const maxWaitMs = 90_000;

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
): Promise<{ centre: HitKey; many: HitKey[]; rect: HitKey[]; ray: HitKey[]; mirrored: HitKey[] }> {
  const single = await babylonPick(side);
  const many = await babylonMultiPick(side);
  const box = await babylonBoxPick(side);
  // The same 64 points mirrored vertically (x, 479 − y): where 9.35's GPUPicker on WebGPU actually reads.
  const mirrored = await carryPick(side, () =>
    side.picker.multiPickAsync(points.map(({ x, y }) => ({ x, y: frameHeight - 1 - y }))),
  );
  const mirroredKeys = points.map((_, i) => keyOf(mirrored?.meshes[i], mirrored?.thinInstanceIndexes?.[i], thin));
  const manyKeys = points.map((_, i) => keyOf(many?.meshes[i], many?.thinInstanceIndexes?.[i], thin));
  const rect = new Set((box?.meshes ?? []).map((mesh, i) => keyOf(mesh, box?.thinInstanceIndexes?.[i], thin)));
  rect.delete('-');
  // Babylon.js's own CPU ray pick (scene.pick) of the same pixels: an answer from Babylon.js that does not go through
  // GPUPicker's read-back (in 9.35 on WebGPU, GPUPicker answers for the vertically mirrored pixel).
  // Rays through pixel centres, where the rasteriser samples (the boxes are ~2 px wide: a corner ray may miss).
  // CPU picking of thin instances is opt-in; it is switched on only for this check, never while timing.
  const meshes = side.scene.meshes as Mesh[];
  for (const mesh of meshes) if (thin) mesh.thinInstanceEnablePicking = true;
  const rayKeys = points.map(({ x, y }) => {
    const hit = side.scene.pick(x + 0.5, y + 0.5);
    return hit?.hit ? keyOf(hit.pickedMesh, hit.thinInstanceIndex, thin) : '-';
  });
  for (const mesh of meshes) if (thin) mesh.thinInstanceEnablePicking = false;
  return {
    centre: keyOf(single?.mesh, single?.thinInstanceIndex, thin),
    many: manyKeys,
    rect: [...rect].sort(),
    ray: rayKeys,
    mirrored: mirroredKeys,
  };
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
