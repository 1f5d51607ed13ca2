import { writeFileSync } from 'node:fs';
import { composeShader, makeComposeCache } from '../../composer/compose-shader.js';
import { formatUniformDeclarations } from '../../composer/uniform-layout-declarations.js';
import { listVariants } from '../../composer/variant-registry.js';
import type { CommandLine } from '../args.js';
import { CliError } from '../cli-error.js';
import type { LoadedVariants } from '../registry.js';

/**
 * `weft types [file.d.ts]`: declarations of every variant's buffer bindings (the values setUniforms takes) merged into
 * `WeftUniforms`, printed or written to the file. A variant that fails to compose fails the run and writes nothing.
 */
export function runTypes(line: CommandLine, loaded: LoadedVariants): number {
  const [file, ...extra] = line.operands;
  if (extra.length || (file !== undefined && !file.endsWith('.ts')))
    throw new CliError(
      'weft types',
      'usage',
      extra.length
        ? `one output file; got ${line.operands.join(', ')}`
        : `the output file ${JSON.stringify(file)} must end in .d.ts (or .ts)`,
    );
  const cache = makeComposeCache();
  const variants = listVariants(loaded.registry).map((v) => ({
    name: v.name,
    composed: composeShader(v.spec(), cache),
  }));
  const text = formatUniformDeclarations(variants);
  if (file === undefined) {
    process.stdout.write(text);
    return 0;
  }
  writeFileSync(file, text);
  console.log(`wrote the uniform types of ${variants.length} variant(s) to ${file}`);
  return 0;
}
