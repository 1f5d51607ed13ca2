import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { listVariants, type VariantRegistry } from '../composer/variant-registry.js';
import { type PickRuleSource, registerPickRuleVariants } from '../picking/gpu/pick-rule-variants.js';
import { makeWeftVariantRegistry } from '../variants/weft-variants.js';
import type { CommandLine } from './args.js';
import { CliError } from './cli-error.js';

/** A discard rule read from `--rule` (and `--world-adjust`) files, with the paths its messages point into. */
export interface RuleFiles {
  rule: PickRuleSource;
  /** The paths as given on the command line, by the rule text they hold. */
  paths: { wgsl: string; worldAdjustWgsl?: string };
}

/** The variants a command works on: weft's own, the `--registry` modules' and the `--rule` file's. */
export interface LoadedVariants {
  registry: VariantRegistry;
  ruleFiles: RuleFiles | null;
}

/** Builds the registry of a command line (imports each `--registry` module). */
export async function loadVariantsAsync(api: string, line: CommandLine): Promise<LoadedVariants> {
  const registry = makeWeftVariantRegistry();
  const ruleFiles = line.rule ? readRuleFiles(api, line) : null;
  if (ruleFiles) registerPickRuleVariants(registry, ruleFiles.rule);
  for (const path of line.registries) {
    const module = (await import(pathToFileURL(resolve(path)).href)) as {
      registerVariants?: (registry: VariantRegistry) => unknown;
    };
    if (typeof module.registerVariants !== 'function')
      throw new CliError(api, 'bad-input', `--registry ${path} does not export a function registerVariants(registry)`);
    module.registerVariants(registry);
  }
  return { registry, ruleFiles };
}

/** The names of the rule's variants (they start with the rule's name). */
export function listRuleVariantNames(loaded: LoadedVariants): string[] {
  const prefix = loaded.ruleFiles ? `${loaded.ruleFiles.rule.name}-` : null;
  return listVariants(loaded.registry)
    .map((v) => v.name)
    .filter((name) => prefix !== null && name.startsWith(prefix));
}

/** Whether a variant is one of the `--rule` file's. */
export function isRuleVariant(loaded: LoadedVariants, name: string): boolean {
  return loaded.ruleFiles !== null && name.startsWith(`${loaded.ruleFiles.rule.name}-`);
}

function readRuleFiles(api: string, line: CommandLine): RuleFiles {
  const wgslPath = line.rule as string;
  const name = `rule-${
    basename(wgslPath)
      .replace(/\.[^.]*$/, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase() || 'file'
  }`;
  return {
    rule: {
      name,
      wgsl: readText(api, '--rule', wgslPath),
      worldAdjustWgsl: line.worldAdjust ? readText(api, '--world-adjust', line.worldAdjust) : undefined,
      storage: line.storage,
    },
    paths: { wgsl: wgslPath, worldAdjustWgsl: line.worldAdjust },
  };
}

function readText(api: string, option: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(api, 'bad-input', `${option} ${path}: ${(error as Error).message}`);
  }
}
