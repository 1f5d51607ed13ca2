import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { describe, expect, test } from 'vitest';

const run = promisify(execFile);

describe('headless demo (the README main job)', () => {
  test('renders the default scene to a PNG and prints the report', async () => {
    const out = await mkdtemp(join(tmpdir(), 'weft-demo-'));
    try {
      const { stdout } = await run(
        'npx',
        ['tsx', 'demo/headless.ts', '--out', out, '--width', '320', '--height', '180'],
        { timeout: 120_000 },
      );
      expect(stdout).toMatch(/adapter\s+.*llvmpipe/);
      expect(stdout).toMatch(/features\s+.*primitive-index/);
      expect(stdout).toMatch(/scene\s+12 meshes, 24 thin instances/);
      expect(stdout).toMatch(/draw calls\s+12/);
      expect(stdout).toContain('GPU picks (detailed: primitive-index), pixel centres of a 6×4 grid:');
      // The grid's centre row crosses the ground plane: several picks must name it with a face and +Y normal.
      expect(stdout.match(/ ground +— +\d+ .* 0\.00, 1\.00, 0\.00 /g)?.length ?? 0).toBeGreaterThan(2);
      // CPU picks of the same pixels, side by side: they agree (✓) and at least some of them hit.
      expect(stdout).not.toContain('✗');
      expect(stdout.match(/ ground \d+ ✓/g)?.length ?? 0).toBeGreaterThan(2);
      expect(stdout).toMatch(
        /G-buffer\s+.*gbuffer-strip\.png: normalizedViewDepth, viewNormal, worldNormal, worldPosition, reflectivity, albedo \(107×60 each\)/,
      );
      const strip = PNG.sync.read(await readFile(join(out, 'gbuffer-strip.png')));
      expect([strip.width, strip.height]).toEqual([107 * 6, 60]);
      // World normals of the ground plane (+Y) encode as (0.5, 1, 0.5): the bottom middle of the third image.
      const at = ((60 - 3) * strip.width + 2 * 107 + 53) * 4;
      expect([...strip.data.subarray(at, at + 3)].map((c) => Math.round((c / 255) * 10) / 10)).toEqual([0.5, 1, 0.5]);
      // Pick sources: each label picks as its own sprite; the splat cloud picks as the cloud.
      expect(stdout).toContain('Pick sources (');
      for (let i = 0; i < 5; i++) expect(stdout).toMatch(new RegExp(`aimed at sprite #${i} +picked sprite #${i} .* ✓`));
      expect(stdout.match(/aimed at splat #\d+ +picked splat #\d+ .* ✓/g)?.length ?? 0).toBe(4);
      const entities = PNG.sync.read(await readFile(join(out, 'frame-entities.png')));
      expect([entities.width, entities.height]).toEqual([320, 180]);
      const annotated = PNG.sync.read(await readFile(join(out, 'frame-picks.png')));
      expect([annotated.width, annotated.height]).toEqual([320, 180]);
      const png = PNG.sync.read(await readFile(join(out, 'frame.png')));
      expect([png.width, png.height]).toEqual([320, 180]);
      // Top-left is sky: the scene's clear colour (0.07, 0.08, 0.1) in 8 bits.
      expect([...png.data.subarray(0, 3)]).toEqual([18, 20, 26]);
      const colours = new Set<string>();
      for (let i = 0; i < png.data.length; i += 4) colours.add(png.data.subarray(i, i + 3).join());
      expect(colours.size).toBeGreaterThan(200);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  test('refuses a bad size with a clear message and exit code 2', async () => {
    const failure = await run('npx', ['tsx', 'demo/headless.ts', '--width', 'wide'], { timeout: 60_000 }).catch(
      (e) => e,
    );
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('demo: --width wide --height 540 must be integers in 1..8192');
  });
});
