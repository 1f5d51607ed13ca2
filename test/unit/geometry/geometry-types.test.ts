import { describe, expect, test } from 'vitest';
import {
  GEOMETRY_OBJECT_ID_DESCRIPTION,
  GEOMETRY_TEXTURE_DESCRIPTIONS,
  GeometryTextureType,
  getColorFormatCaps,
} from '../../../geometry/index.js';
import { geometryOutputFactories } from '../../../fragments/geometry-fragments.js';

describe('GEOMETRY_TEXTURE_DESCRIPTIONS', () => {
  test('one frozen description per type, indexed by the enum, naming a composed output and an accessor', () => {
    const types = Object.values(GeometryTextureType).filter((v): v is GeometryTextureType => typeof v === 'number');
    expect(types).toHaveLength(12);
    for (const type of types) {
      const d = GEOMETRY_TEXTURE_DESCRIPTIONS[type];
      expect(d.type).toBe(type);
      expect(Object.isFrozen(d)).toBe(true);
      expect(d.name in geometryOutputFactories, d.name).toBe(true);
      expect(d.accessor).toBe(`geometry${d.name[0].toUpperCase()}${d.name.slice(1)}Texture`);
      expect(d.meaning.length).toBeGreaterThan(40);
      expect(d.clearValue).toHaveLength(4);
    }
    expect(GEOMETRY_TEXTURE_DESCRIPTIONS.map((d) => d.accessor)).toContain('geometryNormalizedViewDepthTexture');
  });

  test('default formats are renderable, of the kind the output writes, and the documented choices', () => {
    const table = Object.fromEntries(
      GEOMETRY_TEXTURE_DESCRIPTIONS.map((d) => [
        GeometryTextureType[d.type],
        `${d.defaultFormat} [${d.clearValue.join(', ')}]`,
      ]),
    );
    expect(table).toEqual({
      IRRADIANCE: 'rgba16float [0, 0, 0, 0]',
      WORLD_POSITION: 'rgba32float [0, 0, 0, 0]',
      LOCAL_POSITION: 'rgba32float [0, 0, 0, 0]',
      REFLECTIVITY: 'rgba8unorm [0, 0, 0, 0]',
      VIEW_DEPTH: 'r32float [0, 0, 0, 0]',
      NORMALIZED_VIEW_DEPTH: 'r32float [1, 0, 0, 0]',
      SCREENSPACE_DEPTH: 'r32float [0, 0, 0, 0]',
      VIEW_NORMAL: 'rgba16float [0, 0, 0, 0]',
      WORLD_NORMAL: 'rgba16float [0, 0, 0, 0]',
      ALBEDO: 'rgba8unorm [0, 0, 0, 0]',
      LINEAR_VELOCITY: 'rgba16float [0, 0, 0, 0]',
      MESH_BLEND_TAG: 'r8uint [0, 0, 0, 0]',
    });
    for (const d of GEOMETRY_TEXTURE_DESCRIPTIONS) {
      const kind = getColorFormatCaps(d.defaultFormat)?.kind;
      expect(kind, d.name).toBe(d.type === GeometryTextureType.MESH_BLEND_TAG ? 'uint' : 'float');
    }
    expect(getColorFormatCaps(GEOMETRY_OBJECT_ID_DESCRIPTION.defaultFormat)?.kind).toBe('uint');
  });
});
