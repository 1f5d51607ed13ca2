// Child process of compose-determinism.test.ts: composes every registered variant with its fragments shuffled by
// the seed in argv[2] and prints { name: comparable JSON } on stdout.
import { composeShader, listVariants, makeWeftVariantRegistry } from '../../../index.js';
import { comparable, seededRandom, shuffleSpec } from './composer-test-helpers.js';

const random = seededRandom(Number(process.argv[2] ?? 1));
const out: Record<string, string> = {};
for (const variant of listVariants(makeWeftVariantRegistry()))
  out[variant.name] = comparable(composeShader(shuffleSpec(variant.spec(), random)));
process.stdout.write(JSON.stringify(out));
