import { describe, expect, test } from 'vitest';
import { composeShader } from '../../../index.js';
import { composeStandardMaterial } from '../../../engine/render/forward-shader.js';
import {
  type Fragment,
  makeDrawUniformsFragment,
  makePickFragments,
  makeStandardVertexFragments,
} from '../../../fragments/index.js';
import { surfaceFragment } from './composer-test-helpers.js';

const vertex = makeStandardVertexFragments;
const surface = (extra: Partial<Fragment> = {}): Fragment => surfaceFragment(extra);
const holder = (id: string, extra: Partial<Fragment>): Fragment => ({ id, source: '', ...extra });

describe('bindings', () => {
  test('groups follow roles (scene 0, mesh 1, material 2, extra 3) and are not compacted; names sort within a group', () => {
    const extra = holder('extras', {
      bindings: [
        { name: 'zeta', kind: 'read-only-storage', type: 'array<vec4f>', role: 'extra', visibility: ['vertex'] },
        {
          name: 'alpha',
          kind: 'storage-texture',
          format: 'rgba8unorm',
          access: 'write-only',
          viewDimension: '2d',
          role: 'extra',
          visibility: ['fragment'],
        },
        {
          name: 'depthMap',
          kind: 'texture',
          sampleType: 'depth',
          viewDimension: '2d',
          role: 'extra',
          visibility: ['fragment'],
        },
        { name: 'shadow', kind: 'sampler', samplerType: 'comparison', role: 'extra', visibility: ['fragment'] },
      ],
    });
    const composed = composeShader({ fragments: [...vertex(), extra] });
    expect(composed.bindGroups.map((g) => [g.group, g.role, g.bindings.map((b) => `${b.binding}:${b.name}`)])).toEqual([
      [0, 'scene', ['0:scene']],
      [1, 'mesh', ['0:draw']],
      [2, 'material', []],
      [3, 'extra', ['0:alpha', '1:depthMap', '2:shadow', '3:zeta']],
    ]);
    expect(composed.bindGroups[2].entries).toEqual([]);
    expect(composed.bindGroups[3].entries).toEqual([
      {
        binding: 0,
        visibility: 2,
        storageTexture: { access: 'write-only', format: 'rgba8unorm', viewDimension: '2d' },
      },
      { binding: 1, visibility: 2, texture: { sampleType: 'depth', viewDimension: '2d', multisampled: false } },
      { binding: 2, visibility: 2, sampler: { type: 'comparison' } },
      { binding: 3, visibility: 1, buffer: { type: 'read-only-storage' } },
    ]);
    expect(composed.bindGroups[3].bindings.map((b) => b.wgslType)).toEqual([
      'texture_storage_2d<rgba8unorm, write>',
      'texture_depth_2d',
      'sampler_comparison',
      'array<vec4f>',
    ]);
  });

  test('the standard material: scene uniforms @0, draw uniforms with dynamic offset @1, sampler then texture @2', () => {
    const composed = composeStandardMaterial({ normals: true, uvs: true, colors: false, thinInstances: false });
    expect(composed.bindGroups.map((g) => g.entries)).toEqual([
      [{ binding: 0, visibility: 3, buffer: { type: 'uniform' } }],
      [{ binding: 0, visibility: 3, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: 160 } }],
      [
        { binding: 0, visibility: 2, sampler: { type: 'filtering' } },
        { binding: 1, visibility: 2, texture: { sampleType: 'float', viewDimension: '2d', multisampled: false } },
      ],
    ]);
    expect(composed.code).toContain('@group(2) @binding(1) var baseTexture: texture_2d<f32>;');
  });

  test('the pick fragments read draw and pick uniforms from a group per draw (no dynamic offsets)', () => {
    const composed = composeShader({ fragments: makePickFragments(), conditions: { thinInstances: false } });
    expect(composed.bindGroups[1].entries).toEqual([
      { binding: 0, visibility: 3, buffer: { type: 'uniform', minBindingSize: 160 } },
      { binding: 1, visibility: 3, buffer: { type: 'uniform', minBindingSize: 16 } },
    ]);
    const drawEntry = (options?: { dynamicOffset?: boolean }) =>
      composeShader({
        fragments: [...vertex().filter((f) => f.id !== 'draw-uniforms'), makeDrawUniformsFragment(options), surface()],
      }).bindGroups[1].entries[0].buffer;
    expect(drawEntry({ dynamicOffset: false })).toEqual({ type: 'uniform', minBindingSize: 160 });
    expect(drawEntry()).toEqual({ type: 'uniform', hasDynamicOffset: true, minBindingSize: 160 });
    expect(drawEntry({ dynamicOffset: true })).toEqual({
      type: 'uniform',
      hasDynamicOffset: true,
      minBindingSize: 160,
    });
  });

  test('makeDrawUniformsFragment refuses options it does not know, naming the value', () => {
    const bad: [unknown, RegExp][] = [
      [{ dynamicOffset: 'false' }, /dynamicOffset "false" must be true \(read at a dynamic offset\) or false/],
      [{ dynamic: false }, /unknown option "dynamic"; allowed: dynamicOffset/],
      [null, /options null must be an object with any of: dynamicOffset/],
    ];
    for (const [options, message] of bad) {
      const call = () => makeDrawUniformsFragment(options as { dynamicOffset?: boolean });
      expect(call).toThrow(message);
      expect(call).toThrow(expect.objectContaining({ api: 'makeDrawUniformsFragment', code: 'bad-spec' }));
    }
  });

  test('an identical binding declared by two fragments is shared, with the union of visibilities', () => {
    const a = holder('reads-a', {
      bindings: [
        {
          name: 'lut',
          kind: 'texture',
          sampleType: 'float',
          viewDimension: '2d',
          role: 'material',
          visibility: ['vertex'],
        },
      ],
    });
    const b = holder('reads-b', {
      bindings: [
        {
          name: 'lut',
          kind: 'texture',
          sampleType: 'float',
          viewDimension: '2d',
          multisampled: false,
          role: 'material',
          visibility: ['fragment'],
        },
      ],
    });
    const composed = composeShader({ fragments: [...vertex(), b, a] });
    expect(composed.bindGroups[2].bindings).toEqual([
      {
        name: 'lut',
        group: 2,
        binding: 0,
        kind: 'texture',
        wgslType: 'texture_2d<f32>',
        fragments: ['reads-a', 'reads-b'],
      },
    ]);
    expect(composed.bindGroups[2].entries[0].visibility).toBe(3);
  });

  test('bindings whose condition is false are absent from the layout', () => {
    const optional = holder('optional', {
      bindings: [
        {
          name: 'lights',
          kind: 'read-only-storage',
          type: 'array<vec4f>',
          role: 'extra',
          visibility: ['fragment'],
          when: 'lights && !unlit',
        },
      ],
    });
    expect(composeShader({ fragments: [...vertex(), optional], conditions: { lights: true } }).bindGroups).toHaveLength(
      4,
    );
    expect(
      composeShader({ fragments: [...vertex(), optional], conditions: { lights: true, unlit: true } }).bindGroups,
    ).toHaveLength(2);
  });
});

