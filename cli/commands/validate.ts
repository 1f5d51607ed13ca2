import { compilationMessagesAsync, createShaderModuleScoped } from '../../composer/compile-errors.js';
import { type ComposedShader, composeShader, makeComposeCache } from '../../composer/compose-shader.js';
import { ComposeError } from '../../composer/errors.js';
import { getVariant, listVariants, type VariantDefinition } from '../../composer/variant-registry.js';
import type { CommandLine } from '../args.js';
import {
  addDiagnostics,
  formatDiagnostic,
  type LocatedDiagnostic,
  listDiagnostics,
  makeDiagnosticSet,
  toDiagnostics,
} from '../diagnostics.js';
import { isRuleVariant, type LoadedVariants, listRuleVariantNames } from '../registry.js';
import { loadWebGpuAsync, requestValidationDeviceAsync } from '../webgpu.js';

const api = 'weft validate';

/** The result of one variant: its key when it composed, and its diagnostics. */
interface VariantOutcome {
  key: string | null;
  diagnostics: LocatedDiagnostic[];
}

/**
 * `weft validate [variant…]`: composes and compiles variants on Dawn; each distinct message is reported once (by file,
 * line, column and message). Returns 1 when any variant has an error.
 */
export async function runValidateAsync(line: CommandLine, loaded: LoadedVariants): Promise<number> {
  const webgpu = await loadWebGpuAsync(api);
  const names = line.operands.length ? line.operands : loaded.ruleFiles ? listRuleVariantNames(loaded) : null;
  const variants = names ? names.map((name) => getVariant(loaded.registry, name)) : listVariants(loaded.registry);
  const cache = makeComposeCache();
  const outcomes = new Map<string, VariantOutcome>();
  const composed = new Map<string, ComposedShader>();
  for (const variant of variants) {
    try {
      composed.set(variant.name, composeShader(variant.spec(), cache));
    } catch (error) {
      outcomes.set(variant.name, { key: null, diagnostics: describeFailure(variant, error, loaded) });
    }
  }
  const features = [...new Set([...composed.values()].flatMap((c) => c.features.map((f) => f.feature)))];
  const { gpu, device } = await requestValidationDeviceAsync(api, webgpu, features);
  try {
    for (const [name, shader] of composed) {
      const variant = getVariant(loaded.registry, name);
      try {
        composeShader({ ...variant.spec(), deviceFeatures: device.features }, cache);
      } catch (error) {
        outcomes.set(name, { key: shader.key, diagnostics: describeFailure(variant, error, loaded) });
        continue;
      }
      const { module, scope } = createShaderModuleScoped(device, shader.code, `weft:validate:${name}`);
      const messages = await compilationMessagesAsync(module, shader.code, shader.sourceMap, scope);
      const ruleFiles = isRuleVariant(loaded, name) ? loaded.ruleFiles : null;
      outcomes.set(name, { key: shader.key, diagnostics: toDiagnostics(name, messages, ruleFiles) });
    }
  } finally {
    device.destroy();
  }
  void gpu;
  const set = makeDiagnosticSet();
  let failures = 0;
  for (const variant of variants) {
    const outcome = outcomes.get(variant.name) as VariantOutcome;
    const failed = outcome.diagnostics.some((d) => d.severity === 'error');
    if (failed) failures++;
    const added = addDiagnostics(set, outcome.diagnostics);
    if (!line.json) printOutcome(variant.name, outcome, added, failed);
  }
  if (line.json) console.log(JSON.stringify(listDiagnostics(set), null, 2));
  else {
    const errors = listDiagnostics(set).filter((d) => d.severity === 'error').length;
    console.log(
      failures
        ? `${failures} of ${variants.length} variant(s) failed with ${errors} distinct error(s)`
        : `all ${variants.length} variant(s) compile`,
    );
  }
  return failures ? 1 : 0;
}

function printOutcome(name: string, outcome: VariantOutcome, added: LocatedDiagnostic[], failed: boolean): void {
  const repeated = outcome.diagnostics.length - added.length;
  const title = `${failed ? '✗' : '✓'} ${name}${outcome.key ? ` (${outcome.key})` : ''}`;
  const note = repeated ? ` — ${repeated} message(s) reported above` : '';
  const details = added.map((d) => `\n${formatDiagnostic(d).replace(/^/gm, '    ')}`).join('');
  console.log(`${title}${note}${details}`);
}

/** A compose failure as diagnostics: wesl's messages where it stopped, or one message at the fault's fragment or rule. */
function describeFailure(variant: VariantDefinition, error: unknown, loaded: LoadedVariants): LocatedDiagnostic[] {
  const ruleFiles = isRuleVariant(loaded, variant.name) ? loaded.ruleFiles : null;
  if (error instanceof ComposeError && error.messages.length)
    return toDiagnostics(variant.name, error.messages, ruleFiles);
  if (!(error instanceof Error)) throw error;
  const fragment = error instanceof ComposeError ? error.fragmentIds[0] : undefined;
  const file = ruleFiles?.paths.wgsl ?? fragment ?? `variant:${variant.name}`;
  return [{ file, line: 1, column: 1, severity: 'error', message: error.message, variant: variant.name, lineText: '' }];
}
