import { listVariants } from '../../composer/variant-registry.js';
import type { LoadedVariants } from '../registry.js';

/** `weft list`: one line per variant, name then description. */
export function runList(loaded: LoadedVariants): number {
  for (const v of listVariants(loaded.registry)) console.log(`${v.name.padEnd(42)} ${v.description}`);
  return 0;
}
