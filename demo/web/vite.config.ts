// `vite demo/web` (npm run dev) and `vite build demo/web` (npm run build:demo): the editor page, importing weft's
// sources from the repository root.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  server: { host: '127.0.0.1', fs: { allow: [repoRoot] } },
  preview: { host: '127.0.0.1' },
  build: { outDir: `${repoRoot}out/web`, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2000 },
});
