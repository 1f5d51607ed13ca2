/**
 * weft CLI (run with `npx tsx scripts/weft.ts …`).
 *   weft list                        registered variants
 *   weft compose <variant> [--json]  the variant's WGSL and layouts
 *   weft validate [variant…]         compiles variants on Dawn (null backend); exit code 1 on any error
 * `--registry <module>` (repeatable) adds the variants of a module exporting `registerVariants(registry)`.
 * `--rule <file.wgsl> [--world-adjust <file.wgsl>] [--storage name:type[:vertex]]…` adds the pick variants of a
 * discard rule file (named after the file); `validate` then reports errors at lines of the rule's own files.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { create, globals } from 'webgpu';
import {
  ComposeError,
  type ComposedShader,
  composeShader,
  describeComposedShader,
  formatShaderMessage,
  getVariant,
  listVariants,
  type MappedShaderMessage,
  makeComposeCache,
  makeWeftVariantRegistry,
  type VariantRegistry,
  WeftError,
} from '../index.js';
import { type PickRuleSource, registerPickRuleVariants } from '../picking/pick-rule-variants.js';
import { compilationMessagesAsync, createShaderModuleScoped } from '../composer/compile-errors.js';
import { locateRuleMessages } from '../picking/discard-rules.js';

interface RuleFiles {
  rule: PickRuleSource;
  files: { wgsl: string; worldAdjust?: string };
}

/** Messages of a rule variant at lines of the rule's own files, named by their paths; others stay as they are. */
function inRuleFiles(messages: readonly MappedShaderMessage[], { rule, files }: RuleFiles): MappedShaderMessage[] {
  const paths: Record<string, string | undefined> = { wgsl: files.wgsl, worldAdjustWgsl: files.worldAdjust };
  return locateRuleMessages(rule, messages).map(({ file, ...located }, i) =>
    paths[file] ? { ...located, fragmentId: paths[file] } : messages[i],
  );
}

/** A compose failure as the CLI prints it: a rule variant's messages at lines of the rule's own files. */
function describeComposeFailure(name: string, error: unknown, ruleFiles: RuleFiles | null): string {
  if (ruleFiles && name.startsWith(ruleFiles.rule.name) && error instanceof ComposeError && error.messages.length)
    return inRuleFiles(error.messages, ruleFiles).map(formatShaderMessage).join('\n');
  return (error as Error).message;
}

async function validate(registry: VariantRegistry, names: string[], ruleFiles: RuleFiles | null): Promise<number> {
  const variants = names.length ? names.map((n) => getVariant(registry, n)) : listVariants(registry);
  const cache = makeComposeCache();
  const composed = new Map<string, ComposedShader>();
  let failures = 0;
  for (const variant of variants) {
    try {
      composed.set(variant.name, composeShader(variant.spec(), cache));
    } catch (error) {
      failures++;
      console.log(`✗ ${variant.name}: ${describeComposeFailure(variant.name, error, ruleFiles)}`);
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
    const mapped = await compilationMessagesAsync(module, shader.code, shader.sourceMap, scope);
    const messages = ruleFiles && name.startsWith(ruleFiles.rule.name) ? inRuleFiles(mapped, ruleFiles) : mapped;
    const errors = messages.filter((m) => m.type === 'error');
    if (errors.length) failures++;
    console.log(
      `${errors.length ? '✗' : '✓'} ${name} (${shader.key})${messages.length ? `\n${messages.map((m) => formatShaderMessage(m).replace(/^/gm, '    ')).join('\n')}` : ''}`,
    );
  }
  device.destroy();
  console.log(
    failures ? `${failures} of ${variants.length} variant(s) failed` : `all ${variants.length} variant(s) compile`,
  );
  return failures ? 1 : 0;
}

function readRuleFiles(argv: string[]): { ruleFiles: RuleFiles | null; rest: string[] } {
  const rest: string[] = [];
  let wgslFile: string | undefined;
  let adjustFile: string | undefined;
  const storage: { name: string; type: string; vertex: boolean }[] = [];
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if (argv[i] === '--rule') wgslFile = value;
    else if (argv[i] === '--world-adjust') adjustFile = value;
    else if (argv[i] === '--storage') {
      const [name, type, vertex] = (value ?? '').split(':');
      if (!name || !type)
        throw new WeftError(
          'weft',
          'usage',
          `--storage ${JSON.stringify(value)} must be name:type or name:type:vertex (e.g. flags:array<f32>)`,
        );
      storage.push({ name, type, vertex: vertex === 'vertex' });
    } else {
      rest.push(argv[i]);
      continue;
    }
    if (value === undefined) throw new WeftError('weft', 'usage', `${argv[i]} needs a value`);
    i++;
  }
  if (!wgslFile) {
    if (adjustFile || storage.length)
      throw new WeftError('weft', 'usage', '--world-adjust and --storage need --rule <file.wgsl>');
    return { ruleFiles: null, rest };
  }
  const name = `rule-${basename(wgslFile)
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9]+/g, '-')}`;
  const rule: PickRuleSource = {
    name,
    wgsl: readFileSync(wgslFile, 'utf8'),
    worldAdjustWgsl: adjustFile ? readFileSync(adjustFile, 'utf8') : undefined,
    storage,
  };
  return { ruleFiles: { rule, files: { wgsl: wgslFile, worldAdjust: adjustFile } }, rest };
}

async function loadRegistry(
  argv: string[],
): Promise<{ registry: VariantRegistry; rest: string[]; ruleFiles: RuleFiles | null }> {
  const registry = makeWeftVariantRegistry();
  const { ruleFiles, rest: remaining } = readRuleFiles(argv);
  if (ruleFiles) registerPickRuleVariants(registry, ruleFiles.rule);
  const rest: string[] = [];
  for (let i = 0; i < remaining.length; i++) {
    if (remaining[i] !== '--registry') {
      rest.push(remaining[i]);
      continue;
    }
    const path = remaining[++i];
    if (!path) throw new WeftError('weft', 'usage', '--registry needs a module path');
    const module = (await import(pathToFileURL(resolve(path)).href)) as {
      registerVariants?: (registry: VariantRegistry) => unknown;
    };
    if (typeof module.registerVariants !== 'function')
      throw new WeftError('weft', 'usage', `${path} does not export registerVariants(registry)`);
    module.registerVariants(registry);
  }
  return { registry, rest, ruleFiles };
}

async function main(argv: string[]): Promise<number> {
  const { registry, rest: args, ruleFiles } = await loadRegistry(argv);
  const [command, ...rest] = args;
  switch (command) {
    case 'list':
      for (const v of listVariants(registry)) console.log(`${v.name.padEnd(42)} ${v.description}`);
      return 0;
    case 'compose': {
      const name = rest.find((a) => !a.startsWith('--'));
      if (!name)
        throw new WeftError('weft compose', 'usage', 'usage: weft compose <variant> [--json]; see `weft list`');
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
      return validate(
        registry,
        rest.length || !ruleFiles
          ? rest
          : listVariants(registry)
              .map((v) => v.name)
              .filter((n) => n.startsWith(ruleFiles.rule.name)),
        ruleFiles,
      );
    default:
      console.log(
        'usage: weft list | weft compose <variant> [--json] | weft validate [variant…]   (each: [--registry <module>]… [--rule <file.wgsl> [--world-adjust <file.wgsl>] [--storage name:type[:vertex]]…])',
      );
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
