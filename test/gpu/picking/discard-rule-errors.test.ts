import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  createBoxMesh,
  createMeshFromData,
  createScene,
  makePerspectiveCamera,
  type Mesh,
} from '../../../engine/index.js';
import { createGpuPicker, type PickDiscardRule, PickError, pickAsync } from '../../../picking/index.js';
import { gpuTest } from '../../support/gpu.js';

const ok = 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return false;\n}';
const rule = (key: string, fields: Partial<PickDiscardRule>): PickDiscardRule => ({ key, wgsl: ok, ...fields });
const flags = (data: (mesh: Mesh) => unknown) => [
  { name: 'flags', type: 'array<f32>', data: data as (mesh: Mesh) => ArrayBufferView },
];

/** Each mutated rule and the words its error must contain (its own key is always required too). */
const mutations: [PickDiscardRule, (string | RegExp)[]][] = [
  [
    rule('syntax', { wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return false\n}' }),
    [/wgsl:2:15: Expected ';' after return statement/],
  ],
  [
    rule('return-type', { wgsl: 'fn pickDiscard(input: PickDiscardInput) -> f32 {\n  return 1.0;\n}' }),
    [
      // Caught by the composer's signature check, before the device sees the code.
      'wgsl:1:1: the rule\'s function does not match fn pickDiscard(input: PickDiscardInput) -> bool: fills slot "pickDiscard" (declared by fragment "pick-discard-types") but returns f32 where the slot returns bool',
      'found fn(input: PickDiscardInput) -> f32',
    ],
  ],
  [
    rule('param-type', { wgsl: 'fn pickDiscard(input: vec4f) -> bool {\n  return input.x > 0.0;\n}' }),
    ['does not match fn pickDiscard(input: PickDiscardInput) -> bool: ', 'found fn(input: vec4f) -> bool'],
  ],
  [
    rule('extra-param', {
      wgsl: 'fn pickDiscard(input: PickDiscardInput, more: f32) -> bool {\n  return more > 0.0;\n}',
    }),
    [
      'does not match fn pickDiscard(input: PickDiscardInput) -> bool: ',
      'found fn(input: PickDiscardInput, more: f32) -> bool',
    ],
  ],
  [
    rule('no-predicate', { wgsl: 'fn somethingElse() -> bool {\n  return false;\n}' }),
    ['wgsl must define fn pickDiscard(input: PickDiscardInput) -> bool'],
  ],
  [
    rule('unknown-name', { wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return bananas > 0.0;\n}' }),
    ["wgsl:2:10: unresolved identifier 'bananas'", '  return bananas > 0.0;'],
  ],
  [
    rule('unknown-field', {
      wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.colour.x > 0.0;\n}',
    }),
    ['wgsl:2:10: struct member colour not found'],
  ],
  [
    rule('vertex-data-not-asked', {
      wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.vertexData.x > 0.0;\n}',
    }),
    ['wgsl:2:10: struct member vertexData not found'],
  ],
  [
    rule('type-mismatch', {
      wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.pickId > 0.5;\n}',
    }),
    ["wgsl:2:10: no matching overload for 'operator > (u32, abstract-float)'"],
  ],
  [
    rule('recursion', { wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return pickDiscard(input);\n}' }),
    ['wgsl:1:1: cyclic dependency found'],
  ],
  [
    rule('constant-index', {
      wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  let a = array<f32, 2>(0.0, 1.0);\n  return a[5] > 0.0;\n}',
    }),
    [/wgsl:3:\d+: .*out of bounds/],
  ],
  [
    rule('hard-coded-binding', { wgsl: `@group(0) @binding(0) var<uniform> mine: vec4f;\n${ok}` }),
    ['wgsl:1:1: writes @group(…); the composer assigns every @group, @binding and @location'],
  ],
  [rule('directive', { wgsl: `enable f16;\n${ok}` }), ["wgsl:1:8: extension 'f16' is not allowed"]],
  [
    rule('storage-bad-type', { storage: [{ name: 'flags', type: 'array<banana>', data: () => null }] }),
    ['storage[0].type "array<banana>" is not a storage type weft can bind'],
  ],
  [
    rule('storage-bad-name', { storage: [{ name: '1flags', type: 'array<f32>', data: () => null }] }),
    ['storage[0].name "1flags" must be a WGSL identifier'],
  ],
  [
    rule('storage-reserved-name', { storage: [{ name: 'scene', type: 'array<f32>', data: () => null }] }),
    ['storage[0].name "scene" must be a WGSL identifier other than'],
  ],
  [
    rule('storage-duplicate', {
      storage: [
        { name: 'a', type: 'array<f32>', data: () => null },
        { name: 'a', type: 'array<u32>', data: () => null },
      ],
    }),
    ['storage[1].name "a" is used twice'],
  ],
  [rule('storage-no-type', { storage: [{ name: 'a', data: () => null } as never] }), ['storage[0].type undefined']],
  [
    rule('storage-data-not-function', { storage: [{ name: 'a', type: 'array<f32>', data: 42 } as never] }),
    ['storage[0].data 42 must be a function'],
  ],
  [
    rule('storage-returns-number', { storage: flags(() => 7) }),
    ['storage "flags" data(mesh "target") returned 7; expected an ArrayBufferView'],
  ],
  [
    rule('storage-returns-string', { storage: flags(() => 'zeros') }),
    ['returned "zeros"; expected an ArrayBufferView'],
  ],
  [
    rule('storage-returns-array', { storage: flags(() => [1, 2, 3]) }),
    ['returned array(3); expected an ArrayBufferView'],
  ],
  [
    rule('storage-throws', {
      storage: flags(() => {
        throw new Error('no data today');
      }),
    }),
    ['data(mesh "target") threw: no data today'],
  ],
  [
    rule('storage-odd-bytes', { storage: flags(() => new Uint8Array(3)) }),
    ['holds 3 bytes; storage buffers need a multiple of 4'],
  ],
  [rule('storage-not-array', { storage: 'flags' as never }), ['storage "flags" must be an array']],
  [rule('storage-entry-null', { storage: [null] as never }), ['storage[0] null must be { name, type, data }']],
  [
    rule('storage-unused-name', {
      wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return other[0] > 0.0;\n}',
      storage: flags(() => null),
    }),
    ["wgsl:2:10: unresolved identifier 'other'"],
  ],
  [
    rule('vertex-data-position', { vertexData: 'position' as never }),
    ['vertexData "position" is not allowed; use one of normal, uv, uv2, tangent, color'],
  ],
  [
    rule('vertex-data-unorm-colour', { vertexData: 'color' }),
    ['mesh "target" stores color as unorm8x4; vertexData reads float32 formats only'],
  ],
  [
    rule('adjust-syntax', {
      worldAdjustWgsl: 'fn adjustPickWorld(input: PickWorldInput) -> vec3f {\n  return input.worldPos +\n}',
    }),
    ['worldAdjustWgsl:3:1: Expected expression after binary operator'],
  ],
  [
    rule('adjust-missing', {
      worldAdjustWgsl: 'fn adjustWorld(input: PickWorldInput) -> vec3f {\n  return input.worldPos;\n}',
    }),
    ['worldAdjustWgsl must define fn adjustPickWorld(input: PickWorldInput) -> vec3f'],
  ],
  [
    rule('adjust-return-type', {
      worldAdjustWgsl: 'fn adjustPickWorld(input: PickWorldInput) -> vec4f {\n  return vec4f(input.worldPos, 1.0);\n}',
    }),
    [
      "worldAdjustWgsl:1:1: the rule's function does not match fn adjustPickWorld(input: PickWorldInput) -> vec3f: return statement type must match",
    ],
  ],
  [
    rule('adjust-fragment-storage', {
      worldAdjustWgsl:
        'fn adjustPickWorld(input: PickWorldInput) -> vec3f {\n  return input.worldPos + vec3f(flags[0]);\n}',
      storage: flags(() => new Float32Array(4)),
    }),
    ['storage read by worldAdjustWgsl runs in the vertex stage: give that entry vertex: true'],
  ],
  [rule('', {}), ['discard rule key "" must be a non-empty string']],
  [{ key: 'wgsl-not-string', wgsl: 12 } as never, ['wgsl 12 must be a string of WGSL']],
  [null as never, ['discard null must be a PickDiscardRule object']],
];

