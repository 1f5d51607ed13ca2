/** Bytes per texel of the colour formats weft renders to and reads back. */
const texelBytes: Readonly<Record<string, number>> = {
  r8unorm: 1,
  r8uint: 1,
  r8sint: 1,
  rg8unorm: 2,
  r16float: 2,
  r16uint: 2,
  rgba8unorm: 4,
  'rgba8unorm-srgb': 4,
  bgra8unorm: 4,
  'bgra8unorm-srgb': 4,
  rgba8uint: 4,
  rgb10a2unorm: 4,
  rg16float: 4,
  r32float: 4,
  r32uint: 4,
  r32sint: 4,
  rg11b10ufloat: 4,
  depth32float: 4,
  rgba16float: 8,
  rg32float: 8,
  rg32uint: 8,
  rgba16uint: 8,
  rgba32float: 16,
  rgba32uint: 16,
  rgba32sint: 16,
};

/** @internal Bytes per texel of `format`, or undefined when weft does not know it. */
export function getTexelByteSize(format: GPUTextureFormat): number | undefined {
  return texelBytes[format];
}

/** @internal True for integer colour formats (no blending, no filtering, no MSAA resolve). */
export function isIntegerFormat(format: GPUTextureFormat): boolean {
  return /int$/.test(format);
}

/** @internal True for depth or depth-stencil formats. */
export function isDepthFormat(format: GPUTextureFormat): boolean {
  return format.startsWith('depth');
}
