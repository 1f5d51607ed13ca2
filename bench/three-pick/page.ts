// The three.js bench page: one WebGPURenderer (640×480) and, on its device, weft's own engine. Per scene it builds the
// three.js scene and the same geometry as a weft scene; each round times, interleaved: a warm pick through
// weft-gpu/three, weft's own pick of the weft scene, three.js's Raycaster (CPU) through the same pixel, and the floor
// (submit + mapAsync of 256 B on the same device). Every function returns milliseconds measured inside the page.
import {
  Bone,
  BoxGeometry,
  CylinderGeometry,
  Float32BufferAttribute,
  InstancedMesh,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  type Object3D,
  PerspectiveCamera,
  REVISION,
  Raycaster,
  Scene,
  Skeleton,
  SkinnedMesh,
  Uint16BufferAttribute,
  Vector2,
  Vector3,
} from 'three';
import { WebGPURenderer } from 'three/webgpu';
import { createEngineFromDeviceAsync } from '../../engine/host-device.js';
import { makeMatrixCamera } from '../../engine/matrix-camera.js';
import { createMeshFromData } from '../../engine/mesh.js';
import { createScene, type Scene as WeftScene } from '../../engine/scene.js';
import type { Engine } from '../../engine/engine.js';
import { createThreePickerAsync, pickThreeAsync, type ThreePicker } from '../../hosts/three/index.js';
import { createGpuPicker, enableDetailedPicking, type GpuPicker } from '../../picking/gpu-picker.js';
import { pickAsync } from '../../picking/point/pick-async.js';
import { evictCaches, median } from '../bench-timing.js';
import { threeSteadyReads } from '../host-read-floors.js';
import { makeBareRoundTrip } from '../pick-floors.js';

const width = 640;
const height = 480;
export interface ThreeSceneSpec {
  kind: 'meshes' | 'instances' | 'skinned';
  count: number;
}
export interface ThreeRound {
  adapter: number;
  weft: number;
  raycaster: number;
  floor: number;
  /** The reads of the scene a correct pick makes (host-read-floors.ts), no GPU work. */
  reads: number;
}

let renderer: WebGPURenderer;
let device: GPUDevice;
let engine: Engine;
let picker: ThreePicker;
let scene: Scene;
let camera: PerspectiveCamera;
let weftScene: WeftScene;
let weftPicker: GpuPicker;
let floor: () => Promise<void>;
const raycaster = new Raycaster();
/** Pixels the rounds cycle through, on the scene's middle. */
const pixels = [
  { x: 320, y: 240 },
  { x: 300, y: 220 },
  { x: 345, y: 255 },
];

/** A 50 000-triangle cylinder bound to a chain of 8 bones, bent. */
function makeSkinned(): SkinnedMesh {
  const geometry = new CylinderGeometry(0.5, 0.5, 4, 128, 196, true);
  const position = geometry.getAttribute('position');
  const joints: number[] = [];
  const weights: number[] = [];
  for (let v = 0; v < position.count; v++) {
    const t = ((position.getY(v) + 2) / 4) * 7;
    const bone = Math.min(6, Math.floor(t));
    const f = t - bone;
    joints.push(bone, bone + 1, 0, 0);
    weights.push(1 - f, f, 0, 0);
  }
  geometry.setAttribute('skinIndex', new Uint16BufferAttribute(joints, 4));
  geometry.setAttribute('skinWeight', new Float32BufferAttribute(weights, 4));
  const bones: Bone[] = [];
  for (let b = 0; b < 8; b++) {
    const bone = new Bone();
    bone.position.y = b === 0 ? -2 : 4 / 7;
    if (b > 0) bones[b - 1].add(bone);
    bones.push(bone);
  }
  const mesh = new SkinnedMesh(geometry, new MeshBasicMaterial({ color: 0x44aa66 }));
  mesh.add(bones[0]);
  mesh.bind(new Skeleton(bones));
  for (let b = 1; b < 8; b++) bones[b].rotation.z = 0.12;
  return mesh;
}

function addWeftMesh(name: string, geometry: BoxGeometry | CylinderGeometry, world: Matrix4, instances?: Float32Array) {
  createMeshFromData(
    weftScene,
    name,
    {
      positions: geometry.getAttribute('position').array as Float32Array,
      normals: geometry.getAttribute('normal').array as Float32Array,
      indices: Uint32Array.from(geometry.index!.array),
    },
    { worldMatrix: world.elements, ...(instances ? { thinInstances: instances } : {}) },
  );
}

