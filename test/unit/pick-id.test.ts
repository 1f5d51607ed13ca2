import { describe, expect, test } from 'vitest';
import { GEOMETRY_TEXTURE_DESCRIPTIONS, GeometryTextureType } from '../../geometry/index.js';
import { decodePickId, encodePickId, maxPickId } from '../../picking/index.js';
import { pickIdToColor } from '../../picking/pick-id.js';

describe('pick ID encoding (24-bit RGB, 0 = miss)', () => {
  test('round-trips the ends and a spread of IDs, matching (r << 16) | (g << 8) | b', () => {
    for (const id of [1, 2, 255, 256, 65535, 65536, 0x123456, maxPickId - 1, maxPickId]) {
      const [r, g, b] = encodePickId(id);
      expect(r * 65536 + g * 256 + b).toBe(id);
      expect(decodePickId(r, g, b)).toBe(id);
    }
    expect(decodePickId(0, 0, 0)).toBe(0);
  });

  test('the float colour quantises back to the same bytes in rgba8unorm', () => {
    const color = pickIdToColor(0xa1b2c3);
    expect(color.slice(0, 3).map((c) => Math.round(c * 255))).toEqual([0xa1, 0xb2, 0xc3]);
  });

  test('refuses 0, negatives, fractions and IDs beyond 24 bits', () => {
    for (const bad of [0, -1, 1.5, maxPickId + 1, Number.NaN]) {
      expect(() => encodePickId(bad)).toThrow(
        /encodePickId: pick ID .* is outside 1..16777215 \(0 is reserved for a miss\)/,
      );
    }
  });
});

describe('geometry texture descriptions', () => {
  test('one description per type, indexed by the enum value, with a documented meaning', () => {
    const types = Object.values(GeometryTextureType).filter((v) => typeof v === 'number');
    expect(types).toHaveLength(12);
    for (const type of types as GeometryTextureType[]) {
      const description = GEOMETRY_TEXTURE_DESCRIPTIONS[type];
      expect(description.type).toBe(type);
      expect(description.meaning.length).toBeGreaterThan(20);
    }
    expect(GEOMETRY_TEXTURE_DESCRIPTIONS[GeometryTextureType.MESH_BLEND_TAG].defaultFormat).toBe('r8uint');
  });
});