describe('vertex inputs', () => {
  test('locations follow the semantic order among active inputs, per-instance last', () => {
    const extra = holder('extra-inputs', {
      vertexInputs: [
        { semantic: 'weights', format: 'unorm8x4' },
        { semantic: 'joints', format: 'uint8x4' },
        { semantic: 'tangent', format: 'float32x4' },
        { semantic: 'zcustom', format: 'float32' },
      ],
    });
    const composed = composeShader({ fragments: [extra, ...vertex()], conditions: { uvs: true, thinInstances: true } });
    expect(composed.vertexInputs.map((v) => `${v.location}:${v.semantic}:${v.wgslType}:${v.stepMode}`)).toEqual([
      '0:position:vec3f:vertex',
      '1:uv:vec2f:vertex',
      '2:tangent:vec4f:vertex',
      '3:joints:vec4u:vertex',
      '4:weights:vec4f:vertex',
      '5:zcustom:f32:vertex',
      '6:instance0:vec4f:instance',
      '7:instance1:vec4f:instance',
      '8:instance2:vec4f:instance',
      '9:instance3:vec4f:instance',
    ]);
    expect(composed.code).toContain('@location(3) joints: vec4u,');
  });

  test('tight layout: one buffer per input with the format size as stride; overrides of the same kind are allowed', () => {
    const composed = composeShader({
      fragments: vertex(),
      conditions: { normals: true, colors: true },
      vertexLayout: { kind: 'tight', formats: { color: 'unorm8x4', normal: 'snorm16x4' } },
    });
    expect(composed.vertexBuffers).toEqual([
      { arrayStride: 12, stepMode: 'vertex', attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x3' }] },
      { arrayStride: 8, stepMode: 'vertex', attributes: [{ shaderLocation: 1, offset: 0, format: 'snorm16x4' }] },
      { arrayStride: 4, stepMode: 'vertex', attributes: [{ shaderLocation: 2, offset: 0, format: 'unorm8x4' }] },
    ]);
    expect(composed.vertexBufferSources).toEqual([0, 1, 2]);
  });

  test('interleaved buffers: unused attributes and empty buffers are dropped, sources say which caller buffer feeds each slot', () => {
    const composed = composeShader({
      fragments: vertex(),
      conditions: { uvs: true, thinInstances: true },
      vertexLayout: {
        kind: 'buffers',
        buffers: [
          {
            arrayStride: 48,
            attributes: [
              { semantic: 'uv', offset: 24, format: 'float32x2' },
              { semantic: 'normal', offset: 12, format: 'float32x3' },
              { semantic: 'position', offset: 0, format: 'float32x3' },
              { semantic: 'color', offset: 32, format: 'float32x4' },
            ],
          },
          { arrayStride: 16, attributes: [{ semantic: 'tangent', offset: 0, format: 'float32x4' }] },
          {
            arrayStride: 64,
            stepMode: 'instance',
            attributes: [0, 1, 2, 3].map((i) => ({
              semantic: `instance${i}`,
              offset: i * 16,
              format: 'float32x4' as const,
            })),
          },
        ],
      },
    });
    expect(composed.vertexBuffers).toEqual([
      {
        arrayStride: 48,
        stepMode: 'vertex',
        attributes: [
          { shaderLocation: 0, offset: 0, format: 'float32x3' },
          { shaderLocation: 1, offset: 24, format: 'float32x2' },
        ],
      },
      {
        arrayStride: 64,
        stepMode: 'instance',
        attributes: [0, 1, 2, 3].map((i) => ({ shaderLocation: 2 + i, offset: i * 16, format: 'float32x4' })),
      },
    ]);
    expect(composed.vertexBufferSources).toEqual([0, 2]);
    expect(composed.vertexInputs.map((v) => `${v.semantic}@${v.buffer}`)).toEqual([
      'position@0',
      'uv@0',
      'instance0@1',
      'instance1@1',
      'instance2@1',
      'instance3@1',
    ]);
  });
});

describe('varyings, builtins, outputs', () => {
  test('varyings sort by name; integer ones are flat; builtins and outputs come in fragment order', () => {
    const composed = composeShader({ fragments: makePickFragments(), conditions: { primitiveDetail: true } });
    expect(composed.varyings.map((v) => `${v.location}:${v.name}:${v.interpolation ?? ''}`)).toEqual([
      '0:pickInstance:flat',
      '1:pickLocal:',
      '2:worldNormal:',
      '3:worldPosition:',
    ]);
    // uv and colour are varyings only when the mesh has them: interpolating constants costs every fragment.
    const withAttributes = composeShader({
      fragments: makePickFragments(),
      conditions: { primitiveDetail: true, uvs: true, colors: true },
    });
    expect(withAttributes.varyings.map((v) => `${v.location}:${v.name}`)).toEqual([
      '0:color',
      '1:pickInstance',
      '2:pickLocal',
      '3:uv',
      '4:worldNormal',
      '5:worldPosition',
    ]);
    expect(composed.targets.map((t) => `${t.location}:${t.name}:${t.format}`)).toEqual([
      '0:pickId:rgba8unorm',
      '1:pickDepth:r32float',
      '2:pickDetail:rgba32uint',
    ]);
    expect(composed.features).toEqual([{ feature: 'primitive-index', fragments: ['pick-output'] }]);
    expect(composed.code).toMatch(/^\s*enable primitive_index;\n/);
    expect(composed.code).toContain('@builtin(primitive_index) primitiveIndex: u32,');
    // `either`: the value is the same at every corner, and compatibility-mode devices accept no other flat sampling.
    expect(composed.code).toContain('@location(0) @interpolate(flat, either) pickInstance: u32,');
  });

  test('without primitiveDetail the pick variant has two targets and needs no feature', () => {
    const composed = composeShader({ fragments: makePickFragments(), conditions: {} });
    expect(composed.targets.map((t) => t.name)).toEqual(['pickId', 'pickDepth']);
    expect(composed.features).toEqual([]);
    expect(composed.code).not.toContain('enable');
  });
});

describe('slots', () => {
  const hook = (extra: Partial<Fragment> = {}): Fragment => ({
    id: 'world-hook',
    source: 'fn keepWorld(p: vec3f) -> vec3f {\n  return p;\n}\n',
    provides: [{ name: 'adjustWorld', params: [{ name: 'p', type: 'vec3f' }], returns: 'vec3f', default: 'keepWorld' }],
    ...extra,
  });
  const lift = (id: string): Fragment => ({
    id,
    source: 'fn lift(p: vec3f) -> vec3f {\n  return p + vec3f(0.0, 1.0, 0.0);\n}\n',
    fills: [{ slot: 'adjustWorld', fn: 'lift' }],
    dependencies: ['world-hook'],
  });
  const caller: Fragment = {
    id: 'hook-caller',
    dependencies: ['world-hook'],
    source:
      'import io::{ FragmentInput, FragmentOutput };\nimport slots::adjustWorld;\nfn surface(input: FragmentInput) -> FragmentOutput {\n  var o: FragmentOutput;\n  o.color = vec4f(adjustWorld(input.worldPosition), 1.0);\n  return o;\n}\n',
    outputs: [{ name: 'color', type: 'vec4f' }],
    fills: [{ slot: 'fragmentStage', fn: 'surface' }],
  };

  test('an unfilled optional slot forwards to the provider default', () => {
    const composed = composeShader({ fragments: [...vertex(), hook(), caller] });
    expect(composed.code).toContain('fn adjustWorld(p: vec3f) -> vec3f {\n  return keepWorld(p);\n}');
    expect(composed.slots.find((s) => s.name === 'adjustWorld')).toEqual({
      name: 'adjustWorld',
      provider: 'world-hook',
      fillers: [],
      usesDefault: true,
    });
  });

  test('a filled slot forwards to the filler', () => {
    const composed = composeShader({ fragments: [...vertex(), hook(), caller, lift('lift-hook')] });
    expect(composed.code).toContain('fn adjustWorld(p: vec3f) -> vec3f {\n  return lift(p);\n}');
    expect(composed.slots.find((s) => s.name === 'adjustWorld')).toMatchObject({
      fillers: ['lift-hook'],
      usesDefault: false,
    });
  });

  test('an `all` slot calls every filler in fragment order', () => {
    const writer = (id: string, name: string): Fragment => ({
      id,
      source: `import io::{ VertexInput, VertexOutput };\nfn ${name}(input: VertexInput, output: ptr<function, VertexOutput>) {\n  (*output).uv = vec2f(0.5);\n}\n`,
      fills: [{ slot: 'vertexVaryings', fn: name }],
    });
    const composed = composeShader({
      fragments: [writer('writer-b', 'writeB'), ...vertex(), writer('writer-a', 'writeA')],
    });
    expect(composed.code).toContain(
      'fn vertexVaryings(input: VertexInput, output: ptr<function, VertexOutput>) {\n  writeA(input, output);\n  writeB(input, output);\n}',
    );
    expect(composed.slots.find((s) => s.name === 'vertexVaryings')?.fillers).toEqual(['writer-a', 'writer-b']);
  });

  test('no fragment stage: a vertex-only shader without fragment entry point', () => {
    const composed = composeShader({ fragments: vertex() });
    expect(composed.fragmentEntryPoint).toBeNull();
    expect(composed.code).not.toContain('@fragment');
    expect(composed.targets).toEqual([]);
  });

  test('a stage function is called from the generated entry point', () => {
    const composed = composeShader({ fragments: [...vertex(), surface()] });
    expect(composed.vertexEntryPoint).toBe('vertexMain');
    expect(composed.fragmentEntryPoint).toBe('fragmentMain');
    expect(composed.code).toContain(
      '@fragment fn fragmentMain(input: FragmentInput) -> FragmentOutput {\n  return surface(input);\n}',
    );
  });
});
