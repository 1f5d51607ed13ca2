import { mat4 } from 'wgpu-matrix';
import {
  createMeshFromData,
  createScene,
  type Engine,
  makeBoxData,
  makeBunnyDataAsync,
  makePerspectiveCamera,
  makeSphereData,
  makeStandardMaterial,
  makeTorusData,
  type Mesh,
  type MeshData,
  readRenderTargetPixelsAsync,
  type RenderTarget,
  type Scene,
  setCameraOrbit,
  type PerspectiveCamera,
} from '../../../engine/index.js';
import { createReferenceScene, type ReferenceMesh, type ReferenceScene } from '../../support/reference-raycast.js';
import { makeRandom as seededRandom } from '../../support/random.js';

/** Decodes an IEEE half float. */
export function halfToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

/** An attachment read back as numbers: `channels` values per pixel, rows top to bottom. */
export interface Pixels {
  width: number;
  height: number;
  channels: number;
  values: Float64Array;
  at(x: number, y: number): number[];
}

const layouts: Record<string, { channels: number; decode: (bytes: Uint8Array) => ArrayLike<number> }> = {
  rgba32float: { channels: 4, decode: (b) => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4) },
  r32float: { channels: 1, decode: (b) => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4) },
  rg32uint: { channels: 2, decode: (b) => new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4) },
  r32uint: { channels: 1, decode: (b) => new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4) },
  rgba32uint: { channels: 4, decode: (b) => new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4) },
  rgba16float: {
    channels: 4,
    decode: (b) => Array.from(new Uint16Array(b.buffer, b.byteOffset, b.byteLength / 2), halfToFloat),
  },
  r16float: {
    channels: 1,
    decode: (b) => Array.from(new Uint16Array(b.buffer, b.byteOffset, b.byteLength / 2), halfToFloat),
  },
  rgba8unorm: { channels: 4, decode: (b) => Array.from(b, (v) => v / 255) },
  r8uint: { channels: 1, decode: (b) => b },
  depth32float: { channels: 1, decode: (b) => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4) },
};

/** Wraps decoded values. */
export function makePixels(width: number, height: number, channels: number, values: ArrayLike<number>): Pixels {
  const data = Float64Array.from(values);
  return {
    width,
    height,
    channels,
    values: data,
    at: (x, y) => Array.from(data.subarray((y * width + x) * channels, (y * width + x + 1) * channels)),
  };
}

/** Reads a render target's (resolved) colour attachment and decodes it by format. */
export async function readPixels(target: RenderTarget): Promise<Pixels> {
  const format = target.colorFormats[0];
  const layout = layouts[format];
  if (!layout) throw new Error(`readPixels: no decoder for ${format}`);
  const bytes = await readRenderTargetPixelsAsync(target);
  return makePixels(target.width, target.height, layout.channels, layout.decode(new Uint8Array(bytes.slice().buffer)));
}

/** Decodes raw bytes of a known format. */
export function decodePixels(format: string, width: number, height: number, bytes: Uint8Array): Pixels {
  const layout = layouts[format];
  return makePixels(width, height, layout.channels, layout.decode(new Uint8Array(bytes.slice().buffer)));
}

export { seededRandom };

/** A generated scene: meshes with distinct colours, some thin-instanced, one without normals, and its ray-cast reference. */
export interface GeneratedGeometryScene {
  scene: Scene;
  reference: ReferenceScene;
  meshes: Mesh[];
  colors: Map<number, [number, number, number, number]>;
  withNormals: Set<number>;
}

