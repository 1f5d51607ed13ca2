// A precomposed table is refused unless it was built by this weft version: the constant the check compares with must
// be the package's own version, or every table built by a release would be refused (or a skewed one accepted).
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { precomposedWeftVersion } from '../../../composer/precomposed.js';

test("precomposedWeftVersion is package.json's version", () => {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  expect(precomposedWeftVersion).toBe(pkg.version);
});
