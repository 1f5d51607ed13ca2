// The pick-source seam: a scene that is not a weft scene — plain WebGPU buffers made here, an interleaved drawable, an
// instanced one with its own instance buffer, a skinned one — picked through `syncDrawableScene` and checked pixel by
// pixel against a float64 ray cast written in this file (triangles transformed and skinned in float64 from the same
// numbers the buffers hold), through a perspective and an orthographic camera, on both detail paths.
import { describe, expect } from 'vitest';
import {
  type Engine,
  ensureMeshGpu,
  MeshDataError,
  makeOrthographicCamera,
  makePerspectiveCamera,
} from '../../../engine/index.js';
import { makeBoxData } from '../../../engine/primitives/box.js';
import { pickSync } from '../../../picking/cpu/index.js';
import {
  createDrawableScene,
  createGpuPicker,
  type DrawableScene,
  disposeDrawableScene,
  disposeGpuPicker,
  enableDetailedPicking,
  PickError,
  type PickDrawable,
  type PickingInfo,
  pickedObjectOf,
  pickManyAsync,
  pickRectAsync,
  syncDrawableScene,
} from '../../../picking/index.js';
import { orthographicPixelRay } from '../../support/camera-matrices64.js';
import { cameraPixelRay } from '../../support/camera-rays.js';
import { gpuTest } from '../../support/gpu.js';

type Vec3 = [number, number, number];
type Mat = number[]; // column-major 4×4, float64
const size: [number, number] = [64, 48];