describe('mutated discard rules', () => {
  gpuTest(
    `${mutations.length} broken rules each give their own clear error; a normal pick still answers right after each`,
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 4], target: [0, 0, 0] });
      // unorm8x4 colours, so the vertexData format check has something to refuse.
      const target = createMeshFromData(scene, 'target', {
        positions: new Float32Array([-1, -1, 0, 1, -1, 0, 0, 1, 0]),
        colors: new Uint8Array(12).fill(255),
      });
      createBoxMesh(
        scene,
        'behind',
        { width: 6, height: 6, depth: 0.1 },
        { worldMatrix: mat4.translation([0, 0, -2]) },
      );
      const picker = createGpuPicker(scene);
      const messages = new Set<string>();
      expect(mutations.length).toBeGreaterThanOrEqual(30);
      for (const [broken, words] of mutations) {
        const label = broken?.key ?? String(broken);
        const error = await pickAsync(picker, 32, 36, { discard: broken }).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, `rule ${label} must be refused`).toBeInstanceOf(PickError);
        const message = (error as Error).message;
        if (broken && typeof broken.key === 'string' && broken.key) expect(message, label).toContain(`"${broken.key}"`);
        for (const word of words)
          expect(message, `${label}: ${message}`).toMatch(
            word instanceof RegExp ? word : new RegExp(word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
          );
        messages.add(message.replace(/"[^"]*"/, ''));
        const info = await pickAsync(picker, 32, 36);
        expect(info.pickedMesh, `after ${label}`).toBe(target);
      }
      // Every mutation got its own message, not one generic failure.
      expect(messages.size).toBe(mutations.length);
    },
  );
});

