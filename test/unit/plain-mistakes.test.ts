// The plain mistakes of issue #38: each one used to surface as a raw TypeError / ReferenceError from inside weft (or
// pass silently); each is now a typed error that names the API, the value and what to do instead.
import { globals } from 'webgpu';
import { afterEach, describe, expect, test } from 'vitest';
import { composeShader, getBufferLayout, getLayoutField, LayoutError, setUniforms } from '../../composer/index.js';
import { WeftError } from '../../core/errors.js';
import {
  createBoxMesh,
  createEngineAsync,
  createForwardRenderTask,
  createMeshFromData,
  createScene,
  disposeEngine,
  disposeMesh,
  type Engine,
  EngineError,
  makeBoxData,
  type MeshOptions,
  MeshDataError,
  renderFrame,
  runTasks,
  setMeshWorldMatrix,
  setThinInstances,
  type Task,
} from '../../engine/index.js';
import {
  makeGeometryFragments,
  makeLambertLightingFragment,
  makeStandardVertexFragments,
} from '../../fragments/index.js';
import { createGeometryRendererTask, GeometryError, readGeometryFrameIdAsync } from '../../geometry/index.js';
import {
  CpuPickError,
  createGpuPicker,
  disposeGpuPicker,
  getCpuPicker,
  PickError,
  pickAsync,
  pickRectAsync,
  pickSync,
} from '../../picking/index.js';

const cpuScene = () => createScene({ width: 64, height: 64 } as Engine);

