// docs/three.md's examples are whole programs: each `ts browser` block runs as a page module in Chromium, as printed
// (only the package specifier is pointed at the source), and must print what the document says and raise no error.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractDocBlocks } from '../docs/doc-blocks';
import { launchChromium, openPage, type PageServer, repoRoot, startPageServer } from './browser-rig';

const doc = 'docs/three.md';
const blocks = extractDocBlocks(doc, readFileSync(join(repoRoot, doc), 'utf8')).filter((b) =>
  /from 'weft-gpu\/three'|from 'three\/webgpu'/.test(b.code),
);
/** What each example must print (by position among the document's runnable browser blocks). */
const expectedLogs: RegExp[] = [
  /^picked "crate" face \d+ at distance \d+\.\d{3}, uv \d\.\d\d,\d\.\d\d$/,
  /^primitive-index: (true|false)$/,
];
const pagesRoot = join(repoRoot, 'test-results', 'doc-pages-three');

describe(`${doc}: every example runs in Chromium as printed`, () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    rmSync(pagesRoot, { recursive: true, force: true });
    blocks.forEach((block, i) => {
      const dir = join(pagesRoot, `example-${i + 1}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'index.html'),
        '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><script type="module" src="./main.ts"></script></body></html>',
      );
      const code = block.code.replaceAll("from 'weft-gpu/three'", "from '/hosts/three/index.ts'");
      writeFileSync(
        join(dir, 'main.ts'),
        `${code}\n(window as unknown as { __weftResult: string }).__weftResult = 'done';\n`,
      );
    });
    server = await startPageServer(pagesRoot);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('has the examples this test expects', () => {
    expect(blocks.length).toBe(expectedLogs.length);
  });

  blocks.forEach((block, i) =>
    it(`example ${i + 1} (${doc}:${block.line}) runs and prints what the document says`, async () => {
      const opened = await openPage(browser!, `${server!.url}example-${i + 1}/index.html`);
      const logs: string[] = [];
      opened.page.on('console', (message) => message.type() === 'log' && logs.push(message.text()));
      await opened.page.reload({ waitUntil: 'load' });
      await opened.page
        .waitForFunction(() => (window as unknown as { __weftResult?: string }).__weftResult === 'done', undefined, {
          timeout: 90_000,
        })
        .catch(() => undefined);
      console.info(`[docs/three.md example ${i + 1}] ${logs.join(' | ')}`);
      expect(opened.pageErrors).toEqual([]);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatch(expectedLogs[i]);
      expect(await opened.webgpuErrors()).toEqual([]);
      await opened.page.close();
    }, 120_000),
  );
});
