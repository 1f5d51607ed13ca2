// The checked-in API reports (api/*.api.md) must match the public surface: a change to it is a reviewed change.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { makeApiReportsAsync } from '../../scripts/api-report.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const HOW_TO_FIX = 'the public API changed: run `npm run api:report` and commit api/';

test('api/ holds one up-to-date report per package subpath', async () => {
  const reports = await makeApiReportsAsync(root);
  const folder = join(root, 'api');
  const checkedIn = existsSync(folder) ? readdirSync(folder).filter((file) => file.endsWith('.api.md')) : [];
  expect(checkedIn.sort(), HOW_TO_FIX).toEqual(reports.map((report) => report.fileName).sort());
  for (const report of reports) {
    const onDisk = readFileSync(join(folder, report.fileName), 'utf8');
    expect(onDisk, `${HOW_TO_FIX} (api/${report.fileName}, subpath ${report.subpath})`).toBe(report.text);
  }
}, 60_000);
