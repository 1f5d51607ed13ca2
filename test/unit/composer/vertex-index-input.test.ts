// A `vertexIndex` vertex input stands in for the vertex_index builtin (an expanded-vertices pick of a morphed mesh
// feeds each corner's original vertex that way); the builtin stays readable as `drawVertexIndex`.
import { describe, expect, test } from 'vitest';
import { ComposeError, type ComposeSpec, composeShader } from '../../../composer/index.js';
import type { Fragment } from '../../../fragments/fragment-types.js';
import { makePickFragments } from '../../../fragments/index.js';

const positions = { arrayStride: 12, attributes: [{ semantic: 'position', offset: 0, format: 'float32x3' as const }] };
const vertexIndices = {
  arrayStride: 4,
  attributes: [{ semantic: 'vertexIndex', offset: 0, format: 'uint32' as const }],
};

function pickSpec(vertexIndexAttribute: boolean): ComposeSpec {
  return {
    fragments: makePickFragments(),
    conditions: { primitiveDetail: true, pickTriangleFromVertex: true, vertexIndexAttribute },
    vertexLayout: { kind: 'buffers', buffers: [positions, vertexIndices] },
  };
}

/** The lines of the composed `VertexInput` struct. */
function vertexInputStruct(code: string): string {
  const start = code.indexOf('struct VertexInput');
  return code.slice(start, code.indexOf('}', start) + 1);
}

describe('a vertexIndex vertex input', () => {
  test('replaces the builtin: a uint32 attribute of its own buffer, the draw index as drawVertexIndex', () => {
    const plain = composeShader(pickSpec(false));
    const fed = composeShader(pickSpec(true));
    expect(plain.vertexBuffers).toHaveLength(1);
    expect(vertexInputStruct(plain.code)).toMatch(/@builtin\(vertex_index\) vertexIndex: u32/);
    const struct = vertexInputStruct(fed.code);
    expect(struct).toMatch(/@builtin\(vertex_index\) drawVertexIndex: u32/);
    const input = fed.vertexInputs.find((i) => i.semantic === 'vertexIndex')!;
    expect(struct).toContain(`@location(${input.location}) vertexIndex: u32`);
    expect(fed.vertexBufferSources).toEqual([0, 1]);
    expect(fed.vertexBuffers[1]).toEqual({
      arrayStride: 4,
      stepMode: 'vertex',
      attributes: [{ shaderLocation: input.location, offset: 0, format: 'uint32' }],
    });
    // The triangle still comes from the draw's own index.
    expect(fed.code).toMatch(/pickTriangle = input\.drawVertexIndex \/ 3u/);
    expect(plain.code).toMatch(/pickTriangle = input\.vertexIndex \/ 3u/);
  });

  test('of another format, per instance, or with vertexPulling is a ComposeError naming the fragment', () => {
    const declaring = (decl: Fragment['vertexInputs']): Fragment => ({
      id: 'reads-index',
      source: 'fn unused() {}\n',
      vertexInputs: decl,
    });
    for (const decl of [
      [{ semantic: 'vertexIndex', format: 'float32' as const }],
      [{ semantic: 'vertexIndex', format: 'uint32' as const, stepMode: 'instance' as const }],
      [{ semantic: 'drawVertexIndex', format: 'uint32' as const }],
    ]) {
      const error = (() => {
        try {
          composeShader({ fragments: [...makePickFragments(), declaring(decl)] });
        } catch (e) {
          return e as ComposeError;
        }
      })();
      expect(error).toBeInstanceOf(ComposeError);
      expect(error!.code).toBe('invalid-fragment');
      expect(error!.fragmentIds).toEqual(['reads-index']);
      expect(error!.message).toMatch(/vertexIndex only as a per-vertex uint32/);
    }
    const pulled = (() => {
      try {
        composeShader({ ...pickSpec(true), vertexPulling: { indexFormat: 'uint32', role: 'material' } });
      } catch (e) {
        return e as ComposeError;
      }
    })();
    expect(pulled).toBeInstanceOf(ComposeError);
    expect(pulled!.code).toBe('invalid-spec');
    expect(pulled!.message).toMatch(/vertexPulling sets input\.vertexIndex itself, but fragment "pick-output" reads/);
  });
});