describe('rule compile messages as data', () => {
  gpuTest("messages carry the rule's own line and column, for compose-time and device errors", async ({ engine }) => {
    const scene = createScene(engine);
    scene.camera = makePerspectiveCamera({ position: [0, 0, 4], target: [0, 0, 0] });
    createBoxMesh(scene, 'box', { width: 2, height: 2, depth: 0.1 });
    const picker = createGpuPicker(scene);
    const refusal = async (broken: PickDiscardRule): Promise<PickError> => {
      const error = await pickAsync(picker, 32, 36, { discard: broken }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, broken.key).toBeInstanceOf(PickError);
      expect((error as PickError).code).toBe('rule-compile');
      return error as PickError;
    };
    const storage = flags(() => new Float32Array(4));
    // Compose time (wesl): an unknown identifier, with storage imports the composer supplies.
    const unknown = await refusal(
      rule('unknown', {
        wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return flags[0] > bananas;\n}',
        storage,
      }),
    );
    expect(unknown.messages[0]).toMatchObject({ file: 'wgsl', line: 2, column: 21, type: 'error' });
    expect(unknown.messages[0].lineText).toBe('  return flags[0] > bananas;');
    // Device compile (Tint): a swizzle character the type does not have (the column of the q), in both texts.
    const swizzle = await refusal(
      rule('swizzle', {
        wgsl: '\nfn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.worldPos.q > flags[0];\n}',
        storage,
      }),
    );
    expect(swizzle.messages[0]).toMatchObject({ file: 'wgsl', line: 3, column: 26, type: 'error' });
    const adjust = await refusal(
      rule('adjust', {
        worldAdjustWgsl: 'fn adjustPickWorld(input: PickWorldInput) -> vec3f {\n  return input.worldPos.zyq;\n}',
      }),
    );
    expect(adjust.messages[0]).toMatchObject({ file: 'worldAdjustWgsl', line: 2, column: 28, type: 'error' });
    // A function weft cannot call points at its declaration.
    const signature = await refusal(
      rule('signature', { wgsl: '\n\n  fn pickDiscard(input: vec4f) -> bool {\n  return true;\n}' }),
    );
    expect(signature.messages[0]).toMatchObject({ file: 'wgsl', line: 3, column: 3 });
    expect(signature.messages[0].message).toMatch(/^the rule's function does not match fn pickDiscard/);
    expect((await pickAsync(picker, 32, 36)).hit).toBe(true);
  });
});
