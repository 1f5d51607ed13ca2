import { mat4 } from 'wgpu-matrix';
import { describe, expect, test } from 'vitest';
import {
  createMeshFromData,
  createScene,
  type Engine,
  getMeshWorldBounds,
  getThinInstanceMatrix,
  getThinInstancePayload,
  getThinInstanceWorldBounds,
  MeshDataError,
  type MeshData,
  readVertexAttribute,
  type Scene,
  setThinInstances,
} from '../../engine/index.js';

// createScene keeps a reference to the engine but never touches it: a plain object is enough for CPU tests.
const cpuOnlyScene = (): Scene => createScene({} as Engine);

const triangle = (): MeshData => ({
  positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
  indices: new Uint16Array([0, 1, 2]),
});

function expectMeshError(data: unknown, field: string, fragment: RegExp): void {
  const scene = cpuOnlyScene();
  let error: unknown;
  try {
    createMeshFromData(scene, 'bad-mesh', data as MeshData);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(MeshDataError);
  const meshError = error as MeshDataError;
  expect(meshError.meshName).toBe('bad-mesh');
  expect(meshError.field).toBe(field);
  expect(meshError.api).toBe('createMeshFromData');
  expect(meshError.message).toMatch(/^createMeshFromData: mesh "bad-mesh", field/);
  expect(meshError.message).toMatch(fragment);
  // Nothing half-created: the scene is untouched and the next mesh still gets id 1.
  expect(scene.meshes).toHaveLength(0);
  expect(scene.structureVersion).toBe(0);
  expect(createMeshFromData(scene, 'ok', triangle()).uniqueId).toBe(1);
}

describe('createMeshFromData rejects malformed data', () => {
  test('index out of range', () =>
    expectMeshError(
      { ...triangle(), indices: new Uint16Array([0, 1, 3]) },
      'indices',
      /indices\[2\] = 3 is out of range; the mesh has 3 vertices/,
    ));
  test('index count not a multiple of 3', () =>
    expectMeshError(
      { ...triangle(), indices: new Uint32Array([0, 1]) },
      'indices',
      /length 2 is not a positive multiple of 3/,
    ));
  test('indices of the wrong type', () =>
    expectMeshError(
      { ...triangle(), indices: new Int32Array([0, 1, 2]) },
      'indices',
      /expected a Uint16Array or Uint32Array, got Int32Array\(3\)/,
    ));
  test('positions length not a multiple of 3', () =>
    expectMeshError({ positions: new Float32Array(7) }, 'positions', /length 7 is not a multiple of 3/));
  test('NaN position', () =>
    expectMeshError(
      { positions: new Float32Array([0, 0, 0, 1, NaN, 0, 0, 1, 0]) },
      'positions',
      /vertex 1 is not finite \(1, NaN, 0\)/,
    ));
  test('infinite position', () =>
    expectMeshError(
      { positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, Infinity, 0]) },
      'positions',
      /vertex 2 is not finite/,
    ));
  test('missing positions', () => expectMeshError({ normals: new Float32Array(9) }, 'positions', /is missing/));
  test('empty positions', () => expectMeshError({ positions: new Float32Array(0) }, 'positions', /is empty/));
  test('non-indexed vertex count not a triangle list', () =>
    expectMeshError({ positions: new Float32Array(12) }, 'positions', /4 vertices without indices/));
  test('normals of the wrong length', () =>
    expectMeshError(
      { ...triangle(), normals: new Float32Array(6) },
      'normals',
      /holds 2 vertices of 3 components; positions hold 3/,
    ));
  test('uvs given as a plain array', () =>
    expectMeshError({ ...triangle(), uvs: [0, 0, 1, 0, 0, 1] }, 'uvs', /expected a Float32Array, got array\(6\)/));
  test('unsupported interleaved vertex format', () =>
    expectMeshError(
      {
        interleaved: {
          data: new Float32Array(9),
          arrayStride: 12,
          attributes: { position: { offset: 0, format: 'float16x4' } },
        },
      },
      'interleaved.attributes.position',
      /vertex format "float16x4" is not supported for position; allowed: float32x3/,
    ));
  test('interleaved stride not a multiple of 4', () =>
    expectMeshError(
      {
        interleaved: {
          data: new Float32Array(9),
          arrayStride: 14,
          attributes: { position: { offset: 0, format: 'float32x3' } },
        },
      },
      'interleaved.arrayStride',
      /14 is not allowed; use a positive multiple of 4/,
    ));
  test('interleaved attribute outside the stride', () =>
    expectMeshError(
      {
        interleaved: {
          data: new Float32Array(15),
          arrayStride: 20,
          attributes: { position: { offset: 0, format: 'float32x3' }, uv: { offset: 16, format: 'float32x2' } },
        },
      },
      'interleaved.attributes.uv',
      /offset 16 does not fit a float32x2 inside arrayStride 20/,
    ));
  test('tight and interleaved together', () =>
    expectMeshError(
      {
        positions: new Float32Array(9),
        interleaved: {
          data: new Float32Array(9),
          arrayStride: 12,
          attributes: { position: { offset: 0, format: 'float32x3' } },
        },
      },
      'positions',
      /either tight attribute arrays or `interleaved`, not both/,
    ));
  test('thin instances of the wrong length', () => {
    const scene = cpuOnlyScene();
    expect(() => createMeshFromData(scene, 'inst', triangle(), { thinInstances: new Float32Array(20) })).toThrow(
      /field "thinInstances": expected a Float32Array of 16 floats per instance, got Float32Array\(20\)/,
    );
    expect(scene.meshes).toHaveLength(0);
  });
  test('thin instance with a NaN transform lane (payload lanes may hold anything)', () => {
    const scene = cpuOnlyScene();
    const bad = mat4.identity();
    bad[12] = NaN;
    expect(() => createMeshFromData(scene, 'inst', triangle(), { thinInstances: bad })).toThrow(
      /instance 0 lane 12 is not finite/,
    );
    const payload = mat4.identity();
    payload[3] = NaN;
    expect(createMeshFromData(scene, 'inst', triangle(), { thinInstances: payload }).thinInstanceCount).toBe(1);
  });
});

