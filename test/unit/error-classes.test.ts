import { describe, expect, test } from 'vitest';
import { ComposeError, ShaderCompileError } from '../../composer/errors.js';
import { LayoutError } from '../../composer/layout-errors.js';
import { WeftError } from '../../core/errors.js';
import { EngineError, MeshDataError } from '../../engine/engine-errors.js';
import { GeometryError } from '../../geometry/geometry-errors.js';
import { CpuPickError } from '../../picking/cpu/cpu-pick-error.js';
import { PickError } from '../../picking/pick-errors.js';

// Never called: `tsc --noEmit` (part of npm test) proves every class refuses a code outside its union at a throw
// site. (Returning `unknown[]` on purpose: a `WeftError<string>` context would let the base infer a wider code.)
function unknownCodesDoNotCompile(): unknown[] {
  return [
    // @ts-expect-error merged into 'bad-option'
    new EngineError('makePerspectiveCamera', 'bad-fov', ''),
    // @ts-expect-error merged into 'bad-option'
    new GeometryError('createGeometryRendererTask', 'bad-config', ''),
    // @ts-expect-error merged into 'limit-exceeded'
    new PickError('pickManyAsync', 'too-many-points', ''),
    // @ts-expect-error not a CPU pick code
    new CpuPickError('pickSync', 'disposed', ''),
    // @ts-expect-error not a compose code
    new ComposeError('composeShader', 'shader-compile', [], ''),
    // @ts-expect-error not a layout code
    new LayoutError('setUniforms', 'bad-type', 'x', ''),
    // @ts-expect-error a plain WeftError takes only WeftErrorCode
    new WeftError('weft', 'bad-option', ''),
  ];
}

describe('error classes', () => {
  test('every class is a WeftError that names the API and carries its literal code', () => {
    const errors: WeftError<string>[] = [
      new WeftError('weft', 'usage', 'weft compose needs a variant'),
      new ComposeError('composeShader', 'missing-slot', ['surface'], 'slot "x" is not filled'),
      new ShaderCompileError('acquireCheckedShaderModuleAsync', 'probe', []),
      new LayoutError('setUniforms', 'unknown-field', 'tnit', 'the value (U) has no field "tnit"'),
      new EngineError('createRenderTarget', 'bad-size', 'width 0 must be an integer in 1..8192'),
      new MeshDataError('createMeshFromData', 'm', 'positions', 'must be a Float32Array'),
      new GeometryError('createGeometryRendererTask', 'not-enabled', 'no LINEAR_VELOCITY attachment'),
      new PickError('pickAsync', 'bad-coordinates', 'coordinates (NaN, 3) must be finite numbers'),
      new CpuPickError('pickWithRaySync', 'bad-ray', 'ray direction (0, 0, 0) has length 0'),
    ];
    expect(errors.map((e) => [e.name, e.code])).toEqual([
      ['WeftError', 'usage'],
      ['ComposeError', 'missing-slot'],
      ['ShaderCompileError', 'shader-compile'],
      ['LayoutError', 'unknown-field'],
      ['EngineError', 'bad-size'],
      ['MeshDataError', 'mesh-data'],
      ['GeometryError', 'not-enabled'],
      ['PickError', 'bad-coordinates'],
      ['CpuPickError', 'bad-ray'],
    ]);
    for (const error of errors) {
      expect(error).toBeInstanceOf(WeftError);
      expect(error.message.startsWith(`${error.api}: `)).toBe(true);
    }
    expect(new PickError('pickAsync', 'rule-compile', 'x').messages).toEqual([]);
    expect(typeof unknownCodesDoNotCompile).toBe('function');
  });
});
