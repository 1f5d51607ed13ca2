// The API reference: TypeDoc (typedoc.json, with typedoc-plugin-markdown) writes it as markdown to docs/api/, which is
// committed and ships in the package. It builds without a single TypeDoc warning (every public export documented,
// every {@link} resolves, no public type refers to an unexported one unless typedoc.json says so), and the committed
// pages are exactly what the doc comments generate now: `npm run docs` rewrites them.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Application, LogLevel, TSConfigReader, TypeDocReader } from 'typedoc';
import { afterAll, expect, test } from 'vitest';
import { repoRoot } from '../support/build-package.js';

const committed = join(repoRoot, 'docs/api');
const scratch = mkdtempSync(join(tmpdir(), 'weft-api-docs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file under `dir`, as paths relative to it, sorted. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

test('TypeDoc generates the API reference with no warnings, and docs/api/ is what it generates', async () => {
  // Explicit readers: the default ones would also read vitest's own command-line arguments.
  const app = await Application.bootstrapWithPlugins({ options: join(repoRoot, 'typedoc.json'), out: scratch }, [
    new TypeDocReader(),
    new TSConfigReader(),
  ]);
  const messages: string[] = [];
  app.logger.log = (message: string, level: LogLevel) => {
    if (level >= LogLevel.Warn) messages.push(`${LogLevel[level]}: ${message}`);
  };
  const project = await app.convert();
  expect(project, 'TypeDoc could not convert the entry points').toBeDefined();
  if (!project) return;
  app.validate(project);
  expect(messages.join('\n')).toBe('');

  await app.generateOutputs(project);
  const generated = listFiles(scratch);
  expect(generated, 'the generator wrote markdown pages').toContain('README.md');
  expect(listFiles(committed), 'docs/api/ holds the pages the generator writes (run `npm run docs`)').toEqual(
    generated,
  );
  const stale = generated.filter(
    (file) => readFileSync(join(scratch, file), 'utf8') !== readFileSync(join(committed, file), 'utf8'),
  );
  expect(stale, 'pages of docs/api/ that differ from the doc comments (run `npm run docs` and commit)').toEqual([]);
  // Shipped docs link only inside the package: TypeDoc writes no source links (disableSources) and no external ones.
  const external = generated.filter((file) => /\]\(\s*(https?:)?\/\//.test(readFileSync(join(scratch, file), 'utf8')));
  expect(external, 'pages linking outside the package').toEqual([]);
}, 180_000);
