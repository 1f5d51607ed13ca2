// Binding policy (group per role, first binding) and library output, for host engines that own group 0 or their entry
// points. Library variants are snapshot like the registry's; test/gpu/composer/library-output.test.ts compiles them.
import { describe, expect, test } from 'vitest';
import {
  type ComposeSpec,
  composeShader,
  formatShaderSnapshot,
  listVariants,
  makeComposeCache,
  makeWeftVariantRegistry,
} from '../../../index.js';
import { hostLibraryVariants, hostMaterialSpec } from '../../support/host-material.js';
import { composeError } from './composer-test-helpers.js';

const registry = makeWeftVariantRegistry();
const standard = listVariants(registry).find((v) => v.name === 'standard-normals')!;

describe('binding policy', () => {
  test('the default policy, spelled out, gives the same code and key as no policy', () => {
    const plain = composeShader(standard.spec());
    for (const bindings of [
      {},
      { groups: { scene: 0, mesh: 1, material: 2, extra: 3 } },
      { firstBinding: 0 },
      { maxBindGroups: 8 },
    ]) {
      const spelled = composeShader({ ...standard.spec(), bindings });
      expect(spelled.code).toBe(plain.code);
      expect(spelled.key).toBe(plain.key);
    }
  });

  test('moves every role above a group the host keeps, with the first binding per group or per role', () => {
    const composed = composeShader({
      ...standard.spec(),
      bindings: { groups: { scene: 1, mesh: 2, material: 3 }, firstBinding: { scene: 4, material: 1 } },
    });
    expect(composed.bindGroups.map((g) => [g.group, g.role, g.bindings.map((b) => `${b.name}@${b.binding}`)])).toEqual([
      [0, null, []],
      [1, 'scene', ['scene@4']],
      [2, 'mesh', ['draw@0']],
      [3, 'material', ['baseSampler@1', 'baseTexture@2']],
    ]);
    expect(composed.bindGroups[3].entries.map((e) => e.binding)).toEqual([1, 2]);
    expect(composed.code).toContain('@group(1) @binding(4) var<uniform> scene: SceneUniforms;');
    expect(composed.code).toContain('@group(3) @binding(2) var baseTexture: texture_2d<f32>;');
    expect(composed.code).not.toContain('@group(0)');
    expect(composed.key).not.toBe(composeShader(standard.spec()).key);
    // The policy is part of the compose cache's key too.
    const cache = makeComposeCache();
    const a = composeShader({ ...standard.spec(), bindings: { firstBinding: 1 } }, cache);
    const b = composeShader({ ...standard.spec(), bindings: { firstBinding: 2 } }, cache);
    expect(a.key).not.toBe(b.key);
    expect(composeShader(standard.spec(), cache).key).toBe(composeShader(standard.spec()).key);
  });

  test('refuses duplicate, negative and out-of-limit groups, bad first bindings and a used role with no group', () => {
    const bad = (bindings: unknown) => composeError({ ...standard.spec(), bindings } as ComposeSpec);
    let e = bad({ groups: { scene: 1, mesh: 1, material: 2 } });
    expect(e.code).toBe('binding-policy');
    expect(e.message).toBe(
      'composeShader: bindings: groups.scene and groups.mesh are both 1; each role needs its own group',
    );
    e = bad({ groups: { scene: -1, mesh: 1, material: 2 } });
    expect(e.message).toBe('composeShader: bindings: groups.scene -1 must be an integer in 0..3 (maxBindGroups 4)');
    e = bad({ groups: { scene: 1, mesh: 2, material: 4 } });
    expect(e.message).toBe('composeShader: bindings: groups.material 4 must be an integer in 0..3 (maxBindGroups 4)');
    // The device's limit, passed by a runtime, allows it.
    expect(
      composeShader({ ...standard.spec(), bindings: { groups: { scene: 1, mesh: 2, material: 4 }, maxBindGroups: 5 } })
        .bindGroups[4].role,
    ).toBe('material');
    e = bad({ groups: { scene: 1, mesh: 2 } });
    expect(e.code).toBe('binding-policy');
    expect(e.fragmentIds).toEqual(['base-texture']);
    expect(e.message).toMatch(
      /^composeShader: binding "baseTexture" of fragment "base-texture" is in role material, which the binding policy gives no group/,
    );
    expect(bad({ firstBinding: 1.5 }).message).toBe(
      'composeShader: bindings: firstBinding 1.5 must be a non-negative integer',
    );
    expect(bad({ firstBinding: { light: 1 } }).message).toBe(
      'composeShader: bindings: firstBinding has key "light"; the roles are scene, mesh, material, extra',
    );
    expect(bad({ group: {} }).message).toMatch(/unknown bindings key "group" \(did you mean "groups"\?\)/);
    expect(bad({ maxBindGroups: 0 }).message).toBe(
      "composeShader: bindings: maxBindGroups 0 must be a positive integer (the device's limit)",
    );
    expect(composeError({ ...standard.spec(), output: 'lib' as 'library' }).code).toBe('invalid-spec');
  });
});

