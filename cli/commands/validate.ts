import { compilationMessagesAsync, createShaderModuleScoped } from '../../composer/compile-errors.js';
import {
  type ComposeCache,
  type ComposedShader,
  composeShader,
  makeComposeCache,
} from '../../composer/compose-shader.js';
import { ComposeError } from '../../composer/errors.js';
import { checkWgslAsync, type NagaWasmModule } from '../../composer/wgsl-check.js';
import { getVariant, listVariants, type VariantDefinition } from '../../composer/variant-registry.js';
import type { CommandLine } from '../args.js';
import { CliError } from '../cli-error.js';
import {
  addDiagnostics,
  formatDiagnostic,
  type LocatedDiagnostic,
  listDiagnostics,
  makeDiagnosticSet,
  toDiagnostics,
} from '../diagnostics.js';
import { isRuleVariant, type LoadedVariants, listRuleVariantNames, type RuleFiles } from '../registry.js';
import {
  importOptionalPackageAsync,
  loadWebGpuAsync,
  requestValidationDeviceAsync,
  type WebGpuModule,
} from '../webgpu.js';

const api = 'weft validate';

/** The result of one variant: its key when it composed, and its diagnostics. */
interface VariantOutcome {
  key: string | null;
  diagnostics: LocatedDiagnostic[];
}

/**
 * `weft validate [variant…]`: composes variants, checks their WGSL with naga (no GPU), then compiles them on Dawn when
 * the `webgpu` package is installed (without it, naga's verdict stands and a note on stderr says so). Each distinct
 * message is reported once (by file, line, column and message); a naga error on a line where Dawn reports one too is
 * left out as the same mistake. Returns 1 when any variant has an error.
 */
export async function runValidateAsync(line: CommandLine, loaded: LoadedVariants): Promise<number> {
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
  const checked = await checkWithNagaOrNullAsync(composed, loaded);
  const webgpu = await loadWebGpuOrNullAsync();
  if (!checked && !webgpu)
    throw new CliError(
      api,
      'missing-package',
      'checking shaders needs naga (npm install naga-wasm: no GPU) or Dawn (npm install webgpu), and neither is installed here',
    );
  if (webgpu) await compileOnDawnAsync(webgpu, composed, checked ?? new Map(), outcomes, loaded, cache);
  else for (const [name, shader] of composed) outcomes.set(name, { key: shader.key, diagnostics: checked!.get(name)! });
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
    const by = webgpu ? (checked ? 'naga and Dawn' : 'Dawn only') : 'naga only';
    console.log(
      failures
        ? `${failures} of ${variants.length} variant(s) failed with ${errors} distinct error(s) (checked by ${by})`
        : `all ${variants.length} variant(s) compile (checked by ${by})`,
    );
  }
  return failures ? 1 : 0;
}

/** naga's diagnostics per variant, or null (with a note on stderr) when the optional `naga-wasm` is not installed. */
async function checkWithNagaOrNullAsync(
  composed: ReadonlyMap<string, ComposedShader>,
  loaded: LoadedVariants,
): Promise<Map<string, LocatedDiagnostic[]> | null> {
  const naga = await loadNagaOrNullAsync();
  if (!naga) return null;
  const checked = new Map<string, LocatedDiagnostic[]>();
  for (const [name, shader] of composed)
    checked.set(name, toDiagnostics(name, await checkWgslAsync(shader, { naga }), ruleFilesOf(loaded, name), 'naga'));
  return checked;
}

/** naga-wasm (`WEFT_CLI_NAGA_MODULE` names another specifier, for tests), or null with a note when it is missing. */
async function loadNagaOrNullAsync(): Promise<NagaWasmModule | null> {
  const specifier = process.env.WEFT_CLI_NAGA_MODULE || 'naga-wasm';
  const naga = await importOptionalPackageAsync<NagaWasmModule>(specifier);
  if (!naga)
    console.error(
      `${specifier} is not installed: compiling on Dawn only (npm install ${specifier} to check without a GPU)`,
    );
  return naga;
}

/** Dawn, or null (with a note on stderr) when the `webgpu` package is not installed: naga's check then stands alone. */
async function loadWebGpuOrNullAsync(): Promise<WebGpuModule | null> {
  try {
    return await loadWebGpuAsync(api);
  } catch (error) {
    if (!(error instanceof CliError) || error.code !== 'missing-package') throw error;
    console.error(`${error.message}; checked the WGSL with naga only (no GPU compile)`);
    return null;
  }
}

/** Compiles each composed variant on a Dawn device; its messages join naga's, less naga's on a line Dawn flags. */
async function compileOnDawnAsync(
  webgpu: WebGpuModule,
  composed: ReadonlyMap<string, ComposedShader>,
  checked: ReadonlyMap<string, LocatedDiagnostic[]>,
  outcomes: Map<string, VariantOutcome>,
  loaded: LoadedVariants,
  cache: ComposeCache,
): Promise<void> {
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
      const dawn = toDiagnostics(name, messages, ruleFilesOf(loaded, name), 'dawn');
      const flagged = new Set(dawn.filter((d) => d.severity === 'error').map((d) => `${d.file}\n${d.line}`));
      const naga = (checked.get(name) ?? []).filter((d) => !flagged.has(`${d.file}\n${d.line}`));
      outcomes.set(name, { key: shader.key, diagnostics: [...naga, ...dawn] });
    }
  } finally {
    device.destroy();
  }
  // Dawn's instance must outlive its device's pending promises: a collected GPU object leaves them unresolved.
  void gpu;
}

function ruleFilesOf(loaded: LoadedVariants, name: string): RuleFiles | null {
  return isRuleVariant(loaded, name) ? loaded.ruleFiles : null;
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
  const ruleFiles = ruleFilesOf(loaded, variant.name);
  if (error instanceof ComposeError && error.messages.length)
    return toDiagnostics(variant.name, error.messages, ruleFiles, undefined, error.code === 'slot-signature');
  if (!(error instanceof Error)) throw error;
  const fragment = error instanceof ComposeError ? error.fragmentIds[0] : undefined;
  const file = ruleFiles?.paths.wgsl ?? fragment ?? `variant:${variant.name}`;
  return [{ file, line: 1, column: 1, severity: 'error', message: error.message, variant: variant.name, lineText: '' }];
}
