import { describe, expect, test } from 'vitest';
import {
  createMeshFromData,
  createScene,
  type Engine,
  MeshDataError,
  type MeshData,
  type MeshOptions,
  type Scene,
  setThinInstances,
} from '../../engine/index.js';

// Issue #16 findings 3 (instance count vs the device's buffer limit), 8 (a wrong `material`) and 13 (non-finite
// normals, UVs, tangents and colours; colorComponents other than 3 or 4). Pure CPU: the scene's engine is a stub
// whose only GPU state is `device.limits` (the limit is read from there, never hard-coded).
const cpuOnlyScene = (maxBufferSize?: number): Scene =>
  createScene((maxBufferSize ? { device: { limits: { maxBufferSize } } } : {}) as unknown as Engine);

const triangle = (): MeshData => ({
  positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
  indices: new Uint16Array([0, 1, 2]),
});

function refused(scene: Scene, data: unknown, options: unknown = {}): MeshDataError {
  let error: unknown;
  try {
    createMeshFromData(scene, 'bad-mesh', data as MeshData, options as MeshOptions);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(MeshDataError);
  const meshError = error as MeshDataError;
  expect(meshError.code).toBe('mesh-data');
  expect(meshError.api).toBe('createMeshFromData');
  expect(meshError.meshName).toBe('bad-mesh');
  // Nothing half-created, and the next valid call works.
  expect(scene.meshes).toHaveLength(0);
  expect(createMeshFromData(scene, 'ok', triangle()).uniqueId).toBe(1);
  return meshError;
}

describe('non-finite attribute values are refused, naming attribute, vertex and value', () => {
  const cases: Array<[string, keyof MeshData, Float32Array, RegExp]> = [
    ['NaN normal', 'normals', new Float32Array([0, 0, 1, 0, 0, 1, 0, Number.NaN, 1]), /vertex 2.*NaN/],
    ['Infinity uv', 'uvs', new Float32Array([0, 0, Number.POSITIVE_INFINITY, 0, 0, 1]), /vertex 1.*Infinity/],
    ['-Infinity uv2', 'uv2s', new Float32Array([0, 0, 0, 0, 0, Number.NEGATIVE_INFINITY]), /vertex 2.*-Infinity/],
    ['NaN tangent', 'tangents', new Float32Array([1, 0, 0, 1, 1, 0, 0, Number.NaN, 1, 0, 0, 1]), /vertex 1.*NaN/],
    ['NaN colour', 'colors', new Float32Array([1, 1, 1, 1, Number.NaN, 1, 1, 1, 1, 1, 1, 1]), /vertex 1.*NaN/],
  ];
  for (const [title, field, array, message] of cases) {
    test(title, () => {
      const error = refused(cpuOnlyScene(), { ...triangle(), [field]: array });
      expect(error.field).toBe(field);
      expect(error.message).toMatch(message);
      expect(error.message).toMatch(/not finite/);
    });
  }
  test('a NaN colour with colorComponents 3', () => {
    const colors = new Float32Array([1, 1, 1, 1, 1, 1, 1, 1, Number.NaN]);
    const error = refused(cpuOnlyScene(), { ...triangle(), colors, colorComponents: 3 });
    expect(error.field).toBe('colors');
    expect(error.message).toMatch(/vertex 2.*NaN/);
  });
  test('a NaN normal in interleaved data', () => {
    const data = new Float32Array(3 * 6);
    data.set([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 0, Number.NaN, 0, 1]);
    const error = refused(cpuOnlyScene(), {
      interleaved: {
        data,
        arrayStride: 24,
        attributes: { position: { offset: 0, format: 'float32x3' }, normal: { offset: 12, format: 'float32x3' } },
      },
    });
    expect(error.field).toBe('interleaved.attributes.normal');
    expect(error.message).toMatch(/vertex 2.*NaN/);
  });
  test('finite values in every attribute are accepted', () => {
    const scene = cpuOnlyScene();
    createMeshFromData(scene, 'fine', {
      ...triangle(),
      normals: new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]),
      uvs: new Float32Array(6),
      tangents: new Float32Array([1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1]),
      colors: new Float32Array(12).fill(0.5),
    });
    expect(scene.meshes).toHaveLength(1);
  });
});

describe('colorComponents other than 3 or 4 is refused', () => {
  for (const value of [2, 5, 0, 3.5, '4', Number.NaN]) {
    test(`colorComponents ${String(value)}`, () => {
      const error = refused(cpuOnlyScene(), { ...triangle(), colors: new Float32Array(12), colorComponents: value });
      expect(error.field).toBe('colorComponents');
      expect(error.message).toMatch(/must be 3 or 4/);
    });
  }
  test('colorComponents without colours is refused too', () => {
    const error = refused(cpuOnlyScene(), { ...triangle(), colorComponents: 7 });
    expect(error.field).toBe('colorComponents');
  });
});

describe('a wrong material is refused at creation, naming the mesh', () => {
  for (const material of [42, 'red', { name: 'half' }, [1, 0, 0, 1]]) {
    test(`material ${JSON.stringify(material)}`, () => {
      const error = refused(cpuOnlyScene(), triangle(), { material });
      expect(error.field).toBe('material');
      expect(error.message).toMatch(/mesh "bad-mesh", field "material"/);
      expect(error.message).toMatch(/makeStandardMaterial/);
    });
  }
});

describe('thin instances beyond the device buffer limit are refused', () => {
  // 64 bytes per instance; a stub device allowing 640-byte buffers fits 10 instances.
  test('at creation', () => {
    const scene = cpuOnlyScene(640);
    const error = refused(scene, triangle(), { thinInstances: new Float32Array(16 * 11) });
    expect(error.field).toBe('thinInstances');
    expect(error.message).toMatch(/11 instances/);
    expect(error.message).toMatch(/maxBufferSize 640/);
    expect(
      createMeshFromData(scene, 'ten', triangle(), { thinInstances: new Float32Array(16 * 10) }).thinInstanceCount,
    ).toBe(10);
  });
  test('vertex and index buffers beyond maxBufferSize are refused too', () => {
    // 64 vertices × 12 B = 768 B of positions > 640.
    const error = refused(cpuOnlyScene(640), {
      positions: new Float32Array(64 * 3 + 3 * 3).fill(0).subarray(0, 66 * 3),
    });
    expect(error.message).toMatch(/66 vertices need a 792-byte buffer, over the device's maxBufferSize 640/);
    const indices = refused(cpuOnlyScene(640), { ...triangle(), indices: new Uint32Array(162) });
    expect(indices.field).toBe('indices');
    expect(indices.message).toMatch(/648-byte buffer/);
  });
  test('by setThinInstances, leaving the previous instances in place', () => {
    const scene = cpuOnlyScene(640);
    const mesh = createMeshFromData(scene, 'inst', triangle(), { thinInstances: new Float32Array(16 * 2) });
    let error: unknown;
    try {
      setThinInstances(mesh, new Float32Array(16 * 11));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MeshDataError);
    expect((error as MeshDataError).api).toBe('setThinInstances');
    expect((error as MeshDataError).message).toMatch(/11 instances.*maxBufferSize 640/);
    expect(mesh.thinInstanceCount).toBe(2);
    setThinInstances(mesh, new Float32Array(16 * 10));
    expect(mesh.thinInstanceCount).toBe(10);
  });
});