async function init() {
  renderer = new WebGPURenderer({ canvas: document.querySelector('canvas')! });
  renderer.setPixelRatio(1);
  renderer.setSize(width, height, false);
  await renderer.init();
  device = (renderer.backend as unknown as { device: GPUDevice }).device;
  engine = await createEngineFromDeviceAsync(device, { width, height });
  floor = makeBareRoundTrip(device);
  return { three: REVISION, features: [...device.features].join(', ') || 'none' };
}

/** Bytes of GPU buffers created while `body` runs (what the picker allocates). */
async function countBytes<T>(body: () => Promise<T>): Promise<{ value: T; bytes: number; buffers: number }> {
  const original = device.createBuffer.bind(device);
  let bytes = 0;
  let buffers = 0;
  device.createBuffer = (descriptor: GPUBufferDescriptor) => {
    bytes += descriptor.size;
    buffers++;
    return original(descriptor);
  };
  try {
    return { value: await body(), bytes, buffers };
  } finally {
    device.createBuffer = original;
  }
}

async function setup(spec: ThreeSceneSpec) {
  scene = new Scene();
  camera = new PerspectiveCamera(50, width / height, 0.1, 500);
  weftScene = createScene(engine);
  const box = new BoxGeometry(1, 1, 1);
  const material = new MeshBasicMaterial({ color: 0x3366aa });
  const side = Math.ceil(Math.sqrt(spec.count));
  const spacing = 1.6;
  const at = (i: number) =>
    new Vector3(((i % side) - (side - 1) / 2) * spacing, (Math.floor(i / side) - (side - 1) / 2) * spacing, 0);
  if (spec.kind === 'meshes') {
    for (let i = 0; i < spec.count; i++) {
      const mesh = new Mesh(box, material);
      mesh.position.copy(at(i));
      mesh.rotation.set(0.4, 0.3 + i * 0.01, 0);
      scene.add(mesh);
    }
  } else if (spec.kind === 'instances') {
    const instanced = new InstancedMesh(box, material, spec.count);
    const m = new Matrix4();
    for (let i = 0; i < spec.count; i++) instanced.setMatrixAt(i, m.makeRotationX(0.4).setPosition(at(i)));
    scene.add(instanced);
  } else scene.add(makeSkinned());
  const extent = Math.max(4, side * spacing);
  camera.position.set(0, 0, extent / (2 * Math.tan((25 * Math.PI) / 180)) + 2);
  camera.lookAt(0, 0, 0);
  scene.updateMatrixWorld();
  renderer.render(scene, camera);
  // The same geometry as a weft scene on the same device (skinned: the bench compares with Raycaster only).
  scene.traverse((object: Object3D) => {
    if ((object as InstancedMesh).isInstancedMesh) {
      const instanced = object as InstancedMesh;
      addWeftMesh('instances', box, instanced.matrixWorld, instanced.instanceMatrix.array as Float32Array);
    } else if ((object as Mesh).isMesh && !(object as SkinnedMesh).isSkinnedMesh)
      addWeftMesh(object.uuid, box, object.matrixWorld);
  });
  weftPicker = createGpuPicker(weftScene);
  enableDetailedPicking(weftPicker);
  const made = await countBytes(async () => {
    picker = await createThreePickerAsync(renderer);
    return pickThreeAsync(picker, scene, camera, pixels[0].x, pixels[0].y);
  });
  return { bytes: made.bytes, buffers: made.buffers, hit: made.value !== null };
}

const weftCamera = () =>
  makeMatrixCamera({
    view: camera.matrixWorldInverse.elements,
    projection: camera.projectionMatrix.elements,
    depth: 'standard',
  });

async function time(body: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await body();
  return performance.now() - started;
}

