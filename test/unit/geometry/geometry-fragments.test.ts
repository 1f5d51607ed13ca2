import { describe, expect, test } from 'vitest';
import { ComposeError, composeShader, makeComposeCache } from '../../../composer/index.js';
import { composeGeometryShader, geometrySpec, type GeometryVariant } from '../../../geometry/geometry-shader.js';
import { makeGeometryFragments, type Fragment, type GeometryOutputName } from '../../../fragments/index.js';
import { velocityPreviousPositionSlot } from '../../../fragments/geometry-velocity.js';

const variant = (outputs: GeometryOutputName[], extra: Partial<GeometryVariant> = {}): GeometryVariant => ({
  outputs,
  normals: true,
  uvs: false,
  colors: false,
  thinInstances: false,
  ...extra,
});

describe('geometry fragments', () => {
  test('the composed shader holds only the requested outputs and the bindings they read', () => {
    const positions = composeGeometryShader(variant(['worldPosition']));
    expect(positions.targets.map((t) => `${t.name} ${t.format}`)).toEqual(['worldPosition rgba32float']);
    expect(positions.code).not.toMatch(/viewNormal|geometryScene|baseTexture|velocity|lambert/);
    expect(positions.bindGroups.map((g) => g.bindings.map((b) => b.name))).toEqual([['scene'], ['draw']]);
    const material = composeGeometryShader(variant(['albedo', 'viewNormal', 'reflectivity']));
    expect(material.bindGroups.map((g) => g.bindings.map((b) => b.name))).toEqual([
      ['geometryScene', 'scene'],
      ['draw', 'geometryDraw'],
      ['baseSampler', 'baseTexture'],
    ]);
    expect(material.code).toContain('fn geometryOutputs(');
  });

  test('attachment order is deterministic: independent of the request order and of other conditions', () => {
    const a = composeGeometryShader(variant(['worldNormal', 'albedo', 'viewDepth', 'linearVelocity']));
    const b = composeGeometryShader(
      variant(['linearVelocity', 'viewDepth', 'albedo', 'worldNormal'], { normals: false, thinInstances: true }),
    );
    expect(b.targets.map((t) => t.name)).toEqual(a.targets.map((t) => t.name));
    expect(a.targets.map((t) => t.name)).toEqual(['albedo', 'linearVelocity', 'viewDepth', 'worldNormal']);
    expect(composeGeometryShader(variant(['worldNormal', 'albedo'])).code).toBe(
      composeGeometryShader(variant(['albedo', 'worldNormal', 'albedo'])).code,
    );
  });

  test('velocity: previous-world/previous-VP binding in the mesh group at a dynamic offset, previous instance columns only with thin instances', () => {
    const rigid = composeGeometryShader(variant(['linearVelocity'], { normals: false }));
    const binding = rigid.bindGroups[1].bindings.find((b) => b.name === 'velocity')!;
    expect(rigid.bindGroups[1].entries[binding.binding]).toMatchObject({
      buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: 128 },
    });
    expect(rigid.vertexInputs.map((i) => i.semantic)).toEqual(['position']);
    const instanced = composeGeometryShader(variant(['linearVelocity'], { normals: false, thinInstances: true }));
    expect(instanced.vertexInputs.map((i) => i.semantic)).toEqual([
      'position',
      'instance0',
      'instance1',
      'instance2',
      'instance3',
      'prevInstance0',
      'prevInstance1',
      'prevInstance2',
      'prevInstance3',
    ]);
    expect(instanced.slots.find((s) => s.name === velocityPreviousPositionSlot)).toMatchObject({
      provider: 'geometry-velocity',
      usesDefault: true,
    });
  });

  test('a deformation fragment plugs its previous position into the velocity through the slot', () => {
    const morph: Fragment = {
      id: 'test-previous-morph',
      source:
        'import io::VertexInput;\nfn previousMorphed(input: VertexInput) -> vec3f {\n  return input.position * 0.5;\n}\n',
      fills: [{ slot: velocityPreviousPositionSlot, fn: 'previousMorphed' }],
    };
    const spec = geometrySpec(variant(['linearVelocity']));
    const composed = composeShader({ ...spec, fragments: [...spec.fragments, morph] });
    expect(composed.slots.find((s) => s.name === velocityPreviousPositionSlot)).toMatchObject({
      fillers: ['test-previous-morph'],
      usesDefault: false,
    });
    expect(composed.code).toContain('return previousMorphed(input);');
  });

  test('the object-ID primitive index needs the primitive-index feature', () => {
    expect(() =>
      composeGeometryShader(variant(['objectId'], { objectPrimitive: true }), { deviceFeatures: new Set<string>() }),
    ).toThrow(ComposeError);
    expect(composeGeometryShader(variant(['objectId'])).code).toContain('0xffffffffu');
  });

  test('a compose cache hit re-links nothing for a re-record', () => {
    const cache = makeComposeCache();
    const fragments = makeGeometryFragments(['albedo', 'worldNormal']);
    composeGeometryShader(variant(['albedo', 'worldNormal']), { cache, fragments });
    const links = cache.registry.counters.links;
    composeGeometryShader(variant(['albedo', 'worldNormal']), { cache, fragments });
    expect(cache.registry.counters.links).toBe(links);
  });
});
