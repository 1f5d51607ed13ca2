// The Vite dev-server plugin of live fragment edits: `.wgsl?raw` imports and `*.fragment.ts` modules become HMR
// boundaries whose new text is swapped into the live pipelines (weft-gpu/composer's swapLiveFragmentsAsync); a refused
// edit shows in Vite's error overlay at the fragment file's line. Nothing of it reaches a production build.
import type { LiveFragmentErrorReport } from './live-client.js';

/** The hooks Vite calls (a structural subset of its `Plugin` type). */
export interface WeftLiveReloadPlugin {
  name: 'weft-live-reload';
  apply: 'serve';
  enforce: 'pre';
  /** Pre-bundles weft-gpu/composer, which the hot-edit code imports (so the first page load does not re-optimise). */
  config(): { optimizeDeps: { include: string[] } } | null;
  /** A `.wgsl?raw` import: the file's text, plus the code that swaps a new text into the live pipelines. */
  load(id: string): Promise<string | null>;
  /** A `*.fragment.[cm][jt]s` module: appends the code that swaps its new fragments into the live pipelines. */
  transform(code: string, id: string): string | null;
  /** Shows a refused edit in Vite's error overlay and the terminal, and logs each swap. */
  configureServer(server: LiveReloadServer): void;
}

/** The part of Vite's dev server the plugin uses. */
export interface LiveReloadServer {
  ws: {
    /** Listens to a custom event the page sends (`import.meta.hot.send`). */
    on(event: string, listener: (data: unknown) => void): void;
    /** Sends an error to the pages (Vite shows it in its overlay). */
    send(payload: {
      type: 'error';
      err: { message: string; stack: string; id?: string; plugin?: string; loc?: object };
    }): void;
  };
  config: {
    logger: {
      /** Prints a line in the dev server's terminal. */
      info(message: string): void;
      /** Prints an error in the dev server's terminal. */
      error(message: string): void;
    };
  };
}

/** Node's `readFile` (utf8), imported when first needed: the plugin's types stay free of Node's. */
async function readTextAsync(path: string): Promise<string> {
  const fs = (await import('node:fs/promises' as string)) as {
    readFile(path: string, encoding: 'utf8'): Promise<string>;
  };
  return fs.readFile(path, 'utf8');
}

const fragmentModule = /\.fragment\.[cm]?[jt]s$/;

/** A weft module's absolute path (source tree: `.ts`; package: `.js`). */
function weftFile(relative: string): string {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const path = decodeURIComponent(new URL(`../${relative}${extension}`, import.meta.url).pathname);
  return path.replace(/^\/([A-Za-z]:\/)/, '$1');
}

function splitId(id: string): { path: string; query: URLSearchParams } {
  const at = id.indexOf('?');
  return at < 0
    ? { path: id, query: new URLSearchParams() }
    : { path: id.slice(0, at), query: new URLSearchParams(id.slice(at + 1)) };
}

/** Where the first error of a report is in its file: the fragment's source is found in the file's text. */
async function locateAsync(
  report: LiveFragmentErrorReport,
): Promise<{ file: string; line: number; column: number } | undefined> {
  const message = report.messages.find((m) => m.type === 'error' && report.sources[m.fragmentId] !== undefined);
  if (!message) return undefined;
  let text: string;
  try {
    text = await readTextAsync(report.file);
  } catch {
    return undefined;
  }
  const at = text.indexOf(report.sources[message.fragmentId]);
  if (at < 0) return undefined;
  const before = text.slice(0, at).split('\n');
  const column = message.line === 1 ? before[before.length - 1].length + message.column : message.column;
  return { file: report.file, line: before.length - 1 + message.line, column };
}

/**
 * Live fragment edits in the Vite dev server. A fragment whose WGSL comes from a `.wgsl` file imported with `?raw`,
 * or a fragment module named `*.fragment.ts` (every export a fragment), is hot-swapped when you save it: only the
 * shaders that use it are recomposed, and the pipelines already drawing take the new code on their next frame,
 * without a page reload. An edit that does not compose or compile is shown (console, Vite's error overlay, at the
 * file's line) and the last good pipelines keep drawing; an edit that changes bindings or layouts reloads the page.
 * Applies to `vite serve` only. See docs/build-time-composition.md.
 */
export function weftLiveReload(): WeftLiveReloadPlugin {
  const fromSource = import.meta.url.endsWith('.ts');
  const composer = JSON.stringify(fromSource ? weftFile('composer/index') : 'weft-gpu/composer');
  const client = JSON.stringify(weftFile('vite/live-client'));
  const prelude = (apply: string) =>
    `import * as __weftComposer from ${composer};\nimport { ${apply} as __weftApply } from ${client};\n__weftComposer.enableLiveFragments();\n`;
  return {
    name: 'weft-live-reload',
    apply: 'serve',
    enforce: 'pre',
    config() {
      return fromSource ? null : { optimizeDeps: { include: ['weft-gpu/composer'] } };
    },
    async load(id) {
      const { path, query } = splitId(id);
      if (!path.endsWith('.wgsl') || !query.has('raw')) return null;
      const file = JSON.stringify(path);
      return `${prelude('applyWgslUpdate')}const source = ${JSON.stringify(await readTextAsync(path))};
export default source;
if (import.meta.hot) {
  import.meta.hot.data.weftSource ??= source;
  import.meta.hot.accept((next) => { if (next) __weftApply(import.meta.hot, __weftComposer, ${file}, next.default); });
}
`;
    },
    transform(code, id) {
      const { path } = splitId(id);
      if (!fragmentModule.test(path) || path.includes('/node_modules/')) return null;
      return `${code}
${prelude('applyFragmentModuleUpdate')}if (import.meta.hot) import.meta.hot.accept((next) => { if (next) __weftApply(import.meta.hot, __weftComposer, ${JSON.stringify(path)}, next); });
`;
    },
    configureServer(server) {
      const { logger } = server.config;
      server.ws.on('weft:fragment-swap', (data) => {
        const swap = data as { file: string; fragmentIds: string[]; variants: number; pipelines: number; ms: number };
        logger.info(
          `weft: ${swap.file}: ${swap.fragmentIds.join(', ')} swapped in ${swap.variants} shader(s), ${swap.pipelines} pipeline(s), ${Math.round(swap.ms)} ms`,
        );
      });
      server.ws.on('weft:fragment-error', async (data) => {
        const report = data as LiveFragmentErrorReport;
        const loc = await locateAsync(report);
        logger.error(
          `weft: ${report.file}: the edit was not applied (the last good shaders keep drawing)\n${report.message}`,
        );
        server.ws.send({
          type: 'error',
          err: {
            message: `${report.message}\n\nThe last good shaders keep drawing; save a fix to swap it in.`,
            stack: '',
            id: report.file,
            plugin: 'weft-live-reload',
            ...(loc ? { loc } : {}),
          },
        });
      });
    },
  };
}
