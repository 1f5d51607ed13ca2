// Opens the editor page (demo/web) in Chromium with WebGPU on SwiftShader, and drives it like a user: real mouse and
// keyboard events at screen positions computed from the page's own camera matrices.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { vec4 } from 'wgpu-matrix';
import type { CameraReport, EditorTestApi } from '../../../demo/web/test-api';
import { launchChromium, openPage, type OpenedPage, type PageServer, repoRoot, startPageServer } from '../browser-rig';

/** Where the editor page lives (also `npm run dev`'s root). */
export const editorRoot = join(repoRoot, 'demo', 'web');
/** Screenshots of the editor tests. */
export const artefactDir = join(repoRoot, 'test-results', 'browser');
/** SwiftShader is a CPU rasteriser: everything gets time. */
export const editorTimeout = 180_000;

/** A running editor: server, browser, page and its error logs. */
export interface EditorSession {
  server: PageServer;
  browser: Browser;
  opened: OpenedPage;
  page: Page;
}

/** Serves demo/web, launches Chromium and waits until the page published `window.__editor`. */
export async function openEditor(): Promise<EditorSession> {
  const server = await startPageServer(editorRoot);
  const browser = await launchChromium().catch(async (error: unknown) => {
    await server.close();
    throw error;
  });
  const opened = await openPage(browser, `${server.url}index.html`);
  const page = opened.page;
  await page.setViewportSize({ width: 1140, height: 640 });
  await page
    .waitForFunction(() => window.__editor !== undefined || window.__editorFailed !== undefined, undefined, {
      timeout: 120_000,
    })
    .catch((error: Error) => {
      throw new Error(
        `the editor never started (${error.message}); console: ${JSON.stringify(opened.consoleErrors)}; page: ${JSON.stringify(opened.pageErrors)}`,
      );
    });
  const failed = await page.evaluate(() => window.__editorFailed);
  if (failed)
    throw new Error(`the editor failed to start: ${failed}; console: ${JSON.stringify(opened.consoleErrors)}`);
  await idle(page);
  return { server, browser, opened, page };
}

/** Closes browser and server. */
export async function closeEditor(session: EditorSession | undefined): Promise<void> {
  await session?.browser.close();
  await session?.server.close();
}

/** Waits until the page has no pick in flight and has drawn a frame of its current state. */
export function idle(page: Page): Promise<void> {
  return page.evaluate(() => window.__editor!.idle());
}

/** Calls a synchronous or async test API function in the page. */
export function api<T>(page: Page, call: (editor: EditorTestApi) => T | Promise<T>): Promise<T> {
  return page.evaluate(`(${call.toString()})(window.__editor)`) as Promise<T>;
}

/** A point in page CSS pixels, and the same point relative to the canvas. */
export interface ScreenPoint {
  x: number;
  y: number;
  /** Clip w (negative: behind the camera). */
  w: number;
}

/** Projects a world point with the page's view-projection to canvas CSS pixels. */
export function project(camera: CameraReport, point: readonly number[]): ScreenPoint {
  const clip = vec4.transformMat4([point[0], point[1], point[2], 1], Float32Array.from(camera.viewProjection));
  return {
    x: ((clip[0] / clip[3] + 1) / 2) * camera.cssWidth,
    y: ((1 - clip[1] / clip[3]) / 2) * camera.cssHeight,
    w: clip[3],
  };
}

/** Moves the real mouse to a canvas CSS pixel. */
export async function mouseTo(page: Page, camera: CameraReport, x: number, y: number, steps = 1): Promise<void> {
  await page.mouse.move(camera.canvasLeft + x, camera.canvasTop + y, { steps });
}

/** A left click at a canvas pixel (optionally with modifier keys held), then waits for the page to settle. */
export async function clickAt(
  page: Page,
  camera: CameraReport,
  x: number,
  y: number,
  modifiers: ('Control' | 'Shift')[] = [],
): Promise<void> {
  for (const key of modifiers) await page.keyboard.down(key);
  await mouseTo(page, camera, x, y);
  await page.mouse.down();
  await page.mouse.up();
  for (const key of modifiers) await page.keyboard.up(key);
  await idle(page);
}

/** Presses at `from`, moves to `to` in `steps` mouse events, releases; modifiers and button as given. */
export async function dragOnCanvas(
  page: Page,
  camera: CameraReport,
  from: { x: number; y: number },
  to: { x: number; y: number },
  options: {
    steps?: number;
    button?: 'left' | 'right';
    modifiers?: ('Alt' | 'Control' | 'Shift')[];
    beforeRelease?: () => Promise<void>;
  } = {},
): Promise<void> {
  const modifiers = options.modifiers ?? [];
  for (const key of modifiers) await page.keyboard.down(key);
  await mouseTo(page, camera, from.x, from.y);
  await page.mouse.down({ button: options.button ?? 'left' });
  await mouseTo(page, camera, to.x, to.y, options.steps ?? 8);
  await options.beforeRelease?.();
  await page.mouse.up({ button: options.button ?? 'left' });
  for (const key of modifiers) await page.keyboard.up(key);
  await idle(page);
}

/** Saves a screenshot of the whole page as test-results/browser/editor-<name>.png. */
export async function saveShot(page: Page, name: string): Promise<string> {
  mkdirSync(artefactDir, { recursive: true });
  const path = join(artefactDir, `editor-${name}.png`);
  writeFileSync(path, await page.screenshot());
  return path;
}
