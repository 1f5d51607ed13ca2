import { describeValue } from '../core/errors.js';
import { PickError } from './pick-errors.js';

/** Largest pick ID that fits the 24-bit RGB encoding; 0 means "nothing picked". */
export const maxPickId = 0xffffff;

/**
 * Encodes a 1-based pick ID as the r, g, b bytes of an rgba8unorm texel.
 * @throws {PickError} when the ID is not an integer in 1..maxPickId
 */
export function encodePickId(id: number): [number, number, number] {
  if (!Number.isInteger(id) || id < 1 || id > maxPickId) {
    throw new PickError(
      'encodePickId',
      'out-of-range',
      `pick ID ${describeValue(id)} is outside 1..${maxPickId} (0 is reserved for a miss)`,
    );
  }
  return [(id >> 16) & 0xff, (id >> 8) & 0xff, id & 0xff];
}

/** Decodes an rgba8unorm texel's r, g, b bytes into a pick ID (0 = miss). */
export function decodePickId(r: number, g: number, b: number): number {
  return (r << 16) | (g << 8) | b;
}

/** @internal Encodes a pick ID as the normalised float colour a shader writes (each byte / 255). */
export function pickIdToColor(id: number): [number, number, number, number] {
  const [r, g, b] = encodePickId(id);
  return [r / 255, g / 255, b / 255, 1];
}

/** One texel of each pick attachment, as read back. */
export interface PickTexel {
  /** r, g, b bytes of the rgba8unorm ID attachment. */
  id: [number, number, number];
  /** NDC depth (reverse-Z) from the r32float attachment. */
  depth: number;
  /** (primitive_index, local x, y, z bits) from the rgba32uint attachment, or null in basic mode. */
  detail: Uint32Array | null;
}
