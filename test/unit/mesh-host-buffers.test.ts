import { describe, expect, test } from 'vitest';
import { MeshDataError } from '../../engine/engine-errors.js';
import { makeMeshGeometry } from '../../engine/mesh-data.js';
import { checkMeshHostBuffers } from '../../engine/mesh-host-buffers.js';

const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
const normals = new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]);
const twoBuffers = {
  interleaved: [
    { data: positions, arrayStride: 12, attributes: { position: { format: 'float32x3' as const, offset: 0 } } },
    { data: normals, arrayStride: 12, attributes: { normal: { format: 'float32x3' as const, offset: 0 } } },
  ],
};

/** A stand-in with a GPUBuffer's readable fields: these checks read only usage, size and label. */
const fakeBuffer = (size: number, usage: number, label = 'host') => ({ size, usage, label, destroy() {} }) as GPUBuffer;

describe('a mesh made of several vertex buffers, as a host lays them out', () => {
  test('a list of interleaved buffers keeps its order and layouts', () => {
    const geometry = makeMeshGeometry('two', twoBuffers);
    expect(geometry.buffers.map((b) => [b.arrayStride, b.attributes.map((a) => a.semantic)])).toEqual([
      [12, ['position']],
      [12, ['normal']],
    ]);
    expect(geometry.vertexCount).toBe(3);
  });

  test('a semantic in two buffers, an empty list or a bad entry is a MeshDataError naming the buffer', () => {
    const twice = {
      interleaved: [
        twoBuffers.interleaved[0],
        { ...twoBuffers.interleaved[1], attributes: { position: { format: 'float32x3' as const, offset: 0 } } },
      ],
    };
    expect(() => makeMeshGeometry('twice', twice)).toThrowError(/interleaved\[1\]\.attributes\.position.*two buffers/);
    expect(() => makeMeshGeometry('empty', { interleaved: [] })).toThrowError(/interleaved.*empty list/);
    expect(() =>
      makeMeshGeometry('bad', {
        interleaved: [twoBuffers.interleaved[0], { ...twoBuffers.interleaved[1], arrayStride: 6 }],
      }),
    ).toThrowError(/interleaved\[1\]\.arrayStride/);
  });
});

describe('host buffers are checked against the data before any pass binds them', () => {
  const geometry = makeMeshGeometry('two', { ...twoBuffers, indices: new Uint16Array([0, 1, 2]) });
  const vertex = 0x20;
  const index = 0x10;
  const good = { vertexBuffers: [fakeBuffer(36, vertex), fakeBuffer(36, vertex)], indexBuffer: fakeBuffer(8, index) };

  test('matching buffers pass, frozen', () => {
    const checked = checkMeshHostBuffers('api', 'two', geometry, 0, good);
    expect(Object.isFrozen(checked)).toBe(true);
    expect(checked.vertexBuffers).toHaveLength(2);
  });

  test.each([
    ['a missing buffer', { ...good, vertexBuffers: [good.vertexBuffers[0]] }, /holds 1 buffers; the mesh data has 2/],
    [
      'no VERTEX usage',
      { ...good, vertexBuffers: [fakeBuffer(36, 0x40, 'u'), good.vertexBuffers[1]] },
      /vertexBuffers\[0\].*"u".*VERTEX/,
    ],
    [
      'too small',
      { ...good, vertexBuffers: [good.vertexBuffers[0], fakeBuffer(24, vertex)] },
      /vertexBuffers\[1\].*holds 24 bytes; the mesh data needs 36/,
    ],
    ['no index buffer', { vertexBuffers: good.vertexBuffers }, /indexBuffer.*missing/],
    ['no INDEX usage', { ...good, indexBuffer: fakeBuffer(8, vertex) }, /indexBuffer.*INDEX/],
    [
      'instances without thin instances',
      { ...good, instanceBuffer: fakeBuffer(64, vertex) },
      /instanceBuffer.*no thin instances/,
    ],
    [
      'an unknown key',
      { ...good, colours: 1 },
      /hostBuffers\.colours.*allowed: vertexBuffers, indexBuffer, instanceBuffer/,
    ],
    [
      'not a buffer',
      { ...good, vertexBuffers: [{}, good.vertexBuffers[1]] },
      /vertexBuffers\[0\].*expected a GPUBuffer/,
    ],
  ])('%s is a MeshDataError naming it', (_, buffers, message) => {
    expect(() => checkMeshHostBuffers('api', 'two', geometry, 0, buffers)).toThrowError(MeshDataError);
    expect(() => checkMeshHostBuffers('api', 'two', geometry, 0, buffers)).toThrowError(message);
  });
});
