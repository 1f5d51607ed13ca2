// The host-engine pages' examples are whole programs: each `ts browser` block of docs/three.md and docs/babylon.md runs
// as a page module in Chromium, as printed (only the package specifier is pointed at the source), and must print what
// the document says and raise no error.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractDocBlocks } from '../docs/doc-blocks';
import { launchChromium, openPage, type PageServer, repoRoot, startPageServer } from './browser-rig';

/** What each example must print, line by line (by position among the document's `ts browser` blocks). */
const documents: { doc: string; entry: string; logs: RegExp[][]; only?: RegExp }[] = [
  {
    doc: 'README.md',
    entry: 'hosts/three/index.ts',
    only: /from 'weft-gpu\/three'/,
    logs: [[/^\d+ \[-?\d/]],
  },
  {
    doc: 'README.md',
    entry: 'hosts/babylon/index.ts',
    only: /from 'weft-gpu\/babylon'/,
    logs: [[/^box \d+ 0\.\d{3} 0\.\d{3}$/]],
  },
  {
    doc: 'docs/three.md',
    entry: 'hosts/three/index.ts',
    logs: [
      [/^picked "crate" face \d+ at distance \d+\.\d{3}, uv \d\.\d\d,\d\.\d\d$/],
      [/^primitive-index: (true|false)$/],
      [/^centre pixel 25[45],12[789],5[012] → 5[012],10[123],25[45]$/],
    ],
  },
  {
    doc: 'docs/babylon.md',
    entry: 'hosts/babylon/index.ts',
    // The box's −z side, the one the camera sees, is faces 2 and 3 (CreateBox's second side).
    logs: [
      [/^true true [23] /],
      [/boxes#1.*ball#-1/, /boxes#0.*boxes#1.*boxes#2|ball/, /^false$/],
      [/^centre pixel 25[45],12[789],5[012] → 5[012],10[123],25[45]$/],
    ],
  },
];
const examples = documents.flatMap(({ doc, entry, logs, only }) =>
  extractDocBlocks(doc, readFileSync(join(repoRoot, doc), 'utf8'))
    .filter(
      (block) => block.mode === 'types-only' && (only ?? /from '(weft-gpu\/|three|@babylonjs\/)/).test(block.code),
    )
    .map((block, i) => ({
      doc,
      block,
      name: `${doc.replace(/\W+/g, '-')}-${entry.split('/')[1]}-${i + 1}`,
      code: block.code.replace(/from 'weft-gpu\/(three|babylon)'/g, `from '/${entry}'`),
      logs: logs[i] ?? [],
    })),
);
const pagesRoot = join(repoRoot, 'test-results', 'doc-pages-hosts');
/** A classic script that runs before the example: every console.log line, as printed, into window.__logs. */
const recordLogs = `window.__logs = []; const log = console.log.bind(console);
console.log = (...values) => { window.__logs.push(values.map((v) => typeof v === 'string' ? v : JSON.stringify(v)).join(' ')); log(...values); };`;

describe('docs/three.md and docs/babylon.md: every example runs in Chromium as printed', () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    rmSync(pagesRoot, { recursive: true, force: true });
    for (const example of examples) {
      const dir = join(pagesRoot, example.name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'index.html'),
        `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><script>${recordLogs}</script></head><body><script type="module" src="./main.ts"></script></body></html>`,
      );
      writeFileSync(
        join(dir, 'main.ts'),
        `${example.code}\n(window as unknown as { __weftResult: string }).__weftResult = 'done';\n`,
      );
    }
    server = await startPageServer(pagesRoot);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('has the examples this test expects', () => {
    const expected = new Map<string, number>();
    for (const { doc, logs } of documents) expected.set(doc, (expected.get(doc) ?? 0) + logs.length);
    for (const [doc, count] of expected) expect(examples.filter((e) => e.doc === doc).length, doc).toBe(count);
  });

  examples.forEach((example) =>
    it(`${example.doc}:${example.block.line} runs and prints what the document says`, async () => {
      const opened = await openPage(browser!, `${server!.url}${example.name}/index.html`);
      await opened.page
        .waitForFunction(() => (window as unknown as { __weftResult?: string }).__weftResult === 'done', undefined, {
          timeout: 90_000,
        })
        .catch(() => undefined);
      // Babylon.js greets the console with its version ("BJS - [time]: Babylon.js v… engine"): not the example's output.
      const logs = (await opened.page.evaluate(() => (window as unknown as { __logs?: string[] }).__logs ?? [])).filter(
        (line) => !line.startsWith('BJS - '),
      );
      console.info(`[${example.doc}:${example.block.line}] ${logs.join(' | ')}`);
      expect(opened.pageErrors).toEqual([]);
      expect(logs).toHaveLength(example.logs.length);
      example.logs.forEach((pattern, k) => expect(logs[k]).toMatch(pattern));
      expect(await opened.webgpuErrors()).toEqual([]);
      await opened.page.close();
    }, 120_000),
  );
});
