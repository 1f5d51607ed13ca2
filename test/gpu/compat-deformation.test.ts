// Morph targets and vertex-animation textures on a WebGPU compatibility-mode device (Dawn's `featureLevel:
// 'compatibility'`, no vertex-stage storage buffers): weft keeps their data in row-wrapped textures there. The frames
// and G-buffers must equal a core device's (same floats in, same rasterizer), identity picks must agree with a float64
// ray cast against vertices deformed in this file, and a mesh whose data no texture can hold is refused by name.
import { describe, expect, test } from 'vitest';
import { mat4 } from 'wgpu-matrix';
import { createEngineFromDeviceAsync } from '../../engine/host-device.js';
import {
  createMeshFromData,
  createScene,
  disposeEngine,
  type Engine,
  makePerspectiveCamera,
  makeSkeleton,
  makeSphereData,
  makeVertexAnimation,
  type Mesh,
  type MeshData,
  MeshDataError,
  readEngineFrameAsync,
  readRenderTargetPixelsAsync,
  setBoneMatrix,
  setThinInstances,
  renderFrame,
  runTasks,
  type Scene,
} from '../../engine/index.js';
import { createGeometryRendererTask, GeometryTextureType } from '../../geometry/index.js';
import {
  createDrawableScene,
  createGpuPicker,
  disposeDrawableScene,
  disposeGpuPicker,
  type PickDrawable,
  PickError,
  pickedObjectOf,
  pickManyAsync,
  syncDrawableScene,
} from '../../picking/index.js';
import { cameraPixelRay } from '../support/camera-rays.js';
import { getNodeGpu } from '../support/gpu.js';
import { clipRow, crowdFrames, crowdInstances, twoBoneBox } from '../support/vat-reference.js';

type DeviceKind = 'core' | 'compatibility';
type Vec3 = [number, number, number];

async function deviceAsync(kind: DeviceKind): Promise<GPUDevice> {
  const adapter = await getNodeGpu().requestAdapter(
    kind === 'compatibility' ? ({ featureLevel: 'compatibility' } as GPURequestAdapterOptions) : undefined,
  );
  if (!adapter) throw new Error(`Dawn gave no ${kind} adapter (lavapipe missing? \`npm test\` installs it)`);
  return adapter.requestDevice();
}

/** Runs `body` on an engine over a fresh device of that kind, then fails on any uncaptured device error. */
async function onEngineAsync<T>(
  kind: DeviceKind,
  size: [number, number],
  body: (engine: Engine) => Promise<T>,
): Promise<T> {
  const device = await deviceAsync(kind);
  const errors: string[] = [];
  device.addEventListener('uncapturederror', (event) => errors.push((event as GPUUncapturedErrorEvent).error.message));
  const engine = await createEngineFromDeviceAsync(device, { width: size[0], height: size[1] });
  try {
    const result = await body(engine);
    await device.queue.onSubmittedWorkDone();
    expect(errors, `${kind} device errors`).toEqual([]);
    return result;
  } finally {
    disposeEngine(engine);
    device.destroy();
  }
}

const camera = { position: [0.3, 0.6, 6.5] as Vec3, target: [0, 0.2, 0] as Vec3, fovY: Math.PI / 4 };
const size: [number, number] = [72, 48];

/** A sphere with four morph targets (position and normal deltas): 561 vertices, so 4488 delta texels wrap a row. */
function morphedSphere(): { data: MeshData; positions: Float32Array[]; normals: Float32Array[] } {
  const data = makeSphereData({ radius: 0.8 });
  const base = data.positions!;
  const n = base.length / 3;
  const positions: Float32Array[] = [];
  const normals: Float32Array[] = [];
  for (let t = 0; t < 4; t++) {
    const p = new Float32Array(n * 3);
    const q = new Float32Array(n * 3);
    for (let v = 0; v < n; v++) {
      const [x, y, z] = [base[v * 3], base[v * 3 + 1], base[v * 3 + 2]];
      // Each target bulges a different side; the normal deltas tilt the normals a little.
      const bulge = Math.max(0, [x, y, -x, z][t]) * (0.5 + 0.2 * t);
      p.set([x * bulge, y * bulge + (t === 1 ? 0.1 * x : 0), z * bulge], v * 3);
      q.set([0.1 * t * y, -0.05 * t * x, 0.08 * z], v * 3);
    }
    positions.push(p);
    normals.push(q);
  }
  return { data, positions, normals };
}

