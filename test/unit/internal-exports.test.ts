// Internal exports (exported by a library module, exported by no package entry) carry `@internal`, so the curated
// public API (api/*.api.md) and the internals tests deep-import never blur; scripts/internal-exports.ts finds and tags.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { describeInternalExport, findInternalExports, tagInternalExports } from '../../scripts/internal-exports.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const HOW_TO_FIX = 'run `npx tsx scripts/internal-exports.ts --fix` and commit the tags';

test('every internal export of the library carries @internal', () => {
  const untagged = findInternalExports(root).filter((found) => !found.tagged);
  const lines = untagged.map(describeInternalExport);
  expect(
    lines,
    `${lines.length} exports of library modules that no package entry exports lack @internal (${HOW_TO_FIX}):\n  ${lines.join('\n  ')}`,
  ).toEqual([]);
}, 120_000);

describe('the finder on a synthetic tree', () => {
  const tree = mkdtempSync(join(tmpdir(), 'weft-internal-exports-'));
  afterAll(() => rmSync(tree, { recursive: true, force: true }));
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'tiny', exports: { '.': { import: './dist/index.js' } } }),
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true },
    }),
    'index.ts': "export { exposed as renamed, type Exposed } from './core/exposed.js';\n",
    'core/exposed.ts': [
      '/** Public: the entry re-exports it under another name. */',
      'export function exposed(): Exposed {',
      '  return { planted: planted() };',
      '}',
      '',
      'export interface Exposed {',
      '  planted: number;',
      '}',
      '',
      '/** Returns one. */',
      'export function planted(): number {',
      '  return 1;',
      '}',
      '',
      '/** @internal Already tagged. */',
      'export const tagged = 2;',
      '',
      '/**',
      ' * Two lines of',
      ' * documentation.',
      ' */',
      'export type Multi = number;',
      '',
      'const listed = 3;',
      'export { listed };',
      '',
      'export const unusedAnywhere = 4;',
      '',
    ].join('\n'),
    'test/uses.ts':
      "import { listed, type Multi, tagged } from '../core/exposed.js';\nexport const all: Multi = listed + tagged;\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }

  test('catches untagged internal exports, accepts tagged and public ones, and sees who imports them', () => {
    const found = findInternalExports(tree);
    expect(found.map((f) => [describeInternalExport(f), f.tagged, f.importers, f.usedInModule])).toEqual([
      ['core/exposed.ts:11 planted', false, [], true],
      ['core/exposed.ts:16 tagged', true, ['test/uses.ts'], false],
      ['core/exposed.ts:22 Multi', false, ['test/uses.ts'], false],
      ['core/exposed.ts:24 listed', false, ['test/uses.ts'], false],
      ['core/exposed.ts:27 unusedAnywhere', false, [], false],
    ]);
  });

  test('--fix tags each form of declaration, after which nothing is untagged', () => {
    tagInternalExports(
      tree,
      findInternalExports(tree).filter((f) => !f.tagged),
    );
    expect(readFileSync(join(tree, 'core/exposed.ts'), 'utf8')).toContain(
      [
        '/** @internal Returns one. */',
        'export function planted(): number {',
        '  return 1;',
        '}',
        '',
        '/** @internal Already tagged. */',
        'export const tagged = 2;',
        '',
        '/**',
        ' * Two lines of',
        ' * documentation.',
        ' * @internal',
        ' */',
        'export type Multi = number;',
        '',
        '/** @internal */',
        'const listed = 3;',
        'export { listed };',
        '',
        '/** @internal */',
        'export const unusedAnywhere = 4;',
      ].join('\n'),
    );
    expect(findInternalExports(tree).filter((f) => !f.tagged)).toEqual([]);
  });
});