async function profile() {
  const { threeMatrixCamera } = await import('../../hosts/three/three-camera.js');
  const { collectThreeDrawables } = await import('../../hosts/three/three-drawables.js');
  const { syncDrawableSceneHinted } = await import('../../picking/sources/drawable-scene.js');
  // Each synchronous stage: the median of 7 batches of 10 calls (the page's clock is coarse, 0.1 ms, and the machine
  // may be shared: a batch mean reads past the clock, the median of batches past a preempted one).
  const batches = 7;
  const n = 10;
  const stage = (body: () => unknown) => {
    const means: number[] = [];
    for (let b = 0; b < batches; b++) {
      const t = performance.now();
      for (let i = 0; i < n; i++) body();
      means.push((performance.now() - t) / n);
    }
    return median(means);
  };
  let list: ReturnType<typeof collectThreeDrawables> = [];
  const cameraMs = stage(() => threeMatrixCamera('x', renderer, camera));
  // three's own update, for comparison: the adapter's walk (collect) does its work where something moved.
  const worldMs = stage(() => scene.updateMatrixWorld());
  const collectMs = stage(() => {
    list = collectThreeDrawables('x', picker.drawables, scene, camera);
  });
  const syncMs = stage(() => syncDrawableSceneHinted(picker.target, list, picker.drawables));
  const view = weftCamera();
  const t4 = performance.now();
  for (let i = 0; i < 5; i++) await pickAsync(picker.picker, 320, 240, { camera: view, viewport: { width, height } });
  const t5 = performance.now();
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return {
    camera: round(cameraMs),
    world: round(worldMs),
    collect: round(collectMs),
    sync: round(syncMs),
    pickOnly: round((t5 - t4) / 5),
  };
}

/**
 * Where an adapter pick's time goes beyond weft's own pick, interleaved `count` times at the first pixel (medians, ms):
 * weft's own pick, the adapter's weft picker picked directly (its scene already synced), the same with the options
 * the adapter passes, the adapter's scene walk + sync alone, and the whole adapter pick.
 */
async function gap(count: number) {
  const { threeMatrixCamera } = await import('../../hosts/three/three-camera.js');
  const { collectThreeDrawables } = await import('../../hosts/three/three-drawables.js');
  const { syncDrawableSceneHinted } = await import('../../picking/sources/drawable-scene.js');
  const { pickManyAsync } = await import('../../picking/gpu-picker.js');
  const p = pixels[0];
  const own = weftCamera();
  const view = threeMatrixCamera('x', renderer, camera);
  const viewport = { width, height };
  const steps: [string, () => Promise<unknown> | unknown][] = [
    ['own', () => (weftScene.meshes.length > 0 ? pickAsync(weftPicker, p.x, p.y, { camera: own, viewport }) : null)],
    ['pickerDirect', () => pickAsync(picker.picker, p.x, p.y, { camera: view, viewport })],
    [
      'pickerAdapterOptions',
      () => pickManyAsync(picker.picker, [p], { discard: undefined, camera: view, viewport, devicePixelRatio: 1 }),
    ],
    [
      'walkAndSync',
      () => {
        const list = collectThreeDrawables('x', picker.drawables, scene, camera);
        syncDrawableSceneHinted(picker.target, list, picker.drawables);
        threeMatrixCamera('x', renderer, camera);
      },
    ],
    ['adapter', () => pickThreeAsync(picker, scene, camera, p.x, p.y)],
  ];
  const calls = await countGpuCalls(steps, 10);
  const samples: Record<string, number[]> = Object.fromEntries(steps.map(([name]) => [name, []]));
  for (let r = 0; r < count; r++)
    for (let k = 0; k < steps.length; k++) {
      const [name, body] = steps[(k + r) % steps.length];
      samples[name].push(await time(body));
    }
  // The same walk + sync and adapter pick right after reading 64 MiB: what they cost where caches are cold, as in
  // the rounds, after weft's own pick and a Raycaster pass over the other 10 000 objects.
  const walkAndSync = steps.find(([name]) => name === 'walkAndSync')![1];
  const adapter = steps.find(([name]) => name === 'adapter')![1];
  samples.walkAndSyncCold = [];
  samples.adapterCold = [];
  for (let r = 0; r < count; r++) {
    evictCaches();
    samples.walkAndSyncCold.push(await time(walkAndSync));
    evictCaches();
    samples.adapterCold.push(await time(adapter));
  }
  const medians = Object.fromEntries(
    Object.entries(samples).map(([name, v]) => [name, Math.round(median(v) * 1000) / 1000]),
  );
  return { medians, gpuCallsPerStep: calls };
}