const morphWorld = mat4.translation([-1.4, 0.2, 0]) as Float32Array;
const crowdWorld = mat4.translation([0.9, -0.4, 0]) as Float32Array;
const firstWeights = [0.6, 0.35, 0, 0.8];
const secondWeights = [0.2, 0.9, 0.45, 0.1];

const skinnedWorld = mat4.multiply(mat4.translation([-0.2, 1.3, -1.5]), mat4.rotationY(0.6)) as Float32Array;
/** Bone 1 (the box's upper half) of the skinned box in each pose; bone 0 stays put. */
const upperBone = (pose: number) =>
  mat4.multiply(mat4.translation([0.3 * pose, 0.2, 0]), mat4.rotationZ(0.35 + 0.3 * pose)) as Float32Array;

/** The two-bone box with one morph target (it widens in x): morph first, then skinning. */
function skinnedBox(): { data: MeshData; delta: Float32Array } {
  const data = twoBoneBox();
  const base = data.positions!;
  const delta = new Float32Array(base.length);
  for (let v = 0; v < base.length / 3; v++) delta[v * 3] = 0.6 * base[v * 3];
  return { data, delta };
}

interface DeformScene {
  scene: Scene;
  morph: Mesh;
  crowd: Mesh;
  skinned: Mesh;
}

/** The same scene on any engine: a morphed sphere and a VAT crowd of five (one blending two clips). */
function buildScene(engine: Engine): DeformScene {
  const scene = createScene(engine, { clearColor: [0.1, 0.1, 0.15, 1] });
  scene.camera = makePerspectiveCamera({
    position: [...camera.position],
    target: [...camera.target],
    fovY: camera.fovY,
  });
  const sphere = morphedSphere();
  const morph = createMeshFromData(scene, 'morphed', sphere.data, {
    morphTargets: { positions: sphere.positions, normals: sphere.normals },
    morphWeights: firstWeights,
    worldMatrix: morphWorld,
  });
  const { matrices, playback } = crowdInstances();
  playback[2 * 12 + 8] = 0.4; // instance 2 blends its two clips
  playback.set([2, 3, 0.25, 1], 2 * 12 + 4);
  const vertexAnimation = makeVertexAnimation({ name: 'crowd', frames: crowdFrames(), boneCount: 2, frameCount: 4 });
  const crowd = createMeshFromData(scene, 'crowd', twoBoneBox(), {
    vertexAnimation,
    thinInstances: matrices,
    vertexAnimationPlayback: playback,
    worldMatrix: crowdWorld,
  });
  crowd.vertexAnimationTime = 0.7;
  const skeleton = makeSkeleton(2, 'box-bones');
  skeleton.matrices.set(mat4.identity() as Float32Array, 0);
  skeleton.matrices.set(upperBone(0), 16);
  const box = skinnedBox();
  const skinned = createMeshFromData(scene, 'skinned', box.data, {
    skeleton,
    morphTargets: { positions: [box.delta] },
    morphWeights: [0.3],
    worldMatrix: skinnedWorld,
  });
  return { scene, morph, crowd, skinned };
}

/** Sets the second pose: new weights, a later time. */
function secondPose({ morph, crowd, skinned }: DeformScene): void {
  morph.morphWeights.set(secondWeights);
  crowd.vertexAnimationTime = 1.9;
  skinned.morphWeights[0] = 0.8;
  setBoneMatrix(skinned.skeleton!, 1, upperBone(1));
}

async function forwardFrameAsync(kind: DeviceKind): Promise<Uint8Array> {
  return onEngineAsync(kind, size, async (engine) => {
    const built = buildScene(engine);
    renderFrame(built.scene);
    secondPose(built);
    renderFrame(built.scene);
    const deformation = built.morph.deformationGpu!;
    if (kind === 'compatibility') {
      // The data lives in textures there, and the deltas wrap to a second row (4488 texels, 4096 per row).
      expect(deformation.morphDeltas).toBeNull();
      expect(deformation.morphDeltaTexture!.height).toBe(2);
      expect(built.crowd.deformationGpu!.vatPlaybackTexture).not.toBeNull();
    } else {
      expect(deformation.morphDeltaTexture).toBeNull();
      expect(deformation.morphDeltas).not.toBeNull();
    }
    return readEngineFrameAsync(engine);
  });
}

