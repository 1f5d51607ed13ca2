/** @internal A rectangle of framebuffer pixels (origin top-left). */
export interface PixelRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Clip-space matrix that stretches `region` of a `width`×`height` framebuffer over a whole target
 * of region.width × region.height texels: texel (i, j) of the target then samples exactly the
 * centre of framebuffer pixel (x + i, y + j). Depth and w are untouched, so depth values match
 * the full-size render.
 * @internal
 */
export function makePickZoomMatrix(
  region: PixelRegion,
  width: number,
  height: number,
  dst = new Float32Array(16),
): Float32Array {
  const scaleX = width / region.width;
  const scaleY = height / region.height;
  const centreX = ((region.x + region.width / 2) / width) * 2 - 1;
  const centreY = 1 - ((region.y + region.height / 2) / height) * 2;
  dst.fill(0);
  dst[0] = scaleX;
  dst[5] = scaleY;
  dst[10] = 1;
  dst[12] = -scaleX * centreX;
  dst[13] = -scaleY * centreY;
  dst[15] = 1;
  return dst;
}

/**
 * `makePickZoomMatrix(region, width, height)`, magnified `magnification`× about the region's centre in x and y, times
 * `viewProjection`, written to `dst`: the zoom only scales and shifts x and y, so rows z and w are `viewProjection`'s
 * own and rows x and y take two products each (the same values a full 4×4 product gives, without its zero terms).
 * @internal
 */
export function makePickZoomedViewProjection(
  region: PixelRegion,
  width: number,
  height: number,
  magnification: number,
  viewProjection: ArrayLike<number>,
  dst: Float32Array,
): Float32Array {
  const scaleX = width / region.width;
  const scaleY = height / region.height;
  const centreX = ((region.x + region.width / 2) / width) * 2 - 1;
  const centreY = 1 - ((region.y + region.height / 2) / height) * 2;
  // The zoom matrix's entries, rounded to float32 as makePickZoomMatrix stores them, then magnified in float32.
  const sx = Math.fround(Math.fround(scaleX) * magnification);
  const sy = Math.fround(Math.fround(scaleY) * magnification);
  const tx = Math.fround(Math.fround(-scaleX * centreX) * magnification);
  const ty = Math.fround(Math.fround(-scaleY * centreY) * magnification);
  for (let c = 0; c < 16; c += 4) {
    const w = viewProjection[c + 3];
    dst[c] = sx * viewProjection[c] + tx * w;
    dst[c + 1] = sy * viewProjection[c + 1] + ty * w;
    dst[c + 2] = viewProjection[c + 2];
    dst[c + 3] = w;
  }
  return dst;
}
