import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeShader, makeComposeCache } from '../../composer/compose-shader.js';
import { listVariants } from '../../composer/variant-registry.js';
import { formatShaderSnapshot } from '../../composer/shader-snapshot.js';
import type { CommandLine } from '../args.js';
import { CliError } from '../cli-error.js';
import type { LoadedVariants } from '../registry.js';

/**
 * `weft snapshot <dir>`: writes `<dir>/<variant>.wgsl` for every variant, as weft's own snapshot test does: a
 * `// <name>: <description>` line, then formatShaderSnapshot's text. A variant that fails to compose fails the run.
 */
export function runSnapshot(line: CommandLine, loaded: LoadedVariants): number {
  const [dir, ...extra] = line.operands;
  if (!dir || extra.length)
    throw new CliError(
      'weft snapshot',
      'usage',
      dir ? `one directory; got ${line.operands.join(', ')}` : 'into which directory?',
    );
  const variants = listVariants(loaded.registry);
  const cache = makeComposeCache();
  // Composed first: a variant that fails writes nothing.
  const files = variants.map((v) => ({
    file: join(dir, `${v.name}.wgsl`),
    text: `// ${v.name}: ${v.description}\n${formatShaderSnapshot(composeShader(v.spec(), cache))}`,
  }));
  mkdirSync(dir, { recursive: true });
  for (const { file, text } of files) writeFileSync(file, text);
  console.log(`wrote ${files.length} variant(s) to ${dir}`);
  return 0;
}
