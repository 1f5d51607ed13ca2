import { describeArgument } from '../core/options.js';
import { EngineError } from './engine-errors.js';

// The checks below run where a wrong kind of weft object (an engine where a scene belongs, a scene where a picker
// belongs) would otherwise surface as a raw TypeError deep inside weft. They read a field or two: cheap enough for
// every pick.

/** Builds the calling API's own typed error for a wrong argument (e.g. `(api, m) => new PickError(api, 'bad-option', m)`). */
type ArgumentErrorFactory = (api: string, message: string) => Error;

const engineArgumentError: ArgumentErrorFactory = (api, message) => new EngineError(api, 'bad-option', message);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

/** @internal Whether `value` has the shape of a Scene (`createScene`). */
export function isSceneLike(value: unknown): boolean {
  return isObject(value) && Array.isArray(value.meshes) && isObject(value.changeLog);
}

/** @internal Whether `value` has the shape of a Mesh (`createMeshFromData`, `create*Mesh`). */
export function isMeshLike(value: unknown): boolean {
  return isObject(value) && isObject(value.geometry) && isObject(value.scene) && typeof value.name === 'string';
}

/**
 * Names what a wrong argument is when it is another weft object (`an Engine`, `a Scene`, `a Mesh "box"`, `a
 * GpuPicker`, `the GPU object`), else describes it like `describeArgument`.
 * @internal
 */
export function describeWeftArgument(value: unknown): string {
  if (!isObject(value)) return describeArgument(value);
  if (typeof value.deviceOwner === 'string' && 'device' in value) return 'an Engine';
  if (isSceneLike(value)) return 'a Scene';
  if (isMeshLike(value)) return `a Mesh ${JSON.stringify(value.name)}`;
  if (isObject(value.scene) && value.inFlight instanceof Set) return 'a GpuPicker';
  if (typeof value.requestAdapter === 'function') return 'the GPU object (navigator.gpu or create() of "webgpu")';
  if (typeof value.needsRecord === 'function' && typeof value.execute === 'function')
    return `a task named ${JSON.stringify(value.name)}`;
  return describeArgument(value);
}

/**
 * Refuses anything but a Scene as `what` (default "scene"), naming what was passed: `createBoxMesh: scene is an
 * Engine; pass a Scene made by createScene(engine)`.
 * @internal
 */
export function checkSceneArgument(
  api: string,
  value: unknown,
  makeError: ArgumentErrorFactory = engineArgumentError,
  what = 'scene',
): void {
  if (!isSceneLike(value))
    throw makeError(api, `${what} is ${describeWeftArgument(value)}; pass a Scene made by createScene(engine)`);
}

/** @internal Refuses anything but a Mesh as `what` (default "mesh"), naming what was passed. */
export function checkMeshArgument(
  api: string,
  value: unknown,
  makeError: ArgumentErrorFactory = engineArgumentError,
  what = 'mesh',
): void {
  if (!isMeshLike(value))
    throw makeError(
      api,
      `${what} is ${describeWeftArgument(value)}; pass a Mesh made by createMeshFromData or a create*Mesh function`,
    );
}

/**
 * Refuses a missing engine or another weft object where an Engine belongs. CPU-only code and tests hand scenes a
 * stand-in engine, so any other object passes.
 * @internal
 */
export function checkEngineArgument(api: string, value: unknown, what = 'engine'): void {
  const kind = describeWeftArgument(value);
  if (!isObject(value) || (kind !== 'an Engine' && kind !== describeArgument(value)))
    throw new EngineError(
      api,
      'bad-option',
      `${what} is ${kind}; pass the Engine made by createEngineAsync or createEngineFromDeviceAsync`,
    );
}

/** The WebGPU namespace objects weft reads flags from; a browser defines them, Node needs the `webgpu` package's. */
const webGpuGlobals = ['GPUBufferUsage', 'GPUTextureUsage', 'GPUShaderStage', 'GPUMapMode', 'GPUColorWrite'] as const;

/**
 * Refuses to start an engine without WebGPU's global flag objects (`GPUTextureUsage`, …), which Node lacks until the
 * `webgpu` package's `globals` are installed: otherwise the first texture weft makes fails with a ReferenceError.
 * @internal
 */
export function checkWebGpuGlobals(api: string): void {
  const scope = globalThis as Record<string, unknown>;
  const missing = webGpuGlobals.filter((name) => scope[name] === undefined);
  if (missing.length)
    throw new EngineError(
      api,
      'no-webgpu',
      `the WebGPU globals ${missing.join(', ')} are not defined. In Node, install them from the webgpu package before creating the engine: import { create, globals } from 'webgpu'; Object.assign(globalThis, globals);`,
    );
}
