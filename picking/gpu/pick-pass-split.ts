import { PickError } from '../pick-errors.js';
import { attachmentTexelBytes, type PickReadback } from './pick-readback.js';
import { drawSlotBytes, pickTileTexelBudget, pointSlotBytes } from './pick-resources.js';
import type { PixelRegion } from '../pick-zoom.js';
import type { PickPassRequest, PickPassLimits } from './pick-pass-types.js';

/** Texels a rectangle tile holds at most. */
export { pickTileTexelBudget };

/**
 * Draws a batch of points holds at most, unless one point alone draws more (then it gets a pass of its own, up to
 * the hard `maxBufferSize` bound): very long passes are slow to encode and some drivers (lavapipe) fail on them.
 * @internal
 */
export const pickPassDrawBudget = 1 << 14;

/** Staging bytes of one row of `width` texels of every attachment the pass reads back (rows padded to 256 B). */
function stagingRowBytes(width: number, detailed: boolean): number {
  let bytes = 0;
  for (const texelBytes of attachmentTexelBytes.slice(0, detailed ? 3 : 2))
    bytes += Math.ceil((width * texelBytes) / 256) * 256;
  return bytes;
}

function drawsExceeded(api: string, what: string, draws: number, limits: PickPassLimits): PickError {
  return new PickError(
    api,
    'limit-exceeded',
    `${what} draws ${draws} meshes: ${draws} × ${drawSlotBytes} B of draw uniforms exceed maxBufferSize ${limits.maxBufferSize} (at most ${Math.floor(limits.maxBufferSize / drawSlotBytes)} draws per pass); filter the meshes (filter, ignore, preFilter) to pick here`,
  );
}

/**
 * Splits the points of a `row` request into consecutive batches that each fit one pass: at most
 * `maxTextureDimension2D` points (the target's width), the point and draw uniforms and the staging buffer within
 * `maxBufferSize`, and at most `pickPassDrawBudget` draws unless a single point draws more. Every batch holds at
 * least one point; a single point whose draw list alone is past `maxBufferSize` throws.
 * @throws {PickError} `limit-exceeded` naming the point, its draw count and the limit
 * @internal
 */
export function splitPickPoints(
  api: string,
  drawListLengths: readonly number[],
  limits: PickPassLimits,
  detailed: boolean,
  overlayBlock = 0,
): { first: number; count: number }[] {
  const maxSlots = Math.floor(limits.maxBufferSize / drawSlotBytes);
  // With overlays each point is `block` texels wide, `block + 1` rows tall, and has a second point slot.
  const columns = Math.max(1, overlayBlock);
  const rows = overlayBlock ? overlayBlock + 1 : 1;
  let maxPoints = Math.min(
    Math.floor(limits.maxTextureDimension2D / columns),
    Math.floor(limits.maxBufferSize / (pointSlotBytes * (overlayBlock ? 2 : 1))),
  );
  while (maxPoints > 1 && stagingRowBytes(maxPoints * columns, detailed) * rows > limits.maxBufferSize)
    maxPoints = Math.floor(maxPoints / 2);
  const batches: { first: number; count: number }[] = [];
  let first = 0;
  let slots = 0;
  drawListLengths.forEach((draws, point) => {
    if (draws > maxSlots) throw drawsExceeded(api, `points[${point}]`, draws, limits);
    if (point > first && (point - first >= maxPoints || slots + draws > Math.min(maxSlots, pickPassDrawBudget))) {
      batches.push({ first, count: point - first });
      first = point;
      slots = 0;
    }
    slots += draws;
  });
  if (drawListLengths.length > first) batches.push({ first, count: drawListLengths.length - first });
  return batches;
}

/**
 * Splits a `rect` region into row-major tiles that each fit one pass: at most `maxTextureDimension2D` on a side,
 * at most `pickTileTexelBudget` texels, and the staging buffer of their copies within `maxBufferSize`.
 * @throws {PickError} `limit-exceeded` when the rectangle's draw list alone is too big for one pass
 * @internal
 */