/** Eight meshes (sphere, box, torus, bunny; non-uniform scales, thin instances, one normal-less box), random camera. */
export async function generateGeometryScene(
  engine: Engine,
  seed: number,
  options: { far?: number } = {},
): Promise<GeneratedGeometryScene> {
  const random = seededRandom(seed);
  const scene = createScene(engine);
  const bunny = await makeBunnyDataAsync();
  const flatBox = makeBoxData();
  const shapes: [string, MeshData][] = [
    ['sphere', makeSphereData({ radius: 0.5, segments: 24, rings: 12 })],
    ['box', makeBoxData()],
    ['torus', makeTorusData({ radius: 0.45, tube: 0.15 })],
    ['bunny', bunny],
    ['flat', { positions: flatBox.positions, indices: flatBox.indices }],
  ];
  const references: ReferenceMesh[] = [];
  const meshes: Mesh[] = [];
  const colors = new Map<number, [number, number, number, number]>();
  const withNormals = new Set<number>();
  for (let i = 0; i < 8; i++) {
    const [kind, data] = shapes[i % shapes.length];
    const scale: [number, number, number] = [0.6 + random(), 0.6 + random(), 0.6 + random()];
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
        instances[k * 16 + 3] = random() * 100; // payload lane: must not move the instance
      }
    }
    const color: [number, number, number, number] = [
      0.2 + 0.8 * random(),
      0.2 + 0.8 * random(),
      0.2 + 0.8 * random(),
      1,
    ];
    const mesh = createMeshFromData(scene, `${kind}${i}`, data, {
      worldMatrix: world,
      thinInstances: instances,
      material: makeStandardMaterial({ baseColor: color }),
    });
    meshes.push(mesh);
    colors.set(mesh.uniqueId, color);
    if (data.normals) withNormals.add(mesh.uniqueId);
    references.push({
      id: mesh.uniqueId,
      positions: data.positions!,
      indices: data.indices ?? null,
      normals: data.normals ?? null,
      worldMatrix: new Float32Array(world),
      thinInstances: instances ?? null,
      doubleSided: false,
    });
  }
  scene.camera = makePerspectiveCamera({ fovY: 0.6 + random() * 0.6, near: 0.1, far: options.far ?? Infinity });
  setCameraOrbit(scene.camera, {
    target: [0, 0, 0],
    radius: 4.5 + random() * 2,
    yaw: random() * 6.28,
    pitch: (random() - 0.5) * 1.2,
  });
  return { scene, reference: createReferenceScene(references), meshes, colors, withNormals };
}

/** Counts create* calls on the device and createView on textures while `body` runs. */
export async function countCreates<T>(
  device: GPUDevice,
  sampleTexture: GPUTexture,
  body: () => T | Promise<T>,
): Promise<{ result: T; counts: Record<string, number> }> {
  const counts: Record<string, number> = {};
  const restore: (() => void)[] = [];
  const patch = (owner: object, key: string) => {
    const target = owner as Record<string, (...args: unknown[]) => unknown>;
    const original = target[key];
    target[key] = function (this: unknown, ...args: unknown[]) {
      counts[key] = (counts[key] ?? 0) + 1;
      return original.apply(this, args);
    };
    restore.push(() => {
      target[key] = original;
    });
  };
  for (const key of [
    'createBuffer',
    'createTexture',
    'createBindGroup',
    'createBindGroupLayout',
    'createPipelineLayout',
    'createShaderModule',
    'createRenderPipeline',
    'createRenderPipelineAsync',
    'createSampler',
    'createQuerySet',
  ])
    patch(device, key);
  patch(Object.getPrototypeOf(sampleTexture), 'createView');
  try {
    return { result: await body(), counts };
  } finally {
    for (const undo of restore) undo();
  }
}

/** World → view and view-projection matrices of a scene camera at an aspect ratio. */
export function cameraMatrices(scene: Scene, aspect: number): { view: Float32Array; viewProjection: Float32Array } {
  const camera = scene.camera as PerspectiveCamera;
  const view = mat4.lookAt(camera.position, camera.target, camera.up);
  const projection = mat4.perspectiveReverseZ(camera.fovY, aspect, camera.near, camera.far);
  return { view, viewProjection: mat4.multiply(projection, view) };
}