describe('library output', () => {
  for (const variant of hostLibraryVariants()) {
    test(`${variant.name}.wgsl`, async () => {
      const composed = composeShader(variant.spec());
      expect(composed.output).toBe('library');
      expect(composed.code).not.toMatch(/@(group|binding|vertex|fragment|location|builtin)\b|\benable\b/);
      await expect(`// ${variant.name}: ${variant.description}\n${formatShaderSnapshot(composed)}`).toMatchFileSnapshot(
        `./__snapshots__/${variant.name}.wgsl`,
      );
    });
  }

  test('is deterministic and keyed apart from the module of the same spec', () => {
    const library = composeShader(hostMaterialSpec('library'));
    expect(composeShader(hostMaterialSpec('library')).code).toBe(library.code);
    const module = composeShader(hostMaterialSpec('module'));
    expect(module.output).toBe('module');
    expect(module.stageResources).toBeNull();
    expect(library.key).not.toBe(module.key);
    expect(library.stageResources).toEqual({ vertex: ['scene', 'draw'], fragment: ['scene', 'draw', 'bandParams'] });
    const cache = makeComposeCache();
    expect(composeShader(hostMaterialSpec('module'), cache).key).toBe(module.key);
    expect(composeShader(hostMaterialSpec('library'), cache).key).toBe(library.key);
  });

  test('carries the struct layouts of its stage resources, the structs the host fills (offsets as in the module)', () => {
    const library = composeShader(hostMaterialSpec('library'));
    const module = composeShader(hostMaterialSpec('module'));
    expect(Object.keys(library.bufferLayouts)).toEqual(['scene', 'draw', 'bandParams']);
    for (const [name, layout] of Object.entries(library.bufferLayouts)) {
      // The library declares no @group/@binding; everything else is the module's layout of the same binding.
      expect([layout.group, layout.binding, layout.addressSpace, layout.access]).toEqual([null, null, 'uniform', null]);
      expect(layout.type).toEqual(module.bufferLayouts[name].type);
      expect(layout.minBindingSize).toBe(module.bufferLayouts[name].minBindingSize);
    }
    // BandParams by the WGSL rules: three vec4f, 16 bytes each, aligned to 16.
    const band = library.bufferLayouts.bandParams.type;
    expect(band.kind === 'struct' && band.fields.map((f) => [f.name, f.offset, f.size])).toEqual([
      ['tint', 0, 16],
      ['bandColor', 16, 16],
      ['band', 32, 16],
    ]);
    expect(library.bufferLayouts.bandParams.minBindingSize).toBe(48);
    // With group 0 kept for the host, the layouts are the same data (the library names no group).
    const moved = composeShader(hostMaterialSpec('library', { groups: { scene: 1, mesh: 2, material: 3 } }));
    expect(JSON.stringify(moved.bufferLayouts)).toBe(JSON.stringify(library.bufferLayouts));
  });

  test('refuses a texture, sampler or storage resource it cannot pass as a value', () => {
    const e = composeError({ ...standard.spec(), output: 'library' });
    expect(e.code).toBe('library-resource');
    expect(e.fragmentIds).toEqual(['base-texture']);
    expect(e.message).toBe(
      'composeShader: binding "baseTexture" of fragment "base-texture" is a texture; library output passes resources to its stage functions as values, which only uniform buffers can be (textures, samplers and storage buffers in a library are not supported yet)',
    );
  });
});