/** World position, world normal and linear velocity (the second pose moving from the first), as raw bytes. */
async function geometryOutputsAsync(kind: DeviceKind): Promise<Uint8Array[]> {
  return onEngineAsync(kind, size, async (engine) => {
    const built = buildScene(engine);
    const task = createGeometryRendererTask(built.scene, {
      size: { width: size[0], height: size[1] },
      textureDescriptions: [
        { type: GeometryTextureType.WORLD_POSITION },
        { type: GeometryTextureType.WORLD_NORMAL },
        { type: GeometryTextureType.LINEAR_VELOCITY },
      ],
    });
    runTasks(engine, [task]);
    secondPose(built);
    runTasks(engine, [task]);
    const outputs: Uint8Array[] = [];
    for (const target of [
      task.geometryWorldPositionTexture!,
      task.geometryWorldNormalTexture!,
      task.geometryLinearVelocityTexture!,
    ])
      outputs.push(await readRenderTargetPixelsAsync(target));
    return outputs;
  });
}

function differingBytes(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let count = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) count++;
  return count;
}

/** A world triangle list in float64: one entry per (mesh, instance). */
interface ReferenceBody {
  key: string;
  triangles: number[][];
}

const apply = (m: ArrayLike<number>, p: readonly number[]): number[] =>
  [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);

function trianglesOf(indices: ArrayLike<number>, world: number[][]): number[][] {
  const out: number[][] = [];
  for (let f = 0; f < indices.length; f += 3)
    out.push([...world[indices[f]], ...world[indices[f + 1]], ...world[indices[f + 2]]]);
  return out;
}

/** The morphed sphere in float64: rest position + Σ weight · delta, then the world matrix. */
function morphReference(weights: readonly number[]): ReferenceBody {
  const { data, positions } = morphedSphere();
  const base = data.positions!;
  const world: number[][] = [];
  for (let v = 0; v < base.length / 3; v++) {
    const p = [base[v * 3], base[v * 3 + 1], base[v * 3 + 2]];
    positions.forEach((delta, t) => {
      for (let c = 0; c < 3; c++) p[c] += Math.fround(weights[t]) * delta[v * 3 + c];
    });
    world.push(apply(morphWorld, p));
  }
  return { key: 'morphed', triangles: trianglesOf(data.indices!, world) };
}

/** Each crowd member in float64: Σ clip weight · Σ influence weight · bone(row, joint) · p, then world × instance. */
function crowdReference(time: number): ReferenceBody[] {
  const data = twoBoneBox();
  const frames = crowdFrames();
  const { matrices, playback } = crowdInstances();
  playback[2 * 12 + 8] = 0.4;
  playback.set([2, 3, 0.25, 1], 2 * 12 + 4);
  const base = data.positions!;
  return Array.from({ length: matrices.length / 16 }, (_, i) => {
    const record = playback.subarray(i * 12, i * 12 + 12);
    const rows = [
      clipRow(record[0], record[1], record[2], record[3], time),
      clipRow(record[4], record[5], record[6], record[7], time),
    ];
    const clipWeights = [1 - record[8], record[8]];
    const instance = matrices.subarray(i * 16, i * 16 + 16);
    const world: number[][] = [];
    for (let v = 0; v < base.length / 3; v++) {
      const p = [base[v * 3], base[v * 3 + 1], base[v * 3 + 2]];
      const sum = [0, 0, 0];
      rows.forEach((row, c) => {
        for (let k = 0; k < 4; k++) {
          const w = data.weights![v * 4 + k] * clipWeights[c];
          if (!w) continue;
          const at = (row * 2 + data.joints![v * 4 + k]) * 16;
          const moved = apply(frames.subarray(at, at + 16), p);
          for (let r = 0; r < 3; r++) sum[r] += w * moved[r];
        }
      });
      world.push(apply(crowdWorld, apply(instance, sum)));
    }
    return { key: `crowd#${i}`, triangles: trianglesOf(data.indices!, world) };
  });
}

