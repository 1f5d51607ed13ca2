import { describe, expect } from 'vitest';
import {
  acquireCheckedShaderModuleAsync,
  composeShader,
  getComposerCounters,
  ShaderCompileError,
} from '../../../composer/index.js';
import { makeStandardVertexFragments, type Fragment } from '../../../fragments/index.js';
import { gpuTest } from '../../support/gpu.js';

// A helper fragment imported by a leaf fragment that fills the fragment stage.
const helperSource = `// Tint helpers (the comment is not ASCII on purpose: × — é)
fn tint(color: vec4f) -> vec4f {
  let strength = 0.5;
  return color * strength;
}
`;
const leafSource = `import io::{ FragmentInput, FragmentOutput };
import package::tint_helper::tint;

fn tintedSurface(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  output.color = tint(input.color);
  return output;
}
`;
const helper = (source = helperSource): Fragment => ({ id: 'tint-helper', source });
const leaf = (source = leafSource): Fragment => ({
  id: 'tinted-surface',
  source,
  dependencies: ['tint-helper'],
  outputs: [{ name: 'color', type: 'vec4f' }],
  fills: [{ slot: 'fragmentStage', fn: 'tintedSurface' }],
});

async function compileError(device: GPUDevice, fragments: Fragment[]): Promise<ShaderCompileError> {
  // The leaf reads the vertex colour, a varying under the colors condition: only the injected error may fail.
  const composed = composeShader({
    fragments: [...makeStandardVertexFragments(), ...fragments],
    conditions: { colors: true },
  });
  const before = getComposerCounters(device);
  try {
    await acquireCheckedShaderModuleAsync(device, composed, 'tinted');
  } catch (error) {
    expect(error).toBeInstanceOf(ShaderCompileError);
    expect(getComposerCounters(device)).toEqual(before);
    return error as ShaderCompileError;
  }
  throw new Error('the broken shader compiled');
}

describe('device compile errors map to fragment:line:column', () => {
  gpuTest(
    'an error in the leaf fragment names the leaf, its line and column, and quotes the line',
    async ({ engine }) => {
      const error = await compileError(engine.device, [
        helper(),
        leaf(leafSource.replace('tint(input.color)', 'tint(input.colour)')),
      ]);
      expect(error.messages).toEqual([
        {
          fragmentId: 'tinted-surface',
          line: 6,
          column: 23,
          type: 'error',
          message: 'struct member colour not found',
          lineText: '  output.color = tint(input.colour);',
        },
      ]);
      expect(error.message).toBe(
        `acquireCheckedShaderModuleAsync: shader "tinted" failed to compile with 1 error(s):\ntinted-surface:6:23: struct member colour not found\n    output.color = tint(input.colour);\n  ${' '.repeat(22)}^`,
      );
    },
  );

  gpuTest(
    'an error in an imported fragment names the imported fragment (after a non-ASCII comment)',
    async ({ engine }) => {
      const error = await compileError(engine.device, [
        helper(helperSource.replace('let strength = 0.5;', 'let strength = 1u;')),
        leaf(),
      ]);
      expect(error.messages).toHaveLength(1);
      expect(error.messages[0]).toMatchObject({
        fragmentId: 'tint-helper',
        line: 4,
        column: 10,
        type: 'error',
        lineText: '  return color * strength;',
      });
      expect(error.messages[0].message).toMatch(/^no matching overload for 'operator \* \(vec4<f32>, u32\)'$/);
      expect(error.message).toContain('tint-helper:4:10: no matching overload');
    },
  );

  gpuTest(
    'a type error in a binding declared by a fragment is reported in the generated bindings module, naming the fragment',
    async ({ engine }) => {
      const bad: Fragment = {
        id: 'bad-binding',
        source: 'import bindings::enabled;\nfn weight(i: u32) -> f32 { return select(0.0, f32(i), enabled); }\n',
        bindings: [{ name: 'enabled', kind: 'uniform', type: 'bool', role: 'extra', visibility: ['fragment'] }],
      };
      const user = leaf(
        leafSource
          .replace('tint(input.color)', 'vec4f(package::bad_binding::weight(0u))')
          .replace('import package::tint_helper::tint;\n', ''),
      );
      const error = await compileError(engine.device, [{ ...user, dependencies: ['bad-binding'] }, bad]);
      expect(error.messages[0]).toMatchObject({
        fragmentId: 'weft:bindings',
        line: 3,
        origin: 'bad-binding',
        lineText: '@group(3) @binding(0) var<uniform> enabled: bool;',
      });
      expect(error.messages[0].message).toContain("'bool' cannot be used in address space 'uniform'");
      expect(error.message).toContain('(in code generated for fragment "bad-binding")');
    },
  );
});
