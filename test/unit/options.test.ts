// Every public options object refuses an unknown key with the API's typed error (code bad-option), naming the key
// and the allowed keys. The checks run before anything else, so stand-in engines and scenes are enough here.
import { Document } from '@gltf-transform/core';
import { describe, expect, test } from 'vitest';
import { checkOptionKeys } from '../../core/options.js';
import {
  arbitratePickAtPixelSync,
  arbitratePickSync,
  ComposeError,
  CpuPickError,
  createBillboardRenderTask,
  createBillboardSystem,
  createBoxMesh,
  createBunnyMeshAsync,
  createCapsuleMesh,
  createContributorGpu,
  createCopyToTextureTask,
  createCpuPicker,
  createEngineAsync,
  createForwardRenderTask,
  createGeometryRendererTask,
  createGpuPicker,
  createMeshFromData,
  createPlaneMesh,
  createRenderTarget,
  createRenderTargetMrt,
  createScene,
  createSphereMesh,
  createSplatMesh,
  createSplatRenderTask,
  createTorusMesh,
  type Engine,
  EngineError,
  enableGeometryVelocity,
  GeometryError,
  GeometryTextureType,
  makeBoxData,
  makeComposeCache,
  makePerspectiveCamera,
  makeStandardMaterial,
  makeVertexAnimation,
  PickError,
  pickAsync,
  pickManyAsync,
  pickManySync,
  pickManyWithRaysSync,
  pickRectAsync,
  pickSync,
  pickWithRaySync,
  type Scene,
  type WeftError,
} from '../../index.js';
import { loadGltfAsync } from '../../engine/loaders/index.js';

const engine = {} as Engine;
const scene = createScene(engine);
const ray = { origin: [0, 0, 0] as [number, number, number], direction: [0, 0, -1] as [number, number, number] };
const typo = { typoKey: 1 } as never;
type ErrorClass = new (...args: never[]) => WeftError<string>;

/** [label, call with { typoKey: 1 }, error class, an allowed key the message must list]. */
const cases: [string, () => unknown, ErrorClass, string][] = [
  [
    'createEngineAsync',
    () => createEngineAsync({ requestAdapter: () => null } as never, { width: 8, height: 8 }, typo),
    EngineError,
    'requiredLimits',
  ],
  ['createScene', () => createScene(engine, typo), EngineError, 'clearColor'],
  ['makePerspectiveCamera', () => makePerspectiveCamera(typo), EngineError, 'fovY'],
  ['makeStandardMaterial', () => makeStandardMaterial(typo), EngineError, 'baseColor'],
  ['createMeshFromData', () => createMeshFromData(scene, 'm', makeBoxData(), typo), EngineError, 'worldMatrix'],
  ['createBoxMesh options', () => createBoxMesh(scene, 'b', typo), EngineError, 'width'],
  ['createBoxMesh meshOptions', () => createBoxMesh(scene, 'b', {}, typo), EngineError, 'material'],
  ['createSphereMesh', () => createSphereMesh(scene, 's', typo), EngineError, 'radius'],
  ['createTorusMesh', () => createTorusMesh(scene, 't', {}, typo), EngineError, 'pickable'],
  ['createPlaneMesh', () => createPlaneMesh(scene, 'p', typo), EngineError, 'width'],
  ['createCapsuleMesh', () => createCapsuleMesh(scene, 'c', typo), EngineError, 'radius'],
  ['createBunnyMeshAsync', () => createBunnyMeshAsync(scene, 'bunny', {}, typo), EngineError, 'visible'],
  ['createRenderTarget', () => createRenderTarget(engine, typo), EngineError, 'format'],
  ['createRenderTargetMrt', () => createRenderTargetMrt(engine, typo), EngineError, 'formats'],
  ['createForwardRenderTask', () => createForwardRenderTask(scene, typo), EngineError, 'objectIds'],
  ['makeVertexAnimation', () => makeVertexAnimation(typo), EngineError, 'frameCount'],
  ['loadGltfAsync', () => loadGltfAsync(scene, new Document(), typo), EngineError, 'worldMatrix'],
  ['createBillboardSystem', () => createBillboardSystem(scene, 'b', typo), EngineError, 'positions'],
  [
    'createBillboardRenderTask',
    () => createBillboardRenderTask({ scene, name: 'b' } as never, typo),
    EngineError,
    'target',
  ],
  ['createSplatMesh', () => createSplatMesh(scene, 's', typo), EngineError, 'centers'],
  ['createSplatRenderTask', () => createSplatRenderTask({ scene, name: 's' } as never, typo), EngineError, 'target'],
  ['makeComposeCache', () => makeComposeCache(typo), ComposeError, 'maxResults'],
  ['pickAsync', () => pickAsync(createGpuPicker(scene), 0, 0, typo), PickError, 'filter'],
  ['pickManyAsync', () => pickManyAsync(createGpuPicker(scene), [{ x: 0, y: 0 }], typo), PickError, 'discard'],
  ['pickRectAsync', () => pickRectAsync(createGpuPicker(scene), 0, 0, 1, 1, typo), PickError, 'maxResults'],
  ['createContributorGpu', () => createContributorGpu({} as GPUDevice, typo), PickError, 'shaderSpec'],
  ['createCpuPicker', () => createCpuPicker(scene, typo), CpuPickError, 'sceneBvh'],
  ['pickSync', () => pickSync(scene, 0, 0, typo), CpuPickError, 'maxDistance'],
  ['pickManySync', () => pickManySync(scene, 0, 0, typo), CpuPickError, 'ignore'],
  ['pickWithRaySync', () => pickWithRaySync(scene, ray, typo), CpuPickError, 'minDistance'],
  ['pickManyWithRaysSync', () => pickManyWithRaysSync(scene, ray, typo), CpuPickError, 'viewport'],
  ['arbitratePickSync policy', () => arbitratePickSync(scene, ray, typo), CpuPickError, 'fitTolerance'],
  ['arbitratePickSync options', () => arbitratePickSync(scene, ray, {}, typo), CpuPickError, 'filter'],
  ['arbitratePickAtPixelSync', () => arbitratePickAtPixelSync(scene, 0, 0, {}, typo), CpuPickError, 'devicePixelRatio'],
  [
    'createGeometryRendererTask',
    () => createGeometryRendererTask(scene, { textureDescriptions: [], typoKey: 1 } as never),
    GeometryError,
    'textureDescriptions',
  ],
  [
    'createGeometryRendererTask textureDescriptions[i]',
    () =>
      createGeometryRendererTask(scene, {
        textureDescriptions: [{ type: GeometryTextureType.ALBEDO, typoKey: 1 }],
      } as never),
    GeometryError,
    'format',
  ],
  [
    'enableGeometryVelocity',
    () => enableGeometryVelocity({ state: { disposed: false } } as never, typo),
    GeometryError,
    'previousDepth',
  ],
  ['createCopyToTextureTask', () => createCopyToTextureTask(scene, typo), GeometryError, 'sourceTexture'],
];

