import { describe, expect, test } from 'vitest';
import { mat4 } from 'wgpu-matrix';
import { createMeshFromData } from '../../../engine/mesh.js';
import { makeBoxData } from '../../../engine/primitives/index.js';
import { copyThinInstanceMatrix, multiplyByThinInstance } from '../../../engine/thin-instance-matrix.js';
import { CpuPickError, pickWithRaySync } from '../../../picking/cpu/index.js';
import { PickError } from '../../../picking/pick-errors.js';
import { makePickFilter, makePickFilterTest, type PickFilterOptions } from '../../../picking/pick-filter.js';
import { makePickSnapshot } from '../../../picking/pick-snapshot.js';
import { makeCpuScene } from './scene-fixtures.js';

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('one pick-options parser for the GPU and CPU pickers', () => {
  const scene = makeCpuScene();
  const box = createMeshFromData(scene, 'box', makeBoxData());
  const row = createMeshFromData(scene, 'row', makeBoxData(), {
    thinInstances: new Float32Array([...mat4.translation([0, 0, 0]), ...mat4.translation([2, 0, 0])]),
  });
  const ray = { origin: [0, 0, 5], direction: [0, 0, -1] };

  test('the same bad option is the same code and message, thrown as each API’s own class', () => {
    const bad: [PickFilterOptions, string, RegExp][] = [
      [{ filter: 3 as never }, 'bad-option', /filter 3 must be a function \(mesh\) => boolean$/],
      [{ ignore: box as never }, 'bad-option', /ignore \[object Object\] must be an array/],
      [
        { ignore: [box, {}] as never },
        'bad-ignore',
        /ignore\[1\] \[object Object\] must be a mesh or \{ mesh, thinInstances \}$/,
      ],
      [{ ignore: [{ mesh: row, thinInstances: [1, 3] }] }, 'bad-ignore', /ignore\[0\] for mesh "row": thin instances/],
      [{ ignore: [{ mesh: box, thinInstances: 0 }] }, 'bad-ignore', /inside 0\.\.0$/],
    ];
    for (const [options, code, message] of bad) {
      const gpu = thrown(() => makePickSnapshot('pickAsync', scene.meshes, options, null));
      const cpu = thrown(() => pickWithRaySync(scene, ray, options));
      expect(gpu).toBeInstanceOf(PickError);
      expect(cpu).toBeInstanceOf(CpuPickError);
      expect([(gpu as PickError).code, (cpu as CpuPickError).code]).toEqual([code, code]);
      expect(gpu.message).toMatch(/^pickAsync: /);
      expect(gpu.message).toMatch(message);
      expect(cpu.message.replace(/^\w+: /, '')).toBe(gpu.message.replace(/^\w+: /, ''));
    }
  });

  test('the compiled test keeps pickable, filtered, not ignored meshes and instances', () => {
    const accepts = makePickFilterTest(
      makePickFilter('test', { filter: (m) => m !== box, ignore: [{ mesh: row, thinInstances: 1 }] }, PickError),
    );
    expect([accepts(box, -1), accepts(row, 0), accepts(row, 1)]).toEqual([false, true, false]);
    const ignoreWhole = makePickFilterTest(
      makePickFilter('test', { ignore: [row, { mesh: row, thinInstances: 0 }] }, PickError),
    );
    expect([ignoreWhole(box, -1), ignoreWhole(row, 1)]).toEqual([true, false]);
    row.pickable = false;
    expect(makePickFilterTest(makePickFilter('test', {}, PickError))(row, 0)).toBe(false);
    row.pickable = true;
  });

  test('a thin-instance matrix reads its payload lanes as 0, 0, 0, 1', () => {
    const instances = new Float32Array(32).map((_, i) => i + 1);
    const sanitised = copyThinInstanceMatrix(instances, 1);
    expect([sanitised[3], sanitised[7], sanitised[11], sanitised[15]]).toEqual([0, 0, 0, 1]);
    expect(Array.from(sanitised).filter((_, i) => i % 4 !== 3)).toEqual(
      Array.from(instances.subarray(16)).filter((_, i) => i % 4 !== 3),
    );
    const world = mat4.rotationY(0.3) as Float32Array;
    const dst = new Float32Array(16);
    expect(multiplyByThinInstance(world, instances, 1, dst)).toBe(dst);
    expect(Array.from(dst)).toEqual(Array.from(mat4.multiply(world, sanitised) as Float32Array));
  });
});