/** The skinned box of the second pose in float64: p + 0.8 · delta, then Σ weight · bone · p, then the world matrix. */
function skinnedReference(): ReferenceBody {
  const { data, delta } = skinnedBox();
  const base = data.positions!;
  const bones = [mat4.identity() as Float32Array, upperBone(1)];
  const world: number[][] = [];
  for (let v = 0; v < base.length / 3; v++) {
    const p = [0, 1, 2].map((c) => base[v * 3 + c] + Math.fround(0.8) * delta[v * 3 + c]);
    const sum = [0, 0, 0];
    for (let k = 0; k < 4; k++) {
      const w = data.weights![v * 4 + k];
      if (!w) continue;
      const moved = apply(bones[data.joints![v * 4 + k]], p);
      for (let r = 0; r < 3; r++) sum[r] += w * moved[r];
    }
    world.push(apply(skinnedWorld, sum));
  }
  return { key: 'skinned', triangles: trianglesOf(data.indices!, world) };
}

/** Möller–Trumbore in float64, both faces: the distance along the ray, or null. */
function rayTriangle(origin: Vec3, direction: Vec3, t: number[]): number | null {
  const e1 = [t[3] - t[0], t[4] - t[1], t[5] - t[2]];
  const e2 = [t[6] - t[0], t[7] - t[1], t[8] - t[2]];
  const p = [
    direction[1] * e2[2] - direction[2] * e2[1],
    direction[2] * e2[0] - direction[0] * e2[2],
    direction[0] * e2[1] - direction[1] * e2[0],
  ];
  const det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
  if (Math.abs(det) < 1e-14) return null;
  const s = [origin[0] - t[0], origin[1] - t[1], origin[2] - t[2]];
  const u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) / det;
  if (u < 0 || u > 1) return null;
  const q = [s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]];
  const v = (direction[0] * q[0] + direction[1] * q[1] + direction[2] * q[2]) / det;
  if (v < 0 || u + v > 1) return null;
  const distance = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
  return distance > 0 ? distance : null;
}

/** The nearest body the ray through framebuffer point (x + 0.5, y + 0.5) meets, or null. */
function castBodies(bodies: readonly ReferenceBody[], x: number, y: number): string | null {
  const ray = cameraPixelRay(camera, x, y, size[0], size[1]);
  let best: { key: string; distance: number } | null = null;
  for (const body of bodies)
    for (const triangle of body.triangles) {
      const distance = rayTriangle(ray.origin, ray.direction, triangle);
      if (distance !== null && (!best || distance < best.distance)) best = { key: body.key, distance };
    }
  return best?.key ?? null;
}

/**
 * Pixel centres (framebuffer points) where the reference answer is the same 0.05 px to every side and diagonal: away
 * from silhouettes, so a float32 rasterizer and a float64 ray agree on what covers them.
 */
function steadyPixels(bodies: readonly ReferenceBody[]): { x: number; y: number; want: string | null }[] {
  const pixels: { x: number; y: number; want: string | null }[] = [];
  const offsets = [-0.05, 0, 0.05].flatMap((dx) => [-0.05, 0, 0.05].map((dy) => [dx, dy]));
  for (let y = 0; y < size[1]; y++)
    for (let x = 0; x < size[0]; x++) {
      const want = castBodies(bodies, x, y);
      if (offsets.every(([dx, dy]) => castBodies(bodies, x + dx, y + dy) === want))
        pixels.push({ x: x + 0.5, y: y + 0.5, want });
    }
  return pixels;
}

