// The API reference builds without a single TypeDoc warning: every public export documented, every {@link} resolves,
// no public type refers to an unexported one unless typedoc.json says so. `npm run docs` uses the same typedoc.json.
import { join } from 'node:path';
import { Application, LogLevel, TSConfigReader, TypeDocReader } from 'typedoc';
import { expect, test } from 'vitest';
import { repoRoot } from '../support/build-package.js';

test('TypeDoc generates the API reference with no warnings', async () => {
  // Explicit readers: the default ones would also read vitest's own command-line arguments.
  const app = await Application.bootstrapWithPlugins({ options: join(repoRoot, 'typedoc.json') }, [
    new TypeDocReader(),
    new TSConfigReader(),
  ]);
  const messages: string[] = [];
  app.logger.log = (message: string, level: LogLevel) => {
    if (level >= LogLevel.Warn) messages.push(`${LogLevel[level]}: ${message}`);
  };
  const project = await app.convert();
  expect(project, 'TypeDoc could not convert the entry points').toBeDefined();
  if (project) app.validate(project);
  expect(messages.join('\n')).toBe('');
}, 90_000);