/** The error `call` throws (synchronously or as a rejection), or a failure when it throws nothing. */
async function caught(call: () => unknown): Promise<Error> {
  try {
    await call();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error, got none');
}

describe('a misspelt binding name of a composed shader', () => {
  const composed = composeShader({
    fragments: [
      ...makeStandardVertexFragments(),
      makeLambertLightingFragment(),
      {
        id: 'my-tinted-surface',
        source: `import bindings::{ myParams };
import io::{ FragmentInput, FragmentOutput };
struct MyParams { tint: vec4f }
fn surface(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  output.color = myParams.tint;
  return output;
}`,
        bindings: [{ name: 'myParams', kind: 'uniform', type: 'MyParams', role: 'material', visibility: ['fragment'] }],
        outputs: [{ name: 'color', type: 'vec4f', format: 'rgba8unorm' }],
        fills: [{ slot: 'fragmentStage', fn: 'surface' }],
      },
    ],
    vertexLayout: {
      kind: 'buffers',
      buffers: [{ arrayStride: 12, attributes: [{ semantic: 'position', offset: 0, format: 'float32x3' }] }],
    },
  });

  test('getBufferLayout names the binding asked for and lists the ones the shader has', () => {
    expect(getBufferLayout(composed, 'myParams')).toBe(composed.bufferLayouts.myParams);
    const error = (() => {
      try {
        getBufferLayout(composed, 'myParam');
      } catch (e) {
        return e as LayoutError;
      }
    })();
    expect(error).toBeInstanceOf(LayoutError);
    expect(error?.code).toBe('unknown-binding');
    expect(error?.message).toMatch(/^getBufferLayout: .*"myParam".*: .*\bmyParams\b/);
    for (const name of Object.keys(composed.bufferLayouts)) expect(error?.message).toContain(name);
  });

  test('setUniforms and getLayoutField given the undefined of a misspelt lookup say so and name getBufferLayout', async () => {
    const misspelt = (composed.bufferLayouts as Record<string, never>).myParam;
    for (const [api, call] of [
      ['setUniforms', () => setUniforms(misspelt, new ArrayBuffer(16), { tint: [1, 1, 1, 1] })],
      ['getLayoutField', () => getLayoutField(misspelt, 'tint')],
    ] as const) {
      const error = await caught(call);
      expect(error).toBeInstanceOf(LayoutError);
      expect((error as LayoutError).code).toBe('not-a-layout');
      expect(error.message).toMatch(new RegExp(`^${api}: layout undefined .*getBufferLayout\\(composed, name\\)`));
    }
  });
});

describe('WebGPU globals missing in Node', () => {
  const names = ['GPUBufferUsage', 'GPUTextureUsage', 'GPUShaderStage', 'GPUMapMode', 'GPUColorWrite'] as const;
  const scope = globalThis as Record<string, unknown>;
  const saved = Object.fromEntries(names.map((name) => [name, scope[name]]));
  afterEach(() => {
    for (const name of names) scope[name] = saved[name];
  });

  test('createEngineAsync names the missing globals and the one-line fix before asking for an adapter', async () => {
    for (const name of names) delete scope[name];
    let asked = 0;
    const gpu = {
      requestAdapter: async () => {
        asked++;
        return null;
      },
    } as unknown as GPU;
    const error = await caught(() => createEngineAsync(gpu, { width: 8, height: 8 }));
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('no-webgpu');
    expect(error.message).toContain('GPUTextureUsage');
    expect(error.message).toContain('Object.assign(globalThis, globals)');
    expect(asked).toBe(0);

    // With the webgpu package's globals installed the check passes and the adapter is asked for.
    Object.assign(globalThis, globals);
    const next = await caught(() => createEngineAsync(gpu, { width: 8, height: 8 }));
    expect(asked).toBe(1);
    expect(next.message).toMatch(/no WebGPU adapter/);
  });
});

describe('createMeshFromData refuses null for every option, as for a wrong value', () => {
  const keys: (keyof MeshOptions)[] = [
    'material',
    'worldMatrix',
    'pickable',
    'visible',
    'thinInstances',
    'skeleton',
    'morphTargets',
    'morphWeights',
    'vertexAnimation',
    'vertexAnimationPlayback',
    'hostBuffers',
  ];
  test.each(keys)('%s: null', async (key) => {
    const scene = cpuScene();
    const error = await caught(() => createMeshFromData(scene, 'm', makeBoxData(), { [key]: null } as MeshOptions));
    expect(error).toBeInstanceOf(WeftError);
    expect(error.message).toMatch(/^createMeshFromData: /);
    expect(error.message).toContain(key);
    expect(error.message).toContain('null');
    expect(scene.meshes).toEqual([]);
  });

  test('worldMatrix null in particular is no longer the identity', async () => {
    const error = await caught(() => createMeshFromData(cpuScene(), 'm', makeBoxData(), { worldMatrix: null! }));
    expect(error).toBeInstanceOf(MeshDataError);
    expect((error as MeshDataError).field).toBe('worldMatrix');
  });
});

describe('a weft object of the wrong kind is named, not read into', () => {
  const scene = cpuScene();
  const engine = { width: 64, height: 64, deviceOwner: 'engine', device: {} } as unknown as Engine;
  const mesh = createBoxMesh(scene, 'box');
  const picker = createGpuPicker(scene);

  test.each([
    ['createBoxMesh', () => createBoxMesh(engine as never, 'b'), EngineError, /scene is an Engine; pass a Scene/],
    ['createMeshFromData', () => createMeshFromData(engine as never, 'b', makeBoxData()), EngineError, /an Engine/],
    ['renderFrame', () => renderFrame(engine as never), EngineError, /scene is an Engine/],
    ['createForwardRenderTask', () => createForwardRenderTask(engine as never), EngineError, /scene is an Engine/],
    ['createScene', () => createScene(undefined as never), EngineError, /engine is undefined; pass the Engine/],
    [
      'setMeshWorldMatrix',
      () => setMeshWorldMatrix(scene as never, new Float32Array(16)),
      EngineError,
      /mesh is a Scene/,
    ],
    ['setThinInstances', () => setThinInstances(scene as never, null), EngineError, /mesh is a Scene/],
    ['disposeMesh', () => disposeMesh(scene as never), EngineError, /mesh is a Scene/],
    ['disposeEngine', () => disposeEngine(scene as never), EngineError, /engine is a Scene/],
    ['runTasks (one task, no array)', () => runTasks({} as Engine, {} as never), EngineError, /pass an array of tasks/],
    [
      'runTasks (a hole)',
      () => runTasks({} as Engine, [undefined as unknown as Task]),
      EngineError,
      /tasks\[0\] is undefined/,
    ],
    ['createGpuPicker', () => createGpuPicker(engine as never), PickError, /scene is an Engine/],
    ['pickAsync', () => pickAsync(scene as never, 1, 1), PickError, /picker is a Scene; pass the GpuPicker/],
    ['pickRectAsync', () => pickRectAsync(scene as never, 0, 0, 4, 4), PickError, /picker is a Scene/],
    ['disposeGpuPicker', () => disposeGpuPicker(scene as never), PickError, /picker is a Scene/],
    ['pickSync', () => pickSync(picker as never, 1, 1), CpuPickError, /scene is a GpuPicker; pass a Scene/],
    ['getCpuPicker', () => getCpuPicker(engine as never), CpuPickError, /scene is an Engine/],
    [
      'createGeometryRendererTask',
      () => createGeometryRendererTask(engine as never, { textureDescriptions: [] }),
      GeometryError,
      /scene is an Engine/,
    ],
    [
      'readGeometryFrameIdAsync',
      () => readGeometryFrameIdAsync(mesh as never, 1, 1),
      GeometryError,
      /task is a Mesh "box"/,
    ],
    [
      'makeGeometryFragments',
      () => makeGeometryFragments(['viewDepht' as never]),
      WeftError,
      /unknown geometry output "viewDepht"; known: .*viewDepth/,
    ],
  ] as const)('%s', async (api, call, errorClass, message) => {
    const error = await caught(call);
    expect(error).toBeInstanceOf(errorClass);
    expect(error.message.startsWith(`${api.split(' ')[0]}: `)).toBe(true);
    expect(error.message).toMatch(message);
  });
});