/** The error a call throws or rejects with. */
async function errorOf(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('unknown option keys are refused', () => {
  test.each(cases)('%s', async (label, call, errorClass, allowedKey) => {
    const error = (await errorOf(call)) as WeftError<string>;
    expect(error).toBeInstanceOf(errorClass);
    expect(error.code).toBe('bad-option');
    expect(error.api).toBe(label.split(' ')[0]);
    expect(error.message).toContain('"typoKey"');
    expect(error.message).toMatch(/allowed: /);
    expect(error.message).toContain(allowedKey);
  });
});

describe('checkOptionKeys', () => {
  const make = (api: string, message: string) => new EngineError(api, 'bad-option', message);

  test('passes undefined and known keys, returning the options', () => {
    expect(checkOptionKeys('api', undefined, ['a'], make)).toBeUndefined();
    const options = { a: 1 };
    expect(checkOptionKeys('api', options, ['a', 'b'], make)).toBe(options);
    expect(checkOptionKeys('api', options, { a: true, b: true }, make)).toBe(options);
  });

  test('refuses non-objects and unknown keys, suggesting the nearest allowed key', () => {
    for (const bad of [null, 3, 'fovY', [1], new Float32Array(2)])
      expect(() => checkOptionKeys('api', bad, ['fovY'], make)).toThrow(
        /^api: options .* must be an object with any of: fovY$/,
      );
    expect(() => makePerspectiveCamera({ fov: 1 } as never)).toThrow(
      'makePerspectiveCamera: unknown option "fov" (did you mean "fovY"?); allowed: fovY, near, far, position, target, up',
    );
    expect(() => createScene(engine, { clearcolor: [0, 0, 0, 1] } as never)).toThrow('(did you mean "clearColor"?)');
    // A misspelt key set to undefined is still a typo.
    expect(() => makeStandardMaterial({ colour: undefined } as never)).toThrow('unknown option "colour"');
    expect(() => checkOptionKeys('api', { zzzzzz: 1 }, ['fovY'], make)).toThrow(
      /unknown option "zzzzzz"; allowed: fovY$/,
    );
    expect(() => checkOptionKeys('api', { q: 1 }, ['a'], make, 'config')).toThrow('api: unknown config key "q"');
  });
});

describe('create*Mesh(scene, name, …) checks the name', () => {
  const named: [string, (scene: Scene, name: never) => unknown][] = [
    ['createBoxMesh', (s, n) => createBoxMesh(s, n)],
    ['createSphereMesh', (s, n) => createSphereMesh(s, n)],
    ['createTorusMesh', (s, n) => createTorusMesh(s, n)],
    ['createPlaneMesh', (s, n) => createPlaneMesh(s, n)],
    ['createCapsuleMesh', (s, n) => createCapsuleMesh(s, n)],
    ['createBunnyMeshAsync', (s, n) => createBunnyMeshAsync(s, n)],
    ['createSplatMesh', (s, n) => createSplatMesh(s, n, {} as never)],
    ['createBillboardSystem', (s, n) => createBillboardSystem(s, n, {} as never)],
  ];
  test.each(named)('%s', async (api, call) => {
    const error = (await errorOf(() => call(scene, { width: 2 } as never))) as WeftError<string>;
    expect(error).toBeInstanceOf(EngineError);
    expect(error.code).toBe('bad-option');
    expect(error.message).toMatch(new RegExp(`^${api}: name .* must be a non-empty string`));
    expect(error.message).toContain('name an object { width }');
  });

  test('an options object in the name slot is named as such', () => {
    expect(() => createBoxMesh(scene, { width: 2 } as never)).toThrow(
      'createBoxMesh: name an object { width } must be a non-empty string; the call is createBoxMesh(scene, name, options?, meshOptions?)',
    );
    expect(() => createBoxMesh(scene, 7 as never)).toThrow('createBoxMesh: name 7 must be a non-empty string');
    expect(() => createMeshFromData(scene, { a: 1 } as never, makeBoxData())).toThrow(
      'a mesh needs a non-empty string name, got an object { a }',
    );
  });

  test('a primitive option error names the create call', () => {
    expect(() => createBoxMesh(scene, 'b', { width: -1 })).toThrow(
      'createBoxMesh: width -1 must be a finite number > 0',
    );
  });
});
