// weft-gpu/three's caches against changes between two picks (test/browser/pages/three-picker-changes/main.ts changes
// one thing three draws at a time, without rendering, and casts three.js's Raycaster through the same pixel).
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type PageServer, readPageResultAsync, startPageServer } from './browser-rig';
import type { ChangeStep } from './pages/three-picker-changes/main';

const pagesRoot = fileURLToPath(new URL('./pages', import.meta.url));

interface PageResult {
  steps: ChangeStep[];
  overwritten: ChangeStep[];
  drawRangeError: string;
  afterDrawRange: [string, string];
  rect: { before: string[]; after: string[]; passesAfter: number };
}

describe('weft-gpu/three sees every change between two picks (Chromium, SwiftShader)', () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;
  let result: PageResult;

  beforeAll(async () => {
    server = await startPageServer(pagesRoot);
    browser = await launchChromium();
    result = await readPageResultAsync<PageResult>(browser, `${server.url}three-picker-changes/index.html`, 120_000);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('after each change the pick equals Raycaster at that pixel, and each change changed what Raycaster sees', () => {
    console.info(
      `[three changes]\n${result.steps.map((s) => `${s.name}: reference ${s.referenceBefore} → ${s.referenceAfter}; weft ${s.weftBefore} → ${s.weftAfter}`).join('\n')}`,
    );
    expect(result.steps.length).toBe(26);
    for (const s of result.steps) {
      expect(s.weftBefore, `${s.name} (before)`).toBe(s.referenceBefore);
      expect(s.weftAfter, `${s.name} (after)`).toBe(s.referenceAfter);
      expect(s.referenceAfter, `${s.name} changes the answer`).not.toBe(s.referenceBefore);
    }
    // A pick whose scene held still at the previous pick is drawn ahead of its walk; the walk then found the change
    // and the pick was drawn again: the answers above are those second passes. The first step follows the first pick
    // and the moved-mesh step follows the mesh's arrival, both walks that changed something: no pass went ahead.
    const notAhead = ['material.side FrontSide → BackSide', 'mesh moved by position'];
    for (const s of result.steps) expect(s.passesAfter, s.name).toBe(notAhead.includes(s.name) ? 1 : 2);
  });

  it("a matrixWorld written by hand that three's update overwrites: the pick ignores it as three does", () => {
    const [s] = result.overwritten;
    console.info(
      `[three changes] ${s.name}: reference ${s.referenceBefore} → ${s.referenceAfter}; weft ${s.weftAfter}`,
    );
    expect(s.referenceAfter).toBe(s.referenceBefore);
    expect(s.referenceAfter).toMatch(/^mover#/);
    expect(s.weftBefore).toBe(s.referenceBefore);
    expect(s.weftAfter).toBe(s.referenceAfter);
    // Nothing three draws changed: the pass drawn ahead of the walk is the answer.
    expect(s.passesAfter).toBe(1);
  });

  it('a rectangle pick drawn ahead of its walk is drawn again when an object in it moved away', () => {
    expect(result.rect.before).toContain('mover');
    expect(result.rect.after).not.toContain('mover');
    expect(result.rect.passesAfter).toBe(2);
  });

  it('a draw range set after the first pick is refused naming it, and the next pick after clearing it works', () => {
    expect(result.drawRangeError).toMatch(/PickError: pickManyThreeAsync: mesh "box": geometry\.drawRange/);
    expect(result.afterDrawRange[1]).toBe(result.afterDrawRange[0]);
    expect(result.afterDrawRange[0]).not.toBe('miss');
  });
});
