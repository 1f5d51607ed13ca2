// The page side of weftLiveReload(): a hot-edited `.wgsl` file or fragment module hands its new text to these
// functions, which swap the fragment in the live pipelines (weft-gpu/composer's swapLiveFragmentsAsync) or fall back
// to Vite's propagation (a reload) when the edit cannot be swapped. Served to the page by path, never bundled into the
// library: it imports nothing, and gets the page's own composer instance as an argument.
import type { swapLiveFragmentsAsync } from '../composer/live-fragments.js';
import type { MappedShaderMessage } from '../composer/errors.js';
import type { Fragment } from '../fragments/fragment-types.js';

/** @internal The part of Vite's `import.meta.hot` the glue uses. */
export interface LiveHot {
  /** Kept across the versions of a module: `weftSource` is the `.wgsl` text the live fragments hold. */
  data: { weftSource?: string };
  invalidate(message?: string): void;
  send(event: string, data?: unknown): void;
}

/** @internal The page's weft-gpu/composer (its own instance: the one whose caches hold the live pipelines). */
export interface LiveComposer {
  swapLiveFragmentsAsync: typeof swapLiveFragmentsAsync;
}

/** @internal What the page reports to the dev server (and as a `weft:fragment-error` window event) for a refused edit. */
export interface LiveFragmentErrorReport {
  file: string;
  message: string;
  messages: readonly MappedShaderMessage[];
  /** The new source of each fragment the edit replaced, by id (the server finds it in the file for the line). */
  sources: Record<string, string>;
}

function isFragment(value: unknown): value is Fragment {
  const v = value as Fragment | null;
  return !!v && typeof v === 'object' && typeof v.id === 'string' && typeof v.source === 'string';
}

function announce(event: string, detail: unknown): void {
  const target = globalThis as unknown as Partial<EventTarget>;
  if (typeof CustomEvent === 'function' && target.dispatchEvent)
    target.dispatchEvent(new CustomEvent(event, { detail }));
}

async function swapAsync(
  hot: LiveHot,
  composer: LiveComposer,
  file: string,
  replace: (fragment: Fragment) => Fragment | undefined,
): Promise<boolean> {
  const sources: Record<string, string> = {};
  const tracked = (fragment: Fragment) => {
    const next = replace(fragment);
    if (next) sources[next.id] = next.source;
    return next;
  };
  try {
    const swap = await composer.swapLiveFragmentsAsync(tracked);
    if (!swap.fragmentIds.length) {
      hot.invalidate(`no live pipeline uses a fragment of ${file}`);
      return false;
    }
    console.info(
      `[weft] ${file}: ${swap.fragmentIds.join(', ')} swapped in ${swap.variants} shader(s), ${swap.pipelines} pipeline(s), ${swap.ms.toFixed(0)} ms`,
    );
    hot.send('weft:fragment-swap', { file, ...swap });
    announce('weft:fragment-swap', { file, ...swap });
    return true;
  } catch (error) {
    const e = error as { code?: string; message?: string; messages?: MappedShaderMessage[] };
    if (e.code === 'layout-changed' || e.code === 'not-enabled') {
      hot.invalidate(e.message);
      return false;
    }
    const report: LiveFragmentErrorReport = {
      file,
      message: String(e.message ?? error),
      messages: e.messages ?? [],
      sources,
    };
    console.error(`[weft] ${file}: the edit was not applied; the last good shaders keep drawing.\n${report.message}`);
    hot.send('weft:fragment-error', report);
    announce('weft:fragment-error', report);
    return false;
  }
}

/**
 * @internal A `.wgsl` file changed: every live fragment whose source is the file's last swapped-in text
 * (`hot.data.weftSource`; a refused edit leaves it) takes the new text. When none is (the source was built from the
 * text, or nothing drew it yet), the edit goes to the importers.
 */
export async function applyWgslUpdate(hot: LiveHot, composer: LiveComposer, file: string, next: string): Promise<void> {
  const previous = hot.data.weftSource;
  const swapped = await swapAsync(hot, composer, file, (f) =>
    f.source === previous ? { ...f, source: next } : undefined,
  );
  if (swapped) hot.data.weftSource = next;
}

/**
 * @internal A fragment module changed: each exported fragment replaces the live fragment with its id. A module that
 * exports anything but fragments cannot be swapped: its importers (usually a reload) take the edit.
 */
export function applyFragmentModuleUpdate(
  hot: LiveHot,
  composer: LiveComposer,
  file: string,
  next: Record<string, unknown>,
): Promise<void> {
  const exported = Object.values(next);
  if (!exported.length || !exported.every(isFragment)) {
    hot.invalidate(`${file} exports something other than fragments`);
    return Promise.resolve();
  }
  const byId = new Map(exported.map((f) => [f.id, f]));
  return swapAsync(hot, composer, file, (f) => byId.get(f.id)).then(() => undefined);
}
