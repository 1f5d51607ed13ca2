import { CliError } from './cli-error.js';

/** What weft validate needs of the `webgpu` package (Dawn for Node). @internal */
export interface WebGpuModule {
  create(options: string[]): GPU;
  globals: object;
}

/**
 * Loads Dawn through the optional `webgpu` package. Test hook: `WEFT_CLI_WEBGPU_MODULE=<specifier>` loads that module
 * instead (e.g. a name that does not exist, to see the message of a machine without the package).
 */
export async function loadWebGpuAsync(api: string): Promise<WebGpuModule> {
  const specifier = process.env.WEFT_CLI_WEBGPU_MODULE || 'webgpu';
  const webgpu = await importOptionalPackageAsync<WebGpuModule>(specifier);
  if (!webgpu)
    throw new CliError(
      api,
      'missing-package',
      `compiling shaders needs Dawn from the "${specifier}" package, which is not installed here: npm install ${specifier}`,
    );
  return webgpu;
}

/** Imports an optional package; null when it is not installed (any other failure is rethrown). @internal */
export async function importOptionalPackageAsync<T>(specifier: string): Promise<T | null> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && (error as Error).message.includes(`'${specifier}'`)) return null;
    throw error;
  }
}

/** A device on Dawn's null backend (compiles shaders, draws nothing) with every feature the variants need. */
export async function requestValidationDeviceAsync(
  api: string,
  webgpu: WebGpuModule,
  features: readonly string[],
): Promise<{ gpu: GPU; device: GPUDevice }> {
  Object.assign(globalThis, webgpu.globals);
  const gpu = webgpu.create(['backend=null']);
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new CliError(api, 'missing-package', 'Dawn returned no adapter for backend=null');
  const requiredFeatures = features.filter((f) => adapter.features.has(f)) as GPUFeatureName[];
  return { gpu, device: await adapter.requestDevice({ requiredFeatures }) };
}
