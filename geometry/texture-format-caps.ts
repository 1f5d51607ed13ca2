/** What the WebGPU spec allows a colour format to do as a render attachment (core features; see `blendable`). */
export interface ColorFormatCaps {
  /** Render-target pixel byte cost (counts against maxColorAttachmentBytesPerSample). */
  byteCost: number;
  /** Render-target component alignment: each attachment's bytes start at a multiple of it. */
  alignment: 1 | 2 | 4;
  kind: 'float' | 'uint' | 'sint';
  channels: 1 | 2 | 3 | 4;
  multisample: boolean;
  resolve: boolean;
  /** 'feature' = only with the float32-blendable device feature. */
  blendable: 'yes' | 'feature' | 'no';
}

const caps = (
  byteCost: number,
  alignment: 1 | 2 | 4,
  kind: ColorFormatCaps['kind'],
  channels: ColorFormatCaps['channels'],
  multisample: boolean,
  resolve: boolean,
  blendable: ColorFormatCaps['blendable'],
): ColorFormatCaps => Object.freeze({ byteCost, alignment, kind, channels, multisample, resolve, blendable });

// From the spec's plain colour format table (rgba8unorm costs 8 bytes: implementations may store it wider),
// multisampling checked on Dawn: 32-bit integer and two/four-channel 32-bit formats cannot be multisampled.
const table: Readonly<Record<string, ColorFormatCaps>> = {
  r8unorm: /* @__PURE__ */ caps(1, 1, 'float', 1, true, true, 'yes'),
  r8uint: /* @__PURE__ */ caps(1, 1, 'uint', 1, true, false, 'no'),
  r8sint: /* @__PURE__ */ caps(1, 1, 'sint', 1, true, false, 'no'),
  rg8unorm: /* @__PURE__ */ caps(2, 1, 'float', 2, true, true, 'yes'),
  rg8uint: /* @__PURE__ */ caps(2, 1, 'uint', 2, true, false, 'no'),
  rg8sint: /* @__PURE__ */ caps(2, 1, 'sint', 2, true, false, 'no'),
  rgba8unorm: /* @__PURE__ */ caps(8, 1, 'float', 4, true, true, 'yes'),
  'rgba8unorm-srgb': /* @__PURE__ */ caps(8, 1, 'float', 4, true, true, 'yes'),
  bgra8unorm: /* @__PURE__ */ caps(8, 1, 'float', 4, true, true, 'yes'),
  'bgra8unorm-srgb': /* @__PURE__ */ caps(8, 1, 'float', 4, true, true, 'yes'),
  rgba8uint: /* @__PURE__ */ caps(4, 1, 'uint', 4, true, false, 'no'),
  rgba8sint: /* @__PURE__ */ caps(4, 1, 'sint', 4, true, false, 'no'),
  r16float: /* @__PURE__ */ caps(2, 2, 'float', 1, true, true, 'yes'),
  r16uint: /* @__PURE__ */ caps(2, 2, 'uint', 1, true, false, 'no'),
  r16sint: /* @__PURE__ */ caps(2, 2, 'sint', 1, true, false, 'no'),
  rg16float: /* @__PURE__ */ caps(4, 2, 'float', 2, true, true, 'yes'),
  rg16uint: /* @__PURE__ */ caps(4, 2, 'uint', 2, true, false, 'no'),
  rg16sint: /* @__PURE__ */ caps(4, 2, 'sint', 2, true, false, 'no'),
  rgba16float: /* @__PURE__ */ caps(8, 2, 'float', 4, true, true, 'yes'),
  rgba16uint: /* @__PURE__ */ caps(8, 2, 'uint', 4, true, false, 'no'),
  rgba16sint: /* @__PURE__ */ caps(8, 2, 'sint', 4, true, false, 'no'),
  r32float: /* @__PURE__ */ caps(4, 4, 'float', 1, true, false, 'feature'),
  r32uint: /* @__PURE__ */ caps(4, 4, 'uint', 1, false, false, 'no'),
  r32sint: /* @__PURE__ */ caps(4, 4, 'sint', 1, false, false, 'no'),
  rg32float: /* @__PURE__ */ caps(8, 4, 'float', 2, false, false, 'feature'),
  rg32uint: /* @__PURE__ */ caps(8, 4, 'uint', 2, false, false, 'no'),
  rg32sint: /* @__PURE__ */ caps(8, 4, 'sint', 2, false, false, 'no'),
  rgba32float: /* @__PURE__ */ caps(16, 4, 'float', 4, false, false, 'feature'),
  rgba32uint: /* @__PURE__ */ caps(16, 4, 'uint', 4, false, false, 'no'),
  rgba32sint: /* @__PURE__ */ caps(16, 4, 'sint', 4, false, false, 'no'),
  rgb10a2unorm: /* @__PURE__ */ caps(8, 4, 'float', 4, true, true, 'yes'),
  rgb10a2uint: /* @__PURE__ */ caps(8, 4, 'uint', 4, true, false, 'no'),
};

/** Render-attachment capabilities of a colour format, or undefined when it is not a core renderable colour format. */
export function getColorFormatCaps(format: GPUTextureFormat): ColorFormatCaps | undefined {
  return table[format];
}

/** The renderable colour formats weft knows, sorted. */
export function listRenderableColorFormats(): string[] {
  return Object.keys(table).sort();
}

/** One attachment's place in the per-sample byte budget. */
export interface AttachmentBytes {
  format: GPUTextureFormat;
  /** Where its bytes start after alignment. */
  offset: number;
  cost: number;
}

/** The spec's maxColorAttachmentBytesPerSample sum: each attachment starts at a multiple of its alignment. */
export function colorAttachmentBytesPerSample(formats: readonly GPUTextureFormat[]): {
  total: number;
  attachments: AttachmentBytes[];
} {
  let total = 0;
  const attachments: AttachmentBytes[] = [];
  for (const format of formats) {
    const { byteCost, alignment } = table[format];
    const offset = Math.ceil(total / alignment) * alignment;
    attachments.push({ format, offset, cost: byteCost });
    total = offset + byteCost;
  }
  return { total, attachments };
}
