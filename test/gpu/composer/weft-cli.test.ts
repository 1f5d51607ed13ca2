import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/broken-variants.ts', import.meta.url));

function weft(...args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/weft.ts', ...args], { cwd: root, maxBuffer: 32 << 20 }, (error, stdout) => done({ code: error ? Number(error.code ?? 1) : 0, stdout }));
  });
}

describe('weft CLI', () => {
  test('validate compiles every registered variant on Dawn and exits 0', async () => {
    const { code, stdout } = await weft('validate');
    expect(stdout).toContain('all 20 variant(s) compile');
    expect(code).toBe(0);
  });

  test('validate prints errors mapped to the fragment and exits 1', async () => {
    const { code, stdout } = await weft('validate', '--registry', fixture, 'cli-good', 'cli-bad-type', 'cli-unlinked');
    expect(code).toBe(1);
    expect(stdout).toMatch(/✓ cli-good \([0-9a-f]{16}\)/);
    expect(stdout).toMatch(/✗ cli-bad-type \([0-9a-f]{16}\)\n {4}cli-helper:2:10: no matching overload for 'operator \* \(vec4<f32>, u32\)'\n {8}return c \* 2u;\n {15}\^/);
    expect(stdout).toContain("✗ cli-unlinked: composeShader: cli-helper:2:10: unresolved identifier 'missing'");
    expect(stdout).toContain('2 of 3 variant(s) failed');
  });

  test('compose prints the layouts and the WGSL; list names every variant', async () => {
    const composed = await weft('compose', 'pick-detail');
    expect(composed.code).toBe(0);
    expect(composed.stdout).toContain('// target @location(2) pickDetail: vec4u -> rgba32uint');
    expect(composed.stdout).toContain('enable primitive_index;');
    const list = await weft('list');
    expect(list.stdout.trim().split('\n')).toHaveLength(20);
    expect((await weft('compose', 'nope')).code).toBe(1);
  });
});
