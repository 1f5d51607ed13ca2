/**
 * weft CLI (run with `npx tsx scripts/weft.ts …`).
 *   weft list                        registered variants
 *   weft compose <variant> [--json]  the variant's WGSL and layouts
 *   weft validate [variant…]         compiles variants on Dawn (null backend); exit code 1 on any error
 * `--registry <module>` (repeatable) adds the variants of a module exporting `registerVariants(registry)`.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { create, globals } from 'webgpu';
import { type ComposedShader, composeShader, describeComposedShader, formatShaderMessage, getVariant, listVariants, makeComposeCache, makeWeftVariantRegistry, type VariantRegistry, WeftError } from '../composer/index.js';
import { compilationMessages, createShaderModuleScoped } from '../composer/compile-errors.js';

async function validate(registry: VariantRegistry, names: string[]): Promise<number> {
  const variants = names.length ? names.map((n) => getVariant(registry, n)) : listVariants(registry);
  const cache = makeComposeCache();
  const composed = new Map<string, ComposedShader>();
  let failures = 0;
  for (const variant of variants) {
    try {
      composed.set(variant.name, composeShader(variant.spec(), cache));
    } catch (error) {
      failures++;
      console.log(`✗ ${variant.name}: ${(error as Error).message}`);
    }
  }
  Object.assign(globalThis, globals);
  const gpu = create(['backend=null']);
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new Error('weft validate: Dawn returned no adapter for backend=null');
  const wanted = [...new Set([...composed.values()].flatMap((c) => c.features.map((f) => f.feature)))];
  const device = await adapter.requestDevice({ requiredFeatures: wanted.filter((f) => adapter.features.has(f)) });
  for (const [name, shader] of composed) {
    try {
      composeShader({ ...getVariant(registry, name).spec(), deviceFeatures: device.features }, cache);
    } catch (error) {
      failures++;
      console.log(`✗ ${name}: ${(error as Error).message}`);
      continue;
    }
    const { module, scope } = createShaderModuleScoped(device, shader.code, `weft:validate:${name}`);
    const messages = await compilationMessages(module, shader.code, shader.sourceMap, scope);
    const errors = messages.filter((m) => m.type === 'error');
    if (errors.length) failures++;
    console.log(`${errors.length ? '✗' : '✓'} ${name} (${shader.key})${messages.length ? `\n${messages.map((m) => formatShaderMessage(m).replace(/^/gm, '    ')).join('\n')}` : ''}`);
  }
  device.destroy();
  console.log(failures ? `${failures} of ${variants.length} variant(s) failed` : `all ${variants.length} variant(s) compile`);
  return failures ? 1 : 0;
}

async function loadRegistry(argv: string[]): Promise<{ registry: VariantRegistry; rest: string[] }> {
  const registry = makeWeftVariantRegistry();
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== '--registry') {
      rest.push(argv[i]);
      continue;
    }
    const path = argv[++i];
    if (!path) throw new WeftError('weft', 'usage', '--registry needs a module path');
    const module = (await import(pathToFileURL(resolve(path)).href)) as { registerVariants?: (registry: VariantRegistry) => unknown };
    if (typeof module.registerVariants !== 'function') throw new WeftError('weft', 'usage', `${path} does not export registerVariants(registry)`);
    module.registerVariants(registry);
  }
  return { registry, rest };
}

async function main(argv: string[]): Promise<number> {
  const { registry, rest: args } = await loadRegistry(argv);
  const [command, ...rest] = args;
  switch (command) {
    case 'list':
      for (const v of listVariants(registry)) console.log(`${v.name.padEnd(42)} ${v.description}`);
      return 0;
    case 'compose': {
      const name = rest.find((a) => !a.startsWith('--'));
      if (!name) throw new WeftError('weft compose', 'usage', 'usage: weft compose <variant> [--json]; see `weft list`');
      const composed = composeShader(getVariant(registry, name).spec());
      if (rest.includes('--json')) {
        const { sourceMap: _sourceMap, ...data } = composed;
        console.log(JSON.stringify(data, null, 2));
      } else {
        console.log(`// ${name}\n${describeComposedShader(composed).replace(/^/gm, '// ')}\n${composed.code}`);
      }
      return 0;
    }
    case 'validate':
      return validate(registry, rest);
    default:
      console.log('usage: weft list | weft compose <variant> [--json] | weft validate [variant…]   (each: [--registry <module>]…)');
      return command === undefined || command === 'help' || command === '--help' ? 0 : 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