export function splitPickRect(
  api: string,
  region: PixelRegion,
  draws: number,
  limits: PickPassLimits,
  detailed: boolean,
): PixelRegion[] {
  if (draws > Math.floor(limits.maxBufferSize / drawSlotBytes))
    throw drawsExceeded(api, 'the rectangle', draws, limits);
  const tileWidth = Math.min(region.width, limits.maxTextureDimension2D);
  const tileHeight = Math.max(
    1,
    Math.min(
      region.height,
      limits.maxTextureDimension2D,
      Math.floor(limits.maxBufferSize / stagingRowBytes(tileWidth, detailed)),
      Math.floor(pickTileTexelBudget / tileWidth),
    ),
  );
  const tiles: PixelRegion[] = [];
  for (let y = 0; y < region.height; y += tileHeight)
    for (let x = 0; x < region.width; x += tileWidth)
      tiles.push({
        x: region.x + x,
        y: region.y + y,
        width: Math.min(tileWidth, region.width - x),
        height: Math.min(tileHeight, region.height - y),
      });
  return tiles;
}

/**
 * The passes a request needs: itself when it fits the device, else batches of points or tiles of the rectangle.
 * @internal
 */
export function splitPickRequest(request: PickPassRequest, limits: PickPassLimits): PickPassRequest[] {
  const { snapshot, regions } = request;
  if (request.layout === 'rect') {
    const tiles = splitPickRect(request.api, regions[0], snapshot.drawLists[0]?.length ?? 0, limits, request.detailed);
    return tiles.length === 1 ? [request] : tiles.map((tile) => ({ ...request, regions: [tile] }));
  }
  if (regions.length === 1) {
    // One point always fits one pass, unless its draw list alone is past the draw uniforms' bound.
    const draws = snapshot.drawLists[0]?.length ?? 0;
    if (draws > Math.floor(limits.maxBufferSize / drawSlotBytes))
      throw drawsExceeded(request.api, 'points[0]', draws, limits);
    return [request];
  }
  const batches = splitPickPoints(
    request.api,
    snapshot.drawLists.map((list) => list.length),
    limits,
    request.detailed,
    request.overlayBlock,
  );
  if (batches.length === 1) return [request];
  return batches.map(({ first, count }) => ({
    ...request,
    snapshot: {
      ...snapshot,
      drawLists: snapshot.drawLists.slice(first, first + count),
      pointInstances: snapshot.pointInstances?.slice(first, first + count),
    },
    regions: regions.slice(first, first + count),
  }));
}

/**
 * One readback over the passes of a split request: texel `i` of point `i`, IDs row-major over the whole rectangle.
 * @internal
 */
export function joinPickReadbacks(
  request: PickPassRequest,
  passes: PickPassRequest[],
  readbacks: PickReadback[],
): PickReadback {
  if (readbacks.length === 1) return readbacks[0];
  if (request.layout === 'row') {
    const passOf = new Int32Array(request.regions.length);
    const firstOf: number[] = [];
    let first = 0;
    passes.forEach((pass, p) => {
      firstOf.push(first);
      passOf.fill(p, first, first + pass.regions.length);
      first += pass.regions.length;
    });
    return {
      texel: (i) => readbacks[passOf[i]].texel(i - firstOf[passOf[i]]),
      id: (i) => readbacks[passOf[i]].id(i - firstOf[passOf[i]]),
      blockTexel: (i, dx, dy) => readbacks[passOf[i]].blockTexel(i - firstOf[passOf[i]], dx, dy),
      blockId: (i, dx, dy) => readbacks[passOf[i]].blockId(i - firstOf[passOf[i]], dx, dy),
      *ids() {
        for (const readback of readbacks) yield* readback.ids();
      },
    };
  }
  const whole = request.regions[0];
  const locate = (i: number): [number, number] => {
    const x = whole.x + (i % whole.width);
    const y = whole.y + Math.floor(i / whole.width);
    const p = passes.findIndex((pass) => {
      const r = pass.regions[0];
      return x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
    });
    const r = passes[p].regions[0];
    return [p, (y - r.y) * r.width + (x - r.x)];
  };
  return {
    texel(i) {
      const [p, local] = locate(i);
      return readbacks[p].texel(local);
    },
    blockTexel: readbacks[0].blockTexel,
    blockId: readbacks[0].blockId,
    id(i) {
      const [p, local] = locate(i);
      return readbacks[p].id(local);
    },
    *ids() {
      // Row-major over the whole rectangle: tiles of one band side by side, row by row.
      for (let p = 0; p < passes.length; ) {
        const band = passes[p].regions[0];
        let end = p;
        while (end < passes.length && passes[end].regions[0].y === band.y) end++;
        for (let row = 0; row < band.height; row++)
          for (let t = p; t < end; t++) {
            const tile = passes[t].regions[0];
            for (let col = 0; col < tile.width; col++) yield readbacks[t].id(row * tile.width + col);
          }
        p = end;
      }
    },
  };
}