describe('morph targets and VAT on a compatibility-mode device', () => {
  test('the forward frame equals a core device’s, byte for byte', async () => {
    const core = await forwardFrameAsync('core');
    const compatibility = await forwardFrameAsync('compatibility');
    // Tolerance: none (same floats in, same rasterizer).
    expect(differingBytes(core, compatibility)).toBe(0);
    // The frame is not all background: the most common pixel is the clear colour, the meshes cover many others.
    const pixels = new Uint32Array(core.buffer, core.byteOffset, core.byteLength / 4);
    const counts = new Map<number, number>();
    for (const p of pixels) counts.set(p, (counts.get(p) ?? 0) + 1);
    expect(pixels.length - Math.max(...counts.values())).toBeGreaterThan(600);
  }, 120_000);

  test('a VAT crowd that grows (new playback texture) still draws as on a core device', async () => {
    const grownFrame = (kind: DeviceKind) =>
      onEngineAsync(kind, size, async (engine) => {
        const built = buildScene(engine);
        renderFrame(built.scene);
        const { matrices, playback } = crowdInstances();
        const grown = new Float32Array(7 * 16);
        const grownPlayback = new Float32Array(7 * 12);
        grown.set(matrices);
        grownPlayback.set(playback);
        for (const i of [5, 6]) {
          grown.set(mat4.translation([-2.4 + 1.2 * (i - 5), 1.6, -1]), i * 16);
          grownPlayback.set([0, 3, 0.5 * i, 1, 1, 2, 0, 1, 0.5, 0, 0, 0], i * 12);
        }
        setThinInstances(built.crowd, grown, grownPlayback);
        renderFrame(built.scene);
        if (kind === 'compatibility') expect(built.crowd.deformationGpu!.vatPlaybackTexture!.width).toBe(21);
        return readEngineFrameAsync(engine);
      });
    const core = await grownFrame('core');
    expect(differingBytes(core, await grownFrame('compatibility'))).toBe(0);
  }, 120_000);

  test('the G-buffer (world position, world normal, velocity from the previous pose) equals a core device’s', async () => {
    const core = await geometryOutputsAsync('core');
    const compatibility = await geometryOutputsAsync('compatibility');
    const moving = new Float32Array(core[0].buffer).filter((_, i) => i % 4 === 3 && _ === 1).length;
    expect(moving, 'covered pixels').toBeGreaterThan(200);
    core.forEach((bytes, k) => expect(differingBytes(bytes, compatibility[k]), `output ${k}`).toBe(0));
    // The velocity output is not all zero: the deformation history is read (rgba16float: any non-zero half).
    expect(core[2].some((b) => b !== 0)).toBe(true);
  }, 120_000);

  test('identity picks agree with a float64 ray cast at pixels 0.05 px or more from any silhouette', async () => {
    await onEngineAsync('compatibility', size, async (engine) => {
      const built = buildScene(engine);
      secondPose(built);
      renderFrame(built.scene);
      const pixels = steadyPixels([morphReference(secondWeights), ...crowdReference(1.9), skinnedReference()]);
      const picker = createGpuPicker(built.scene);
      try {
        const infos = await pickManyAsync(picker, pixels);
        const wrong: string[] = [];
        const seen = new Set<string>();
        infos.forEach((info, i) => {
          const got = info.hit
            ? `${info.pickedMesh?.name}${info.thinInstanceIndex >= 0 ? `#${info.thinInstanceIndex}` : ''}`
            : null;
          if (got) seen.add(got);
          if (got !== pixels[i].want) wrong.push(`(${pixels[i].x}, ${pixels[i].y}): ${got} != ${pixels[i].want}`);
        });
        expect(wrong).toEqual([]);
        expect(pixels.filter((p) => p.want).length, 'steady pixels on a body').toBeGreaterThan(300);
        // Every body was hit somewhere: the morphed sphere, all five crowd members and the morphed, skinned box.
        expect([...seen].sort()).toEqual(['crowd#0', 'crowd#1', 'crowd#2', 'crowd#3', 'crowd#4', 'morphed', 'skinned']);
      } finally {
        disposeGpuPicker(picker);
      }
    });
  }, 180_000);

  test('a host drawable with morph targets is picked there; morph deltas given as a GPUBuffer are a PickError', async () => {
    await onEngineAsync('compatibility', size, async (engine) => {
      const device = engine.device;
      const sphere = morphedSphere();
      const upload = (data: ArrayBufferView, usage: number, label: string) => {
        const buffer = device.createBuffer({ label, size: Math.ceil(data.byteLength / 4) * 4, usage: usage | 8 });
        device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, data.byteLength);
        return buffer;
      };
      const vertexBuffer = upload(sphere.data.positions!, GPUBufferUsage.VERTEX, 'host:positions');
      const indexBuffer = upload(sphere.data.indices as Uint16Array, GPUBufferUsage.INDEX, 'host:indices');
      const host = { id: 'host sphere' };
      const drawable: PickDrawable<typeof host> = {
        object: host,
        vertexBuffers: [
          {
            buffer: vertexBuffer,
            data: sphere.data.positions!,
            arrayStride: 12,
            attributes: { position: { format: 'float32x3', offset: 0 } },
          },
        ],
        index: { buffer: indexBuffer, data: sphere.data.indices as Uint16Array },
        worldMatrix: morphWorld,
        morph: { positions: sphere.positions, weights: secondWeights },
      };
      const drawables = createDrawableScene<typeof host>(engine);
      drawables.scene.camera = makePerspectiveCamera({
        position: [...camera.position],
        target: [...camera.target],
        fovY: camera.fovY,
      });
      const picker = createGpuPicker(drawables.scene);
      try {
        const deltaBuffer = upload(sphere.positions[0], GPUBufferUsage.STORAGE, 'host:morph-deltas');
        const refused = (() => {
          try {
            const positions = [deltaBuffer, ...sphere.positions.slice(1)] as unknown as Float32Array[];
            syncDrawableScene(drawables, [{ ...drawable, morph: { positions, weights: secondWeights } }]);
            return null;
          } catch (error) {
            return error;
          }
        })();
        deltaBuffer.destroy();
        expect(refused).toBeInstanceOf(PickError);
        expect((refused as PickError).code).toBe('bad-option');
        expect((refused as PickError).message).toContain('morph.positions[0] is a GPUBuffer');
        expect(drawables.scene.meshes).toEqual([]);
        // The same drawable with its deltas as CPU data: picked where the float64 reference says.
        syncDrawableScene(drawables, [drawable]);
        expect(drawables.scene.meshes[0].deformationGpu).toBeNull();
        const pixels = steadyPixels([{ ...morphReference(secondWeights), key: 'host sphere' }]);
        const infos = await pickManyAsync(picker, pixels);
        expect(drawables.scene.meshes[0].deformationGpu?.morphDeltaTexture).toBeTruthy();
        const wrong = infos.flatMap((info, i) => {
          const got = pickedObjectOf(drawables, info)?.object.id ?? null;
          return got === pixels[i].want ? [] : [`(${pixels[i].x}, ${pixels[i].y}): ${got} != ${pixels[i].want}`];
        });
        expect(wrong).toEqual([]);
        expect(pixels.filter((p) => p.want).length).toBeGreaterThan(100);
      } finally {
        disposeGpuPicker(picker);
        disposeDrawableScene(drawables);
        vertexBuffer.destroy();
        indexBuffer.destroy();
      }
    });
  }, 120_000);

  test('morph data no texture of the device can hold is a MeshDataError naming the limit; the next frame works', async () => {
    await onEngineAsync('compatibility', [16, 16], async (engine) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 5], target: [0, 0, 0] });
      const max = engine.device.limits.maxTextureDimension2D;
      // Vertices × targets just over max × max texels (one delta array shared by every target: little memory).
      const vertices = max - (max % 3) + 3;
      const targets = Math.floor((max * max) / vertices) + 1;
      expect(vertices * targets).toBeGreaterThan(max * max);
      const positions = new Float32Array(vertices * 3);
      for (let v = 0; v < vertices; v++) positions.set([v % 7, (v * 3) % 5, v % 3], v * 3);
      const delta = new Float32Array(vertices * 3);
      let refused: unknown = null;
      try {
        createMeshFromData(
          scene,
          'too-many-targets',
          { positions },
          { morphTargets: { positions: Array.from({ length: targets }, () => delta) } },
        );
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(MeshDataError);
      const error = refused as MeshDataError;
      expect(error.code).toBe('mesh-data');
      expect(error.meshName).toBe('too-many-targets');
      expect(error.message).toContain(`maxTextureDimension2D ${max}`);
      expect(error.message).toContain('maxStorageBuffersInVertexStage 0');
      expect(error.message).toMatch(/fewer targets/);
      expect(scene.meshes).toEqual([]);
      // The next frame works: a morphed mesh that fits is drawn and picked.
      const fits = morphedSphere();
      const mesh = createMeshFromData(scene, 'fits', fits.data, {
        morphTargets: { positions: fits.positions },
        morphWeights: [0.5, 0.5, 0.5, 0.5],
      });
      renderFrame(scene);
      const picker = createGpuPicker(scene);
      try {
        const [info] = await pickManyAsync(picker, [{ x: 8, y: 8 }]);
        expect(info.pickedMesh).toBe(mesh);
      } finally {
        disposeGpuPicker(picker);
      }
    });
  }, 120_000);
});
