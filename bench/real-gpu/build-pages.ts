// Builds the Chromium benchmark pages (bench/three-pick, bench/browser-pick) into static folders with Vite, for a
// machine that has no node_modules to run Vite's dev server on: bench-chromium.ts serves them when WEFT_BENCH_PAGES
// names the output folder.
//
//   npx tsx bench/real-gpu/build-pages.ts [out]      (default .gpu-chrome/pages; one sub-folder per bench)
import { join, resolve } from 'node:path';
import { build } from 'vite';

const root = resolve(import.meta.dirname, '..', '..');
const out = resolve(process.argv[2] ?? join(root, '.gpu-chrome', 'pages'));

/** Each bench folder and its HTML pages; the folder names are the ones `startBenchPageServer` looks up. */
const pageSets: Record<string, string[]> = {
  'three-pick': ['index.html'],
  'browser-pick': ['index.html', 'babylon.html'],
};

async function main(): Promise<void> {
  for (const [folder, pages] of Object.entries(pageSets)) {
    const pagesRoot = join(root, 'bench', folder);
    await build({
      configFile: false,
      envDir: false,
      root: pagesRoot,
      logLevel: 'warn',
      base: './',
      build: {
        outDir: join(out, folder),
        emptyOutDir: true,
        // The pages measure, they are not shipped: readable output and no size warnings for Babylon.js.
        minify: false,
        target: 'esnext',
        chunkSizeWarningLimit: 100_000,
        rollupOptions: { input: pages.map((page) => join(pagesRoot, page)) },
      },
    });
    console.log(`${folder}: ${pages.join(', ')} -> ${join(out, folder)}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
