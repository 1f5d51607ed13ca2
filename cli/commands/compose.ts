import { composeShader } from '../../composer/compose-shader.js';
import { getVariant } from '../../composer/variant-registry.js';
import { formatShaderSnapshot } from '../../composer/shader-snapshot.js';
import type { CommandLine } from '../args.js';
import { CliError } from '../cli-error.js';
import type { LoadedVariants } from '../registry.js';

/** `weft compose <variant>`: the variant's WGSL with its layouts as comments, or `--json` the composed shader. */
export function runCompose(line: CommandLine, loaded: LoadedVariants): number {
  const [name, ...extra] = line.operands;
  if (!name || extra.length)
    throw new CliError(
      'weft compose',
      'usage',
      name ? `one variant at a time; got ${line.operands.join(', ')}` : 'which variant? `weft list` names them',
    );
  const variant = getVariant(loaded.registry, name);
  const spec = variant.spec();
  const conditions = Object.keys(line.conditions).length ? { ...spec.conditions, ...line.conditions } : spec.conditions;
  const composed = composeShader({ ...spec, conditions });
  if (line.json) {
    const { sourceMap: _sourceMap, ...data } = composed;
    console.log(JSON.stringify(data, null, 2));
  } else {
    console.log(`// ${name}: ${variant.description}\n${formatShaderSnapshot(composed)}`);
  }
  return 0;
}
