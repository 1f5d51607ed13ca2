// The editor page in Chromium: it loads cleanly, a click selects what is under the cursor, Ctrl+click toggles,
// Escape clears, and a marquee selects exactly the objects inside it.
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CameraReport } from '../../../demo/web/test-api';
import {
  api,
  clickAt,
  closeEditor,
  dragOnCanvas,
  editorTimeout,
  type EditorSession,
  idle,
  openEditor,
  project,
  saveShot,
} from './editor-harness';
import { add, rectsOverlap, screenRect } from './screen-math';

/** A point on each object (world) that a click there must hit: convex centres, and the tube of the ring shapes. */
const clickTargets: [name: string, offset: [number, number, number]][] = [
  ['cube', [0, 0, 0]],
  ['dodecahedron', [0, 0, 0]],
  ['sphere', [0, 0, 0]],
  ['torus', [0.42, 0, 0]],
  ['knot', [0.6, 0, 0]],
  ['crates#4', [0, 0, 0]],
  ['top/0', [0, 0, 0]],
];

describe('editor page: selection (Chromium, SwiftShader)', () => {
  let session: EditorSession | undefined;
  let camera: CameraReport;
  let objects: { name: string; origin: number[]; min: number[]; max: number[] }[];
  const page = () => session!.page;
  const selection = () => api(page(), (e) => e.selection());
  const screenOf = (name: string, offset: readonly number[] = [0, 0, 0]) =>
    project(camera, add(objects.find((o) => o.name === name)!.origin, offset));

  beforeAll(async () => {
    session = await openEditor();
    camera = await api(page(), (e) => e.camera());
    objects = await api(page(), (e) => e.objects());
  }, editorTimeout);

  afterAll(() => closeEditor(session), editorTimeout);

  it('loads the scene with zero console, page and WebGPU errors', async () => {
    await saveShot(page(), 'loaded');
    const names = objects.map((o) => o.name);
    expect(names).toEqual(
      expect.arrayContaining(['cube', 'dodecahedron', 'sphere', 'torus', 'knot', 'top/0', 'crates#0', 'crates#6']),
    );
    expect(session!.opened.consoleErrors).toEqual([]);
    expect(session!.opened.pageErrors).toEqual([]);
    expect(await session!.opened.webgpuErrors()).toEqual([]);
    const features = await api(page(), (e) => e.features());
    // SwiftShader has no primitive-index: the editor still picks with triangle detail, through the vertex-index path.
    expect(features.detailed).toBe(true);
    expect(features.detailMethod).toBe(
      features.adapterFeatures.includes('primitive-index') ? 'primitive-index' : 'vertex-index',
    );
    console.info(
      `[editor] picking: detailed (${features.detailMethod}); G-buffer strip: ${features.gbufferAvailable ? 'available' : 'hidden'}`,
    );
  });

  it('left click selects the object under the cursor and reports the pick', async () => {
    for (const [name, offset] of clickTargets) {
      const at = screenOf(name, offset);
      await clickAt(page(), camera, at.x, at.y);
      expect(await selection(), `click on ${name} at (${at.x.toFixed(1)}, ${at.y.toFixed(1)})`).toEqual([name]);
      const pick = (await api(page(), (e) => e.lastPick()))!;
      const object = objects.find((o) => o.name === name)!;
      expect(pick.mesh).toBe(name.split('#')[0]);
      expect(pick.instance).toBe(name.includes('#') ? Number(name.split('#')[1]) : -1);
      // The picked point lies on the object: inside its world bounds (a small tolerance for depth precision).
      pick.point!.forEach((c, i) => {
        expect(c).toBeGreaterThan(object.min[i] - 0.02);
        expect(c).toBeLessThan(object.max[i] + 0.02);
      });
      // Triangle detail on every adapter: a face, and barycentrics inside it.
      expect(pick.detailed).toBe(true);
      expect(pick.face).toBeGreaterThanOrEqual(0);
      for (const b of [pick.bu!, pick.bv!, 1 - pick.bu! - pick.bv!]) expect(b).toBeGreaterThanOrEqual(-1e-4);
    }
    const panel = await page().locator('#last-pick').innerText();
    expect(panel).toContain('top/0');
    await saveShot(page(), 'click');
  });

  it('clicking empty space clears the selection; the selection overlay tints the selected object', async () => {
    const cube = screenOf('cube');
    const before = PNG.sync.read(await page().screenshot());
    await clickAt(page(), camera, cube.x, cube.y);
    const after = PNG.sync.read(await page().screenshot());
    const px = (png: PNG) => [
      ...png.data.subarray(
        (Math.round(cube.y) * png.width + Math.round(cube.x)) * 4,
        (Math.round(cube.y) * png.width + Math.round(cube.x)) * 4 + 3,
      ),
    ];
    const [b, a] = [px(before), px(after)];
    // Orange fill over the red cube: more green, no less red.
    expect(a[1] - b[1], `cube centre ${b} → ${a}`).toBeGreaterThan(10);
    await clickAt(page(), camera, 20, 20);
    expect(await selection()).toEqual([]);
  });

  it('draws the selection wireframe on the cube but fades it on the dense knot (no white wash)', async () => {
    const wire = [255, 184, 64];
    const isWire = (png: PNG, x: number, y: number) => {
      const at = (Math.round(y) * png.width + Math.round(x)) * 4;
      return wire.every((c, i) => Math.abs(png.data[at + i] - c) < 45);
    };
    const cubeEdge = screenOf('cube', [0, 0.5, 0.5]);
    const knotTube = screenOf('knot', [0.6, 0, 0]);
    await clickAt(page(), camera, screenOf('cube').x, screenOf('cube').y);
    await clickAt(page(), camera, knotTube.x, knotTube.y, ['Control']);
    expect(await selection()).toEqual(['cube', 'knot']);
    const shot = PNG.sync.read(await page().screenshot());
    await saveShot(page(), 'wireframe');
    // A line crosses the cube's top front edge: some pixel within 2 px of it is wire-coloured.
    let edge = 0;
    for (let dy = -2; dy <= 2; dy++) if (isWire(shot, cubeEdge.x, cubeEdge.y + dy)) edge++;
    expect(edge, 'wire pixels across the cube edge').toBeGreaterThan(0);
    // The knot's triangles are a few pixels tall: its lines are faded out, leaving the tinted fill.
    let dense = 0;
    for (let dy = -3; dy <= 3; dy++)
      for (let dx = -3; dx <= 3; dx++) if (isWire(shot, knotTube.x + dx, knotTube.y + dy)) dense++;
    expect(dense / 49, 'share of wire-coloured pixels on the knot').toBeLessThan(0.15);
    await page().keyboard.press('Escape');
  });

  it('Ctrl+click toggles objects and thin instances in and out; Escape clears', async () => {
    const at = (name: string) => screenOf(name);
    await clickAt(page(), camera, at('cube').x, at('cube').y);
    await clickAt(page(), camera, at('sphere').x, at('sphere').y, ['Control']);
    expect(await selection()).toEqual(['cube', 'sphere']);
    await clickAt(page(), camera, at('crates#2').x, at('crates#2').y, ['Control']);
    expect(await selection()).toEqual(['cube', 'sphere', 'crates#2']);
    await clickAt(page(), camera, at('cube').x, at('cube').y, ['Control']);
    expect(await selection()).toEqual(['sphere', 'crates#2']);
    await saveShot(page(), 'multi-select');
    // Ctrl+click on nothing changes nothing; a plain click replaces.
    await clickAt(page(), camera, 20, 20, ['Control']);
    expect(await selection()).toEqual(['sphere', 'crates#2']);
    await clickAt(page(), camera, at('crates#5').x, at('crates#5').y);
    expect(await selection()).toEqual(['crates#5']);
    await page().keyboard.press('Escape');
    expect(await selection()).toEqual([]);
  });

  it('a marquee on empty space selects exactly the objects inside; Shift adds', async () => {
    // Bands around the projected world bounds of the objects, 8 px wider; no other object's projected bounds may
    // reach into a band, and each band starts on empty space.
    const band = async (inside: string[]) => {
      const r = screenRect(
        camera,
        objects.filter((o) => inside.includes(o.name)),
      );
      const b = { x0: r.x0 - 8, y0: r.y0 - 8, x1: r.x1 + 8, y1: r.y1 + 8 };
      for (const other of objects.filter((o) => !inside.includes(o.name)))
        expect(rectsOverlap(b, screenRect(camera, [other])), `${other.name} reaches the band around ${inside}`).toBe(
          false,
        );
      expect(
        (
          (await api(page(), new Function('e', `return e.pickAt(${b.x0}, ${b.y0})`) as never)) as {
            object: string | null;
          }
        ).object,
      ).toBeNull();
      return b;
    };
    const first = await band(['knot', 'crates#6']);
    await clickAt(page(), camera, screenOf('cube').x, screenOf('cube').y);
    await dragOnCanvas(
      page(),
      camera,
      { x: first.x0, y: first.y0 },
      { x: first.x1, y: first.y1 },
      { steps: 6, beforeRelease: async () => void (await saveShot(page(), 'marquee')) },
    );
    expect((await selection()).sort()).toEqual(['crates#6', 'knot']);
    // Dragged the other way round, with Shift: added to the selection.
    const second = await band(['crates#3', 'crates#4']);
    await dragOnCanvas(
      page(),
      camera,
      { x: second.x1, y: second.y1 },
      { x: second.x0, y: second.y0 },
      { modifiers: ['Shift'] },
    );
    expect((await selection()).sort()).toEqual(['crates#3', 'crates#4', 'crates#6', 'knot']);
    await saveShot(page(), 'marquee-result');
  });

  it('shows the G-buffer strip toggle only with the geometry renderer; the albedo thumbnail shows the cube', async () => {
    const features = await api(page(), (e) => e.features());
    const section = page().locator('#gbuffer-section');
    if (!features.gbufferAvailable) {
      expect(await section.isHidden()).toBe(true);
      return;
    }
    await page().keyboard.press('Escape');
    await page().locator('#gbuffer-toggle').check();
    await idle(page());
    const tiles = await api(page(), (e) => e.gbufferTiles());
    expect(tiles.map((t) => t.label)).toEqual(['albedo', 'world normal', 'view depth']);
    const shot = PNG.sync.read(await page().screenshot());
    await saveShot(page(), 'gbuffer-strip');
    const cube = screenOf('cube');
    const texel = ([x, y, w, h]: number[]) => {
      const px = Math.round(x + (cube.x / camera.cssWidth) * w);
      const py = Math.round(y + (cube.y / camera.cssHeight) * h);
      return [...shot.data.subarray((py * shot.width + px) * 4, (py * shot.width + px) * 4 + 3)];
    };
    // Albedo is the unlit base colour (0.85, 0.32, 0.26); the normal and depth thumbnails are not background there.
    const albedo = texel(tiles[0].rect);
    [0.85, 0.32, 0.26].forEach((c, i) => expect(Math.abs(albedo[i] - c * 255), `albedo ${albedo}`).toBeLessThan(12));
    expect(texel(tiles[1].rect).some((c) => c > 40)).toBe(true);
    expect(texel(tiles[2].rect)[0]).toBeGreaterThan(60);
    await page().locator('#gbuffer-toggle').uncheck();
    await idle(page());
    expect(await api(page(), (e) => e.gbufferTiles())).toEqual([]);
  });

  it('still has no errors after the interactions', async () => {
    expect(session!.opened.consoleErrors).toEqual([]);
    expect(session!.opened.pageErrors).toEqual([]);
    expect(await session!.opened.webgpuErrors()).toEqual([]);
    expect(await api(page(), (e) => e.errors())).toEqual([]);
  });
});