describe('mesh data layouts and bounds', () => {
  test('interleaved attributes read back as written', () => {
    // position (12 bytes) + colour unorm8x4 (4 bytes) + uv (8 bytes) = stride 24
    const bytes = new ArrayBuffer(24 * 3);
    const view = new DataView(bytes);
    for (let v = 0; v < 3; v++) {
      [v, v * 2, 0 - v].forEach((c, i) => view.setFloat32(v * 24 + i * 4, c, true));
      [255, 0, 51 * v, 255].forEach((c, i) => view.setUint8(v * 24 + 12 + i, c));
      [v / 2, 1 - v / 2].forEach((c, i) => view.setFloat32(v * 24 + 16 + i * 4, c, true));
    }
    const mesh = createMeshFromData(cpuOnlyScene(), 'interleaved', {
      interleaved: {
        data: bytes,
        arrayStride: 24,
        attributes: {
          position: { offset: 0, format: 'float32x3' },
          color: { offset: 12, format: 'unorm8x4' },
          uv: { offset: 16, format: 'float32x2' },
        },
      },
    });
    const out = [0, 0, 0, 0];
    readVertexAttribute(mesh.geometry, 'position', 2, out);
    expect(out.slice(0, 3)).toEqual([2, 4, -2]);
    readVertexAttribute(mesh.geometry, 'color', 2, out);
    expect(out).toEqual([1, 0, 102 / 255, 1]);
    readVertexAttribute(mesh.geometry, 'uv', 1, out);
    expect(out.slice(0, 2)).toEqual([0.5, 0.5]);
    expect(Array.from(mesh.positions)).toEqual([0, 0, 0, 1, 2, -1, 2, 4, -2]);
    expect(mesh.geometry.triangleCount).toBe(1);
  });

  test('the mesh keeps its own copy of the caller arrays', () => {
    const data = triangle();
    const mesh = createMeshFromData(cpuOnlyScene(), 'copy', data);
    data.positions![0] = 99;
    data.indices![0] = 2;
    expect(mesh.positions[0]).toBe(0);
    expect(mesh.geometry.indices![0]).toBe(0);
  });

  test('world and thin-instance bounds follow the transforms', () => {
    const instances = new Float32Array(32);
    instances.set(mat4.translation([10, 0, 0]), 0);
    instances.set(mat4.scaling([2, 3, 4]), 16);
    instances[16 + 3] = 42; // payload lanes must not affect bounds
    instances[16 + 15] = -7;
    const mesh = createMeshFromData(cpuOnlyScene(), 'b', triangle(), {
      thinInstances: instances,
      worldMatrix: mat4.translation([0, 1, 0]),
    });
    expect(getThinInstanceWorldBounds(mesh, 0)).toEqual({ min: [10, 1, 0], max: [11, 2, 0] });
    expect(getThinInstanceWorldBounds(mesh, 1)).toEqual({ min: [0, 1, 0], max: [2, 4, 0] });
    expect(getMeshWorldBounds(mesh)).toEqual({ min: [0, 1, 0], max: [11, 4, 0] });
    expect(getThinInstancePayload(mesh, 1)).toEqual([42, 0, 0, -7]);
    expect(Array.from(getThinInstanceMatrix(mesh, 1)).filter((_, i) => i % 4 === 3)).toEqual([0, 0, 0, 1]);
    expect(() => getThinInstanceMatrix(mesh, 2)).toThrow(/2 is not an instance index in 0..1/);
  });

  test('changing the instance count bumps the scene structure version; same count only the instance version', () => {
    const scene = cpuOnlyScene();
    const mesh = createMeshFromData(scene, 'i', triangle(), { thinInstances: new Float32Array(mat4.identity()) });
    const structure = scene.structureVersion;
    setThinInstances(mesh, new Float32Array(mat4.translation([1, 2, 3])));
    expect(scene.structureVersion).toBe(structure);
    expect(mesh.thinInstanceVersion).toBe(1);
    setThinInstances(mesh, new Float32Array(32));
    expect(scene.structureVersion).toBe(structure + 1);
  });
});
