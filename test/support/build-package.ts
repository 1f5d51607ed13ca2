// Builds the package for the build, CLI and doc tests into a directory of its own under out/ (never dist/, which `npm run build`
// and other tests may be writing): <package>/dist plus a copy of package.json, so that a consumer can link
// node_modules/weft-gpu to it and resolve the real exports. Inside the repository, the package's own dependencies
// resolve from the repository's node_modules.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { rollup } from 'rollup';
import { makeRollupConfig } from '../../rollup.config.mjs';

/** The repository root. */
export const repoRoot = resolve(import.meta.dirname, '../..');

/** A package built by buildPackageAsync. */
export interface BuiltPackage {
  /** The package root (package.json, dist/). */
  dir: string;
  /** Its dist/ folder. */
  dist: string;
}

let built: Promise<BuiltPackage> | undefined;

/** Builds the package once per test process (memoised); removeBuiltPackage deletes it. */
export function buildPackageAsync(): Promise<BuiltPackage> {
  built ??= (async () => {
    const dir = join(repoRoot, 'out', `package-${process.pid}-${Date.now().toString(36)}`);
    const dist = join(dir, 'dist');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(repoRoot, 'package.json'), join(dir, 'package.json'));
    const config = makeRollupConfig({ outDir: dist });
    const build = await rollup({ ...config, onwarn: () => undefined });
    await build.write(config.output);
    await build.close();
    return { dir, dist };
  })();
  return built;
}

/** Deletes the package built by this process. */
export async function removeBuiltPackageAsync(): Promise<void> {
  if (!built) return;
  const { dir } = await built;
  built = undefined;
  rmSync(dir, { recursive: true, force: true });
}