/** WebGPU calls per run of each step (the mean of `runs`): what a step asks of the GPU process beyond the others. */
async function countGpuCalls(steps: [string, () => Promise<unknown> | unknown][], runs: number) {
  const targets: [object, string][] = [
    [GPUDevice.prototype, 'createBuffer'],
    [GPUDevice.prototype, 'createBindGroup'],
    [GPUDevice.prototype, 'createTexture'],
    [GPUDevice.prototype, 'createRenderPipeline'],
    [GPUQueue.prototype, 'writeBuffer'],
    [GPUQueue.prototype, 'submit'],
    [GPUBuffer.prototype, 'mapAsync'],
    [GPUCommandEncoder.prototype, 'beginRenderPass'],
    [GPUCommandEncoder.prototype, 'beginComputePass'],
    [GPUCommandEncoder.prototype, 'copyTextureToBuffer'],
    [GPUCommandEncoder.prototype, 'copyBufferToBuffer'],
  ];
  const counts: Record<string, number> = {};
  const originals = targets.map(([proto, name]) => {
    const original = (proto as Record<string, (...a: unknown[]) => unknown>)[name];
    (proto as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
      counts[name] = (counts[name] ?? 0) + 1;
      return original.apply(this, args);
    };
    return original;
  });
  const out: Record<string, Record<string, number>> = {};
  try {
    for (const [step, body] of steps) {
      for (const key of Object.keys(counts)) delete counts[key];
      for (let r = 0; r < runs; r++) await body();
      out[step] = Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v / runs]));
    }
  } finally {
    targets.forEach(([proto, name], i) => {
      (proto as Record<string, unknown>)[name] = originals[i];
    });
  }
  return out;
}

/** `count` Raycaster casts through the round's pixels and nothing else (what the allocation sampling records). */
async function raycastOnly(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const p = pixels[i % pixels.length];
    raycaster.setFromCamera(new Vector2(((p.x + 0.5) / width) * 2 - 1, -((p.y + 0.5) / height) * 2 + 1), camera);
    raycaster.intersectObject(scene, true);
  }
}

/** `count` warm adapter picks and nothing else (what the CPU profile records). */
async function adapterOnly(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const p = pixels[i % pixels.length];
    await pickThreeAsync(picker, scene, camera, p.x, p.y);
  }
}

/**
 * One interleaved round (`r` picks the pixel and the first step); `variant` leaves out a step or keeps the pixel, to
 * tell what in a round makes its adapter pick slower than the same pick interleaved with its parts alone (the gap).
 */
async function round(
  r: number,
  variant: 'full' | 'no-raycaster' | 'no-own' | 'same-pixel' = 'full',
): Promise<ThreeRound & { agree: boolean }> {
  const p = pixels[variant === 'same-pixel' ? 0 : r % pixels.length];
  const view = weftCamera();
  const out = { adapter: 0, weft: 0, raycaster: 0, floor: 0, reads: 0 };
  let adapterHit: { object: Object3D; faceIndex?: number | null; instanceId?: number } | null = null;
  let rayHit: { object: Object3D; faceIndex?: number | null; instanceId?: number } | null = null;
  const steps: [keyof typeof out, () => Promise<unknown> | unknown][] = [
    ['adapter', async () => (adapterHit = await pickThreeAsync(picker, scene, camera, p.x, p.y))],
    [
      'weft',
      () =>
        weftScene.meshes.length > 0
          ? pickAsync(weftPicker, p.x, p.y, { camera: view, viewport: { width, height } })
          : null,
    ],
    [
      'raycaster',
      () => {
        raycaster.setFromCamera(new Vector2(((p.x + 0.5) / width) * 2 - 1, -((p.y + 0.5) / height) * 2 + 1), camera);
        rayHit = raycaster.intersectObject(scene, true)[0] ?? null;
      },
    ],
    ['floor', () => floor()],
    ['reads', () => threeSteadyReads(scene, camera.layers.mask)],
  ];
  // Interleaved: each round starts with a different step.
  for (let k = 0; k < steps.length; k++) {
    const [name, body] = steps[(k + r) % steps.length];
    if ((variant === 'no-raycaster' && name === 'raycaster') || (variant === 'no-own' && name === 'weft')) continue;
    out[name] = await time(body);
  }
  type Hit = { object: Object3D; faceIndex?: number | null; instanceId?: number } | null;
  const a = adapterHit as Hit;
  const b = rayHit as Hit;
  const agree =
    (a?.object ?? null) === (b?.object ?? null) && a?.faceIndex === b?.faceIndex && a?.instanceId === b?.instanceId;
  return { ...out, agree };
}

declare global {
  interface Window {
    __threeBench?: Record<string, (arg?: unknown) => Promise<unknown>>;
  }
}
window.__threeBench = {
  init,
  setup: (spec) => setup(spec as ThreeSceneSpec),
  round: (r) => round(r as number),
  roundVariant: (arg) => {
    const [r, variant] = arg as [number, 'full' | 'no-raycaster' | 'no-own' | 'same-pixel'];
    return round(r, variant);
  },
  profile: () => profile(),
  adapterOnly: (count) => adapterOnly(count as number),
  raycastOnly: (count) => raycastOnly(count as number),
  gap: (count) => gap(count as number),
};
