import { describe, expect, test } from 'vitest';
import { ComposeError, type ComposeSpec, composeShader, makeComposeCache } from '../../../composer/index.js';
import { makePickFragments } from '../../../fragments/index.js';

/** The pick fragments over an interleaved position + weights buffer, a separate joints buffer and instances. */
function spec(vertexPulling?: ComposeSpec['vertexPulling'], format: GPUVertexFormat = 'float32x3'): ComposeSpec {
  return {
    fragments: makePickFragments(),
    conditions: {
      thinInstances: true,
      primitiveDetail: true,
      pickTriangleFromVertex: true,
      vertexPulling: !!vertexPulling,
    },
    vertexLayout: {
      kind: 'buffers',
      buffers: [
        { arrayStride: 20, attributes: [{ semantic: 'position', offset: 8, format }] },
        {
          arrayStride: 64,
          stepMode: 'instance',
          attributes: [0, 1, 2, 3].map((i) => ({
            semantic: `instance${i}`,
            offset: i * 16,
            format: 'float32x4' as const,
          })),
        },
      ],
    },
    ...(vertexPulling ? { vertexPulling } : {}),
  };
}

describe('vertex pulling (ComposeSpec.vertexPulling)', () => {
  test('per-vertex inputs leave the vertex buffers for storage bindings in the given role; instance inputs stay', () => {
    const cache = makeComposeCache();
    const plain = composeShader(spec(), cache);
    const pulled = composeShader(spec({ indexFormat: 'uint16', role: 'material' }), cache);
    expect(pulled.key).not.toBe(plain.key);
    expect(pulled.vertexBuffers).toHaveLength(1);
    expect(pulled.vertexBuffers[0].stepMode).toBe('instance');
    expect(pulled.vertexBufferSources).toEqual([1]);
    expect(pulled.vertexInputs.find((i) => i.semantic === 'position')).toMatchObject({ location: -1, buffer: -1 });
    expect(pulled.vertexInputs.filter((i) => i.location >= 0).map((i) => [i.semantic, i.location])).toEqual([
      ['instance0', 0],
      ['instance1', 1],
      ['instance2', 2],
      ['instance3', 3],
    ]);
    const material = pulled.bindGroups.find((g) => g.role === 'material')!;
    expect(material.bindings.map((b) => [b.name, b.kind, b.wgslType])).toEqual([
      ['pulledIndices', 'read-only-storage', 'array<u32>'],
      ['pulledVertices0', 'read-only-storage', 'array<u32>'],
    ]);
    expect(pulled.fragments.at(-1)).toBe('vertex-pulling');
    // Offset 8 of a 20-byte vertex: words 2..4 of vertex * 5; uint16 indices: two per word.
    expect(pulled.code).toContain('bitcast<f32>(pulledVertices0[vertex * 5u + 2u])');
    expect(pulled.code).toContain(
      '(pulledIndices[pulled.drawVertexIndex >> 1u] >> ((pulled.drawVertexIndex & 1u) * 16u)) & 0xffffu',
    );
    expect(pulled.code).toContain('(*output).pickTriangle = input.drawVertexIndex / 3u;');
    expect(pulled.code).not.toContain('primitive_index');
    expect(pulled.features).toEqual([]);
    // Part of the cache key: the same spec hits, another index format does not.
    expect(composeShader(spec({ indexFormat: 'uint16', role: 'material' }), cache)).toBe(pulled);
    expect(composeShader(spec({ indexFormat: 'uint32', role: 'material' }), cache).code).toContain(
      'let vertex = pulledIndices[pulled.drawVertexIndex];',
    );
  });

  test('a bad vertexPulling or a format it cannot read is a ComposeError naming what is allowed', () => {
    const error = (s: ComposeSpec) => {
      try {
        composeShader(s);
      } catch (e) {
        return e as ComposeError;
      }
      throw new Error('expected a ComposeError');
    };
    const bad = error(spec({ indexFormat: 'uint8' as never, role: 'material' }));
    expect(bad).toBeInstanceOf(ComposeError);
    expect(bad.code).toBe('invalid-spec');
    expect(bad.message).toMatch(/indexFormat: 'uint16' \| 'uint32' \| null/);
    const format = error(spec({ indexFormat: null, role: 'material' }, 'unorm10-10-10-2'));
    expect(format.code).toBe('vertex-format');
    expect(format.message).toMatch(
      /"position" has format "unorm10-10-10-2", which vertex pulling cannot read; allowed: float32/,
    );
  });
});
