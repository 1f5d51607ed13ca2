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