const identity: Mat = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
function multiply(a: Mat, b: Mat): Mat {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return out;
}
const translation = (x: number, y: number, z: number): Mat => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1];
const scaling = (s: number): Mat => [s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1];
function rotationY(a: number): Mat {
  const c = Math.cos(a);
  const s = Math.sin(a);
  return [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1];
}
function rotationZ(a: number): Mat {
  const c = Math.cos(a);
  const s = Math.sin(a);
  return [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
}
const transform = (m: Mat, p: readonly number[]): Vec3 => [
  m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12],
  m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
  m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14],
];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const unit = (a: Vec3): Vec3 => {
  const l = Math.hypot(...a);
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** A unit cube's 24 corners (4 per face, each face its own normal) and 12 counter-clockwise triangles, as numbers. */
function cube(): { positions: number[]; normals: number[]; indices: number[] } {
  const box = makeBoxData();
  return { positions: [...box.positions!], normals: [...box.normals!], indices: [...box.indices!] };
}

/** A square column from y = −1 to 1 in two segments (rings at −1, 0, 1), capped: the skinned drawable. */
function column(): { positions: number[]; joints: number[]; weights: number[]; indices: number[] } {
  const positions: number[] = [];
  const joints: number[] = [];
  const weights: number[] = [];
  const corners: Array<[number, number]> = [
    [-0.3, 0.3],
    [0.3, 0.3],
    [0.3, -0.3],
    [-0.3, -0.3],
  ];
  for (const [ring, y] of [-1, 0, 1].entries()) {
    for (const [x, z] of corners) {
      positions.push(x, y, z);
      joints.push(0, 1, 0, 0);
      const top = ring === 2 ? 1 : ring === 1 ? 0.5 : 0;
      weights.push(1 - top, top, 0, 0);
    }
  }
  const indices: number[] = [];
  for (let ring = 0; ring < 2; ring++)
    for (let side = 0; side < 4; side++) {
      const a = ring * 4 + side;
      const b = ring * 4 + ((side + 1) % 4);
      // Counter-clockwise seen from outside.
      indices.push(a, b, b + 4, a, b + 4, a + 4);
    }
  indices.push(0, 3, 2, 0, 2, 1, 8, 9, 10, 8, 10, 11);
  return { positions, joints, weights, indices };
}

interface Host {
  drawables: PickDrawable<string>[];
  /** World triangles per object and instance, float64: [object, instance, face, A0, A1, A2]. */
  triangles: Array<{ object: string; instance: number; face: number; corners: [Vec3, Vec3, Vec3] }>;
  buffers: GPUBuffer[];
}

function gpuBuffer(device: GPUDevice, label: string, data: ArrayBufferView, usage: number): GPUBuffer {
  const buffer = device.createBuffer({
    label,
    size: Math.ceil(data.byteLength / 4) * 4,
    usage: usage | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, Math.ceil(data.byteLength / 4) * 4);
  return buffer;
}

/** The host's scene: its own buffers on the engine's device and the float64 triangles they draw. */
function makeHost(device: GPUDevice, storage = true): Host {
  const vertexUsage = GPUBufferUsage.VERTEX | (storage ? GPUBufferUsage.STORAGE : 0);
  const indexUsage = GPUBufferUsage.INDEX | (storage ? GPUBufferUsage.STORAGE : 0);
  const box = cube();
  const triangles: Host['triangles'] = [];
  const buffers: GPUBuffer[] = [];
  const addTriangles = (object: string, instance: number, world: Mat, positions: Vec3[], indices: number[]) => {
    for (let f = 0; f < indices.length / 3; f++)
      triangles.push({
        object,
        instance,
        face: f,
        corners: [0, 1, 2].map((k) => transform(world, positions[indices[f * 3 + k]])) as [Vec3, Vec3, Vec3],
      });
  };
  const boxPositions = Array.from({ length: box.positions.length / 3 }, (_, v) =>
    box.positions.slice(v * 3, v * 3 + 3),
  ) as Vec3[];

  // Interleaved position + normal, 16-bit indices.
  const interleaved = new Float32Array(24 * 6);
  for (let v = 0; v < 24; v++) {
    interleaved.set(box.positions.slice(v * 3, v * 3 + 3), v * 6);
    interleaved.set(box.normals.slice(v * 3, v * 3 + 3), v * 6 + 3);
  }
  const indices16 = Uint16Array.from(box.indices);
  const plainWorld = multiply(translation(-1.45, 0.1, 0), multiply(rotationY(0.6), scaling(1.1)));
  const plainVertices = gpuBuffer(device, 'host:plain:vertices', interleaved, vertexUsage);
  const plainIndices = gpuBuffer(device, 'host:plain:indices', indices16, indexUsage);
  buffers.push(plainVertices, plainIndices);
  addTriangles('plain', -1, plainWorld, boxPositions, box.indices);

  // Two vertex buffers (positions, normals), 32-bit indices, three instances in the host's instance buffer.
  const positions = Float32Array.from(box.positions);
  const normals = Float32Array.from(box.normals);
  const indices32 = Uint32Array.from(box.indices);
  const instanced = [0.95, 0, -0.95].map((y, i) =>
    multiply(translation(1.4, y, 0.2 * i), multiply(rotationY(-0.5 + 0.4 * i), scaling(0.7))),
  );
  const matrices = new Float32Array(instanced.flat());
  const instancedBuffers = [
    gpuBuffer(device, 'host:instanced:positions', positions, vertexUsage),
    gpuBuffer(device, 'host:instanced:normals', normals, vertexUsage),
    gpuBuffer(device, 'host:instanced:indices', indices32, indexUsage),
    gpuBuffer(device, 'host:instanced:matrices', matrices, GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE),
  ];
  buffers.push(...instancedBuffers);
  // Float32 matrices are what the GPU draws: the reference uses the same rounded numbers.
  instanced.forEach((_, i) =>
    addTriangles('instanced', i, Array.from(matrices.subarray(i * 16, i * 16 + 16)), boxPositions, box.indices),
  );

  // Skinned: positions in one buffer, joints (uint16x4) + weights (float32x4) interleaved in another.
  const col = column();
  const skinBytes = new ArrayBuffer(12 * 24);
  const skinJoints = new Uint16Array(skinBytes);
  const skinWeights = new Float32Array(skinBytes);
  for (let v = 0; v < 12; v++) {
    skinJoints.set(col.joints.slice(v * 4, v * 4 + 4), v * 12);
    skinWeights.set(col.weights.slice(v * 4, v * 4 + 4), v * 6 + 2);
  }
  const bones = [identity, multiply(translation(0.05, 0.1, 0), rotationZ(0.45))];
  const boneMatrices = new Float32Array(bones.flat());
  const skinnedWorld = translation(0, -0.1, 0.3);
  const columnPositions = Float32Array.from(col.positions);
  const skinnedBuffers = [
    gpuBuffer(device, 'host:skinned:positions', columnPositions, vertexUsage),
    gpuBuffer(device, 'host:skinned:skin', new Uint8Array(skinBytes), vertexUsage),
    gpuBuffer(device, 'host:skinned:indices', Uint16Array.from(col.indices), indexUsage),
  ];
  buffers.push(...skinnedBuffers);
  const skinned = Array.from({ length: 12 }, (_, v) => {
    const p = col.positions.slice(v * 3, v * 3 + 3);
    const out: Vec3 = [0, 0, 0];
    for (let k = 0; k < 4; k++) {
      const w = col.weights[v * 4 + k];
      if (w === 0) continue;
      const bone = Array.from(boneMatrices.subarray(col.joints[v * 4 + k] * 16, col.joints[v * 4 + k] * 16 + 16));
      const q = transform(bone, p);
      for (let c = 0; c < 3; c++) out[c] += w * q[c];
    }
    return out;
  });
  addTriangles('skinned', -1, skinnedWorld, skinned, col.indices);

  const drawables: PickDrawable<string>[] = [
    {
      object: 'plain',
      vertexBuffers: [
        {
          buffer: plainVertices,
          data: interleaved,
          arrayStride: 24,
          attributes: { position: { format: 'float32x3', offset: 0 }, normal: { format: 'float32x3', offset: 12 } },
        },
      ],
      index: { buffer: plainIndices, data: indices16 },
      worldMatrix: plainWorld,
    },
    {
      object: 'instanced',
      vertexBuffers: [
        {
          buffer: instancedBuffers[0],
          data: positions,
          arrayStride: 12,
          attributes: { position: { format: 'float32x3', offset: 0 } },
        },
        {
          buffer: instancedBuffers[1],
          data: normals,
          arrayStride: 12,
          attributes: { normal: { format: 'float32x3', offset: 0 } },
        },
      ],
      index: { buffer: instancedBuffers[2], data: indices32 },
      worldMatrix: identity,
      instances: { matrices, version: 1, buffer: instancedBuffers[3] },
    },
    {
      object: 'skinned',
      vertexBuffers: [
        {
          buffer: skinnedBuffers[0],
          data: columnPositions,
          arrayStride: 12,
          attributes: { position: { format: 'float32x3', offset: 0 } },
        },
        {
          buffer: skinnedBuffers[1],
          data: skinBytes,
          arrayStride: 24,
          attributes: { joints: { format: 'uint16x4', offset: 0 }, weights: { format: 'float32x4', offset: 8 } },
        },
      ],
      index: { buffer: skinnedBuffers[2], data: Uint16Array.from(col.indices) },
      worldMatrix: skinnedWorld,
      skin: { boneMatrices, version: 1 },
    },
  ];
  return { drawables, triangles, buffers };
}

interface ReferenceHit {
  object: string;
  instance: number;
  face: number;
  t: number;
  bu: number;
  bv: number;
  point: Vec3;
  /** Geometric normal on the side the ray came from. */
  normal: Vec3;
}

/**
 * The nearest triangle the ray crosses (float64, both sides: every mesh here is closed and seen from outside), or null
 * when the pixel is within `margin` (barycentric) of an edge of any triangle at least as near: those pixels are left
 * out, where rasterisation and a ray cast may fairly differ.
 */
function castReference(host: Host, origin: Vec3, direction: Vec3, margin = 0.02): ReferenceHit | null | 'edge' {
  let best: ReferenceHit | null = null;
  const near: number[] = [];
  for (const tri of host.triangles) {
    const [a, b, c] = tri.corners;
    const e1 = sub(b, a);
    const e2 = sub(c, a);
    const p = cross(direction, e2);
    const det = dot(e1, p);
    if (Math.abs(det) < 1e-14) continue;
    const s = sub(origin, a);
    const u = dot(s, p) / det;
    const q = cross(s, e1);
    const v = dot(direction, q) / det;
    const t = dot(e2, q) / det;
    if (t <= 0) continue;
    const w = 1 - u - v;
    const inside = Math.min(u, v, w);
    if (inside < -margin) continue;
    near.push(t);
    if (inside < margin) {
      if (!best || t <= best.t + 1e-9) best = null;
      near.push(-t); // remember an edge at this depth
      continue;
    }
    if (best && best.t <= t) continue;
    const n = unit(cross(e1, e2));
    // PickingInfo barycentrics: A = bu·A0 + bv·A1 + (1 − bu − bv)·A2; the hit is w·A0 + u·A1 + v·A2.
    best = {
      object: tri.object,
      instance: tri.instance,
      face: tri.face,
      t,
      bu: w,
      bv: u,
      point: [0, 1, 2].map((k) => origin[k] + t * direction[k]) as Vec3,
      normal: dot(n, direction) > 0 ? [-n[0], -n[1], -n[2]] : n,
    };
  }
  if (!best) return near.some((t) => t < 0) ? 'edge' : null;
  // An edge at or in front of the hit (within a small depth slack) makes the pixel ambiguous.
  if (near.some((t) => t < 0 && -t <= best.t + 1e-6)) return 'edge';
  return best;
}

function checkPick(info: PickingInfo, target: DrawableScene<string>, hit: ReferenceHit, label: string): string | null {
  const picked = pickedObjectOf(target, info);
  if (!info.hit || !picked) return `${label}: missed ${hit.object}#${hit.instance}`;
  if (picked.object !== hit.object || picked.instance !== hit.instance)
    return `${label}: ${picked.object}#${picked.instance} instead of ${hit.object}#${hit.instance}`;
  if (info.faceId !== hit.face) return `${label}: face ${info.faceId} instead of ${hit.face}`;
  if (Math.abs(info.bu - hit.bu) > 2e-4 || Math.abs(info.bv - hit.bv) > 2e-4)
    return `${label}: barycentrics (${info.bu}, ${info.bv}) instead of (${hit.bu}, ${hit.bv})`;
  const p = info.pickedPoint!;
  const off = Math.hypot(p[0] - hit.point[0], p[1] - hit.point[1], p[2] - hit.point[2]);
  if (off > 1e-4 * hit.t) return `${label}: point off by ${off} at distance ${hit.t}`;
  const n = info.pickedFaceNormalWorld!;
  if (dot(unit(n as Vec3), hit.normal) < Math.cos(1e-3)) return `${label}: face normal ${n} instead of ${hit.normal}`;
  if (hit.object !== 'skinned') {
    // Boxes: the interpolated vertex normal is the face normal.
    const vertexNormal = info.pickedNormalWorld!;
    if (dot(unit(vertexNormal as Vec3), hit.normal) < Math.cos(1e-3))
      return `${label}: vertex normal ${vertexNormal} instead of ${hit.normal}`;
  }
  return null;
}

const perspective = { position: [0.3, 1.2, 6], target: [0, 0, 0], fovY: Math.PI / 4 };
const ortho = { position: [0.4, 1.5, 6], target: [0, 0, 0], height: 4.2, near: 0.1, far: 50 };

function referenceRay(kind: 'perspective' | 'orthographic', x: number, y: number) {
  return kind === 'perspective'
    ? cameraPixelRay(
        { position: perspective.position as Vec3, target: perspective.target as Vec3, fovY: perspective.fovY },
        x,
        y,
        size[0],
        size[1],
      )
    : orthographicPixelRay(ortho, x + 0.5, y + 0.5, size[0], size[1]);
}

/** Spies on buffer creation while `body` runs: what the picker allocates on the device. */
async function countAllocations<T>(engine: Engine, body: () => Promise<T>) {
  const device = engine.device;
  const made: { label: string; size: number }[] = [];
  const original = device.createBuffer.bind(device);
  device.createBuffer = (descriptor: GPUBufferDescriptor) => {
    made.push({ label: descriptor.label ?? '', size: descriptor.size });
    return original(descriptor);
  };
  try {
    return { result: await body(), made };
  } finally {
    device.createBuffer = original;
  }
}

describe('pick-source seam: a host scene of plain WebGPU buffers is picked exactly, drawn where it lives', () => {
  for (const method of ['primitive-index', 'vertex-index'] as const)
    for (const kind of ['perspective', 'orthographic'] as const)
      gpuTest(
        `${kind} camera, ${method} detail: identity, instance, face, barycentrics, point and normals at every interior pixel`,
        async ({ engine }) => {
          const host = makeHost(engine.device);
          const camera =
            kind === 'perspective'
              ? makePerspectiveCamera({ ...perspective, near: 0.1 })
              : makeOrthographicCamera(ortho);
          const target = createDrawableScene<string>(engine, camera);
          syncDrawableScene(target, host.drawables);
          const picker = createGpuPicker(target.scene);
          enableDetailedPicking(picker, { method });
          const points: { x: number; y: number }[] = [];
          const expected: Array<ReferenceHit | null> = [];
          let edges = 0;
          for (let y = 0; y < size[1]; y++)
            for (let x = 0; x < size[0]; x++) {
              const ray = referenceRay(kind, x, y);
              const hit = castReference(host, ray.origin, ray.direction);
              if (hit === 'edge') {
                edges++;
                continue;
              }
              points.push({ x, y });
              expected.push(hit);
            }
          const { result: infos, made } = await countAllocations(engine, () =>
            pickManyAsync(picker, points, { viewport: { width: size[0], height: size[1] } }),
          );
          const failures: string[] = [];
          const tally = { hits: 0, misses: 0, byObject: {} as Record<string, number> };
          infos.forEach((info, i) => {
            const hit = expected[i];
            const label = `(${points[i].x}, ${points[i].y})`;
            if (!hit) {
              if (info.hit)
                failures.push(`${label}: hit ${pickedObjectOf(target, info)?.object} where the reference misses`);
              else tally.misses++;
              return;
            }
            const failure = checkPick(info, target, hit, label);
            if (failure) failures.push(failure);
            else {
              tally.hits++;
              tally.byObject[hit.object] = (tally.byObject[hit.object] ?? 0) + 1;
            }
            // The CPU picker reads the same drawable scene (it sees undeformed geometry: docs/picking.md, so not the
            // skinned column).
            if (method === 'primitive-index' && hit.object !== 'skinned') {
              const cpu = pickSync(target.scene, points[i].x, points[i].y, {
                viewport: { width: size[0], height: size[1] },
              });
              const cpuObject = pickedObjectOf(target, cpu);
              if (cpuObject?.object !== hit.object || cpuObject.instance !== hit.instance || cpu.faceId !== hit.face)
                failures.push(`${label}: pickSync gave ${cpuObject?.object}#${cpuObject?.instance} face ${cpu.faceId}`);
            }
          });
          const copies = made.filter((b) => /host:|:vertices|:indices|:instances/.test(b.label));
          console.log(
            `[drawable seam] ${kind}, ${method}: ${tally.hits} hits exact (${Object.entries(tally.byObject)
              .map(([k, v]) => `${k} ${v}`)
              .join(
                ', ',
              )}), ${tally.misses} misses agree, ${edges} edge pixels left out; picker allocated ${made.length} buffers, ${made.reduce((s, b) => s + b.size, 0)} bytes, ${copies.length} vertex/index/instance copies`,
          );
          expect(failures).toEqual([]);
          expect(tally.byObject.plain).toBeGreaterThan(30);
          expect(tally.byObject.instanced).toBeGreaterThan(30);
          expect(tally.byObject.skinned).toBeGreaterThan(30);
          expect(tally.misses).toBeGreaterThan(100);
          // The host's buffers are drawn where they live: no vertex, index or instance copy was made.
          expect(copies).toEqual([]);
          const rect = await pickRectAsync(picker, 0, 0, size[0], size[1], {
            viewport: { width: size[0], height: size[1] },
          });
          expect(
            rect.map((identity) => {
              const picked = pickedObjectOf(target, identity);
              return `${picked?.object}#${picked?.instance}`;
            }),
          ).toEqual(['plain#-1', 'instanced#0', 'instanced#1', 'instanced#2', 'skinned#-1']);
          disposeGpuPicker(picker);
          disposeDrawableScene(target);
          for (const buffer of host.buffers) buffer.destroy();
        },
        size,
      );

  gpuTest(
    'the host moves, re-poses and drops drawables: each sync follows, and the picks follow the sync',
    async ({ engine }) => {
      const host = makeHost(engine.device);
      const target = createDrawableScene<string>(engine, makePerspectiveCamera({ ...perspective, near: 0.1 }));
      syncDrawableScene(target, host.drawables);
      const picker = createGpuPicker(target.scene);
      const viewport = { width: size[0], height: size[1] };
      // Find a pixel on instance 1 and one on the plain box; then move instance 1 away and drop the plain box.
      const pixelOf = (object: string, instance: number) => {
        for (let y = 0; y < size[1]; y++)
          for (let x = 0; x < size[0]; x++) {
            const ray = referenceRay('perspective', x, y);
            const hit = castReference(host, ray.origin, ray.direction);
            if (hit && hit !== 'edge' && hit.object === object && hit.instance === instance) return { x, y };
          }
        throw new Error(`no pixel on ${object}#${instance}`);
      };
      const onInstance = pixelOf('instanced', 1);
      const onPlain = pixelOf('plain', -1);
      const [before] = await pickManyAsync(picker, [onInstance], { viewport });
      expect(pickedObjectOf(target, before)).toEqual({ object: 'instanced', instance: 1 });
      const moved = host.drawables[1].instances!.matrices.slice();
      moved[16 + 12] += 10; // instance 1 leaves the view
      const next = host.drawables.filter((d) => d.object !== 'plain');
      next[0] = { ...next[0], instances: { matrices: moved, version: 2 } }; // weft uploads its own copy now
      syncDrawableScene(target, next);
      const [afterMove, afterDrop] = await pickManyAsync(picker, [onInstance, onPlain], { viewport });
      expect(pickedObjectOf(target, afterMove)?.instance ?? -1).not.toBe(1);
      expect(afterDrop.hit).toBe(false);
      expect(
        target.scene.meshes.map((m) => pickedObjectOf(target, { pickedMesh: m, thinInstanceIndex: -1 })?.object),
      ).toEqual(['instanced', 'skinned']);
      disposeGpuPicker(picker);
      disposeDrawableScene(target);
      for (const buffer of host.buffers) buffer.destroy();
    },
    size,
  );

  gpuTest(
    'worldMatrixVersion: a new version is followed, an unchanged one skips the compare, a wrong type is refused',
    async ({ engine }) => {
      const host = makeHost(engine.device);
      const target = createDrawableScene<string>(engine, null);
      const at = host.drawables.findIndex((d) => d.object === 'plain');
      const world = Float32Array.from(host.drawables[at].worldMatrix);
      const drawables = host.drawables.map((d, i) =>
        i === at ? { ...d, worldMatrix: world, worldMatrixVersion: 1 } : d,
      );
      syncDrawableScene(target, drawables);
      const x = () => target.scene.meshes[at].worldMatrix[12];
      const start = world[12];
      expect(x()).toBe(start);
      world[12] = start + 2; // written with a new version, as Babylon.js's Matrix.updateFlag does
      drawables[at].worldMatrixVersion = 2;
      syncDrawableScene(target, drawables);
      expect(x()).toBe(start + 2);
      world[12] = start + 5; // written without a new version: the version is trusted, nothing is compared
      syncDrawableScene(target, drawables);
      expect(x()).toBe(start + 2);
      drawables[at].worldMatrix = world.slice(); // another array with the same version is compared by value
      syncDrawableScene(target, drawables);
      expect(x()).toBe(start + 5);
      const wrong = drawables.map((d, i) => (i === at ? { ...d, worldMatrixVersion: '3' as unknown as number } : d));
      expect(() => syncDrawableScene(target, wrong)).toThrow(/drawables\[\d+\]\.worldMatrixVersion .*must be a number/);
      expect(target.scene.meshes.length).toBe(drawables.length);
      expect(x()).toBe(start + 5);
      disposeDrawableScene(target);
      for (const buffer of host.buffers) buffer.destroy();
    },
    size,
  );

  gpuTest(
    "a drawable that takes a dropped one's place follows its own matrix, also onto the dropped one's values",
    async ({ engine }) => {
      const host = makeHost(engine.device);
      const target = createDrawableScene<string>(engine, null);
      const plain = host.drawables.find((d) => d.object === 'plain')!;
      const others = host.drawables.filter((d) => d !== plain);
      syncDrawableScene(target, host.drawables);
      syncDrawableScene(target, others); // the plain box is dropped: its matrix's place in the sync is free
      const dropped = Array.from(plain.worldMatrix);
      const world = dropped.slice();
      world[12] += 3;
      world[14] -= 1;
      const newcomer: PickDrawable<string> = { ...plain, object: 'newcomer', worldMatrix: world };
      syncDrawableScene(target, [...others, newcomer]);
      const matrix = () => Array.from(target.scene.meshes[others.length].worldMatrix);
      expect(matrix()).toEqual(world.map(Math.fround));
      world.splice(0, 16, ...dropped); // moved, in place, onto exactly the dropped drawable's last values
      syncDrawableScene(target, [...others, newcomer]);
      expect(matrix()).toEqual(dropped.map(Math.fround));
      world[13] += 0.5; // and on again
      syncDrawableScene(target, [...others, newcomer]);
      expect(matrix()).toEqual(world.map(Math.fround));
      disposeDrawableScene(target);
      for (const buffer of host.buffers) buffer.destroy();
    },
    size,
  );

  gpuTest(
    'one drawable changes its culling, visibility and pickability between syncs: each pick follows the last sync',
    async ({ engine }) => {
      const host = makeHost(engine.device);
      const plain = host.drawables.find((d) => d.object === 'plain')!;
      const target = createDrawableScene<string>(engine, makePerspectiveCamera({ ...perspective, near: 0.1 }));
      const picker = createGpuPicker(target.scene);
      enableDetailedPicking(picker);
      const viewport = { width: size[0], height: size[1] };
      let pixel: { x: number; y: number; face: number } | null = null;
      for (let y = 0; y < size[1] && !pixel; y++)
        for (let x = 0; x < size[0] && !pixel; x++) {
          const ray = referenceRay('perspective', x, y);
          const hit = castReference(
            { ...host, triangles: host.triangles.filter((t) => t.object === 'plain') },
            ray.origin,
            ray.direction,
          );
          if (hit && hit !== 'edge') pixel = { x, y, face: hit.face };
        }
      if (!pixel) throw new Error('no pixel on the plain box');
      const drawable: PickDrawable<string> = { ...plain };
      const pickFace = async () => {
        syncDrawableScene(target, [drawable]);
        const [info] = await pickManyAsync(picker, [pixel!], { viewport });
        return info.hit ? info.faceId : -1;
      };
      expect(await pickFace()).toBe(pixel.face);
      drawable.frontFace = 'cw'; // its outside faces now count as back faces: the inside far side is seen
      const inside = await pickFace();
      expect(inside).toBeGreaterThanOrEqual(0);
      expect(inside).not.toBe(pixel.face);
      drawable.frontFace = 'ccw';
      expect(await pickFace()).toBe(pixel.face);
      drawable.frontFace = 'cw';
      expect(await pickFace()).toBe(inside);
      drawable.doubleSided = true;
      expect(await pickFace()).toBe(pixel.face);
      drawable.visible = false;
      expect(await pickFace()).toBe(-1);
      drawable.visible = true;
      expect(await pickFace()).toBe(pixel.face);
      drawable.pickable = false;
      expect(await pickFace()).toBe(-1);
      drawable.pickable = true;
      drawable.doubleSided = false;
      drawable.frontFace = 'ccw';
      expect(await pickFace()).toBe(pixel.face);
      disposeGpuPicker(picker);
      disposeDrawableScene(target);
      for (const buffer of host.buffers) buffer.destroy();
    },
    size,
  );

  gpuTest(
    "a clockwise-front drawable (Babylon.js's winding, three.js BackSide) is culled as drawn, on the GPU and the CPU",
    async ({ engine }) => {
      // The plain box with every triangle reversed: its outside faces are clockwise in mesh space.
      const host = makeHost(engine.device);
      const plain = host.drawables[0];
      const reversed = Uint16Array.from(plain.index!.data);
      for (let f = 0; f < reversed.length; f += 3)
        [reversed[f + 1], reversed[f + 2]] = [reversed[f + 2], reversed[f + 1]];
      const indexBuffer = gpuBuffer(engine.device, 'host:reversed:indices', reversed, GPUBufferUsage.INDEX);
      const outside = host.triangles.filter((t) => t.object === 'plain');
      const viewport = { width: size[0], height: size[1] };
      const pixels: { x: number; y: number }[] = [];
      const near: ReferenceHit[] = [];
      const far: number[] = [];
      for (let y = 0; y < size[1]; y++)
        for (let x = 0; x < size[0]; x++) {
          const ray = referenceRay('perspective', x, y);
          const hit = castReference({ ...host, triangles: outside }, ray.origin, ray.direction);
          if (!hit || hit === 'edge') continue;
          // The far side: the nearest face whose (outward) normal faces away from the ray.
          const back = castReference(
            {
              ...host,
              triangles: outside.filter(
                (t) => dot(cross(sub(t.corners[1], t.corners[0]), sub(t.corners[2], t.corners[0])), ray.direction) > 0,
              ),
            },
            ray.origin,
            ray.direction,
          );
          if (!back || back === 'edge') continue;
          pixels.push({ x, y });
          near.push(hit);
          far.push(back.face);
        }
      expect(pixels.length).toBeGreaterThan(100);
      for (const [frontFace, expected] of [
        ['cw', near.map((h) => h.face)],
        ['ccw', far],
      ] as const) {
        const target = createDrawableScene<string>(engine, makePerspectiveCamera({ ...perspective, near: 0.1 }));
        syncDrawableScene(target, [{ ...plain, index: { buffer: indexBuffer, data: reversed }, frontFace }]);
        const picker = createGpuPicker(target.scene);
        enableDetailedPicking(picker, { method: 'primitive-index' });
        const infos = await pickManyAsync(picker, pixels, { viewport });
        const gpuFaces = infos.map((info) => (info.hit ? info.faceId : -1));
        const cpuFaces = pixels.map(({ x, y }) => {
          const cpu = pickSync(target.scene, x, y, { viewport });
          return cpu.hit ? cpu.faceId : -1;
        });
        expect(gpuFaces, `GPU, frontFace ${frontFace}`).toEqual(expected);
        expect(cpuFaces, `CPU, frontFace ${frontFace}`).toEqual(expected);
        disposeGpuPicker(picker);
        disposeDrawableScene(target);
      }
      expect(() =>
        syncDrawableScene(createDrawableScene<string>(engine), [{ ...plain, frontFace: 'left' as GPUFrontFace }]),
      ).toThrowError(/drawables\[0\]\.frontFace "left" must be 'ccw' or 'cw'/);
      for (const buffer of [...host.buffers, indexBuffer]) buffer.destroy();
    },
    size,
  );

  gpuTest(
    'a morphed drawable is picked as drawn, and follows its weights on each sync',
    async ({ engine }) => {
      const host = makeHost(engine.device);
      const plain = host.drawables[0];
      const box = cube();
      // One target: the box 60 % wider in x and lifted 0.3 in y.
      const delta = Float32Array.from(box.positions.map((v, i) => (i % 3 === 0 ? 0.6 * v : i % 3 === 1 ? 0.3 : 0)));
      const world = Array.from(plain.worldMatrix);
      const morphedHost = (weight: number): Host => {
        const positions = Array.from({ length: 24 }, (_, v) =>
          [0, 1, 2].map((k) => box.positions[v * 3 + k] + weight * delta[v * 3 + k]),
        );
        const triangles = Array.from({ length: 12 }, (_, f) => ({
          object: 'plain',
          instance: -1,
          face: f,
          corners: [0, 1, 2].map((k) => transform(world, positions[box.indices[f * 3 + k]])) as [Vec3, Vec3, Vec3],
        }));
        return { ...host, triangles };
      };
      const target = createDrawableScene<string>(engine, makePerspectiveCamera({ ...perspective, near: 0.1 }));
      const picker = createGpuPicker(target.scene);
      enableDetailedPicking(picker, { method: 'primitive-index' });
      const viewport = { width: size[0], height: size[1] };
      for (const weight of [0.6, 0.1]) {
        syncDrawableScene(target, [{ ...plain, morph: { positions: [delta], weights: [weight] } }]);
        const reference = morphedHost(weight);
        const probes: { x: number; y: number }[] = [];
        const hits: Array<ReferenceHit | null> = [];
        for (let y = 1; y < size[1]; y += 2)
          for (let x = 1; x < size[0]; x += 2) {
            const ray = referenceRay('perspective', x, y);
            const hit = castReference(reference, ray.origin, ray.direction);
            if (hit === 'edge') continue;
            probes.push({ x, y });
            hits.push(hit);
          }
        const infos = await pickManyAsync(picker, probes, { viewport });
        const failures = infos
          .map((info, i) => {
            const hit = hits[i];
            if (!hit) return info.hit ? `(${probes[i].x}, ${probes[i].y}) hit where the reference misses` : null;
            return checkPick(info, target, hit, `weight ${weight} (${probes[i].x}, ${probes[i].y})`);
          })
          .filter((f) => f !== null);
        expect(failures).toEqual([]);
        expect(hits.filter(Boolean).length).toBeGreaterThan(20);
      }
      expect(() => syncDrawableScene(target, [{ ...plain, morph: { positions: [delta], weights: [] } }])).toThrowError(
        /drawables\[0\]\.morph must be .* one weight per target/,
      );
      disposeGpuPicker(picker);
      disposeDrawableScene(target);
      for (const buffer of host.buffers) buffer.destroy();
    },
    size,
  );

  gpuTest(
    'bad host buffers are typed errors naming the buffer, and the scene keeps working after them',
    async ({ engine }) => {
      const host = makeHost(engine.device);
      const target = createDrawableScene<string>(engine, makePerspectiveCamera({ ...perspective, near: 0.1 }));
      const uniform = engine.device.createBuffer({
        label: 'not-a-vertex-buffer',
        size: 1024,
        usage: GPUBufferUsage.UNIFORM,
      });
      const plain = host.drawables[0];
      const badUsage = { ...plain, vertexBuffers: [{ ...plain.vertexBuffers[0], buffer: uniform }] };
      expect(() => syncDrawableScene(target, [badUsage])).toThrowError(MeshDataError);
      expect(() => syncDrawableScene(target, [badUsage])).toThrowError(/hostBuffers\.vertexBuffers\[0\].*VERTEX/);
      const tiny = engine.device.createBuffer({ label: 'tiny', size: 16, usage: GPUBufferUsage.VERTEX });
      const tooSmall = { ...plain, vertexBuffers: [{ ...plain.vertexBuffers[0], buffer: tiny }] };
      expect(() => syncDrawableScene(target, [tooSmall])).toThrowError(/holds 16 bytes; the mesh data needs 576/);
      expect(() => syncDrawableScene(target, [{ ...plain, colour: 1 } as PickDrawable<string>])).toThrowError(
        /drawables\[0\]\.colour is not a PickDrawable key/,
      );
      expect(() => syncDrawableScene(target, [plain, plain])).toThrowError(/listed twice/);
      // After the errors the same scene syncs and picks.
      syncDrawableScene(target, host.drawables);
      const picker = createGpuPicker(target.scene);
      const ray = referenceRay('perspective', 32, 24);
      const hit = castReference(host, ray.origin, ray.direction);
      const [info] = await pickManyAsync(picker, [{ x: 32, y: 24 }], { viewport: { width: size[0], height: size[1] } });
      // A sync that fails part-way changes nothing: not the meshes, not the one before the bad drawable.
      const before = [...target.scene.meshes];
      const structure = target.scene.structureVersion;
      const instanced = host.drawables[1];
      const grown = new Float32Array(instanced.instances!.matrices.length * 2).fill(1);
      const failing = [
        { ...host.drawables[0], worldMatrix: Array(16).fill(2) },
        { ...instanced, instances: { ...instanced.instances!, matrices: grown, version: 9 } },
        { ...host.drawables[2], object: 'newcomer' },
      ];
      expect(() => syncDrawableScene(target, failing)).toThrowError(/hostBuffers\.instanceBuffer.*holds 192 bytes/);
      expect(target.scene.meshes).toEqual(before);
      expect(target.scene.structureVersion).toBe(structure);
      expect(target.scene.meshes[0].worldMatrix[0]).not.toBe(2);
      expect(target.scene.meshes[1].thinInstanceCount).toBe(3);
      // New matrices in the same host buffer re-bind nothing: the mesh keeps its GPU wrapper.
      const wrapper = ensureMeshGpu(target.scene.meshes[1], engine.device);
      const moved = instanced.instances!.matrices.slice();
      moved[12] += 0.01;
      syncDrawableScene(target, [
        host.drawables[0],
        { ...instanced, instances: { ...instanced.instances!, matrices: moved, version: 2 } },
        host.drawables[2],
      ]);
      expect(target.scene.meshes[1].gpu).toBe(wrapper);
      expect(target.scene.meshes[1].thinInstanceVersion).toBeGreaterThan(0);
      expect(pickedObjectOf(target, info)?.object ?? null).toBe(hit && hit !== 'edge' ? hit.object : null);
      disposeGpuPicker(picker);
      disposeDrawableScene(target);
      for (const buffer of [...host.buffers, uniform, tiny]) buffer.destroy();

      // A host whose buffers lack STORAGE usage picks identity and detail through primitive_index, but the
      // vertex-index path, which reads them as storage, refuses them by name before the GPU sees them.
      const plainHost = makeHost(engine.device, false);
      const noStorage = createDrawableScene<string>(engine, makePerspectiveCamera({ ...perspective, near: 0.1 }));
      syncDrawableScene(noStorage, plainHost.drawables);
      const pulled = createGpuPicker(noStorage.scene);
      enableDetailedPicking(pulled, { method: 'vertex-index' });
      const error = await pickManyAsync(pulled, [{ x: 10, y: 24 }], {
        viewport: { width: size[0], height: size[1] },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PickError);
      expect((error as PickError).code).toBe('unsupported');
      expect((error as Error).message).toMatch(/host's .*without GPUBufferUsage\.STORAGE/);
      // The same host, its buffers given as null: weft uploads copies it can read as storage, and detail is exact.
      const copied = plainHost.drawables.map((d) => ({
        ...d,
        vertexBuffers: d.vertexBuffers.map((b) => ({ ...b, buffer: null })),
        ...(d.index ? { index: { ...d.index, buffer: null } } : {}),
      }));
      syncDrawableScene(noStorage, copied);
      const probes: { x: number; y: number }[] = [];
      const hits: ReferenceHit[] = [];
      for (let y = 2; y < size[1]; y += 5)
        for (let x = 2; x < size[0]; x += 5) {
          const ray = referenceRay('perspective', x, y);
          const hit = castReference(plainHost, ray.origin, ray.direction);
          if (hit && hit !== 'edge') {
            probes.push({ x, y });
            hits.push(hit);
          }
        }
      const { result: copiedInfos, made } = await countAllocations(engine, () =>
        pickManyAsync(pulled, probes, { viewport: { width: size[0], height: size[1] } }),
      );
      expect(probes.length).toBeGreaterThan(20);
      expect(
        copiedInfos.map((info, i) => checkPick(info, noStorage, hits[i], `copy (${probes[i].x}, ${probes[i].y})`)),
      ).toEqual(hits.map(() => null));
      // One copy per vertex and index buffer the host gave as null, made on the first pick that needs them.
      const nulls = copied.reduce((n, d) => n + d.vertexBuffers.length + (d.index ? 1 : 0), 0);
      expect(made.filter((b) => /:vertices\d|:indices/.test(b.label)).length).toBe(nulls);
      disposeGpuPicker(pulled);
      disposeDrawableScene(noStorage);
      for (const buffer of plainHost.buffers) buffer.destroy();
    },
    size,
  );

  gpuTest(
    "the scene's change count moves exactly on the syncs that change what a pick draws (a pick made before such a sync stands only without one)",
    async ({ engine }) => {
      const host = makeHost(engine.device);
      const [plain, instanced, skinned] = host.drawables;
      const box = cube();
      const delta = Float32Array.from(box.positions.map((v, i) => (i % 3 === 0 ? 0.5 * v : 0)));
      const morphed: PickDrawable<string> = {
        ...plain,
        object: 'morphed',
        morph: { positions: [delta], weights: [0.1] },
      };
      const target = createDrawableScene<string>(engine);
      let list: PickDrawable<string>[] = [plain, instanced, skinned, morphed];
      const changesOf = (next: PickDrawable<string>[], change?: () => void) => {
        change?.();
        list = next;
        const before = target.changes;
        syncDrawableScene(target, list);
        return target.changes - before;
      };
      expect(changesOf(list)).toBe(1);
      // The same drawables, and equal copies of them (a 0.1 weight is kept as float32 and read back equal).
      expect(changesOf(list)).toBe(0);
      expect(changesOf(list.map((d) => ({ ...d })))).toBe(0);
      const cases: [string, () => PickDrawable<string>[]][] = [
        ['a moved world matrix', () => [{ ...plain, worldMatrix: translation(0.25, 0, 0) }, ...list.slice(1)]],
        [
          'new instance matrices',
          () => [list[0], { ...instanced, instances: { ...instanced.instances!, version: 2 } }, ...list.slice(2)],
        ],
        [
          'new bone matrices',
          () => [...list.slice(0, 2), { ...skinned, skin: { ...skinned.skin!, version: 2 } }, list[3]],
        ],
        [
          'another morph weight',
          () => [...list.slice(0, 3), { ...morphed, morph: { ...morphed.morph!, weights: [0.7] } }],
        ],
        ['hidden', () => [{ ...list[0], visible: false }, ...list.slice(1)]],
        ['double-sided', () => [{ ...list[0], visible: true, doubleSided: true }, ...list.slice(1)]],
        ['reordered', () => [list[1], list[0], ...list.slice(2)]],
        ['one dropped', () => list.slice(1)],
        ['one added', () => [instanced, ...list]],
        ['a new geometry version', () => [{ ...list[0], geometryVersion: 1 }, ...list.slice(1)]],
      ];
      for (const [name, next] of cases) {
        expect(changesOf(next()), name).toBe(1);
        expect(changesOf(list), `${name}, synced again`).toBe(0);
      }
      // A sync that throws changes nothing.
      const before = target.changes;
      expect(() => syncDrawableScene(target, [...list, { ...plain, worldMatrix: [Number.NaN] }])).toThrow();
      expect(target.changes).toBe(before);
      disposeDrawableScene(target);
      for (const buffer of host.buffers) buffer.destroy();
    },
    size,
  );
});
