import type { Fragment, FragmentOutputDecl } from '../fragments/fragment-types.js';
import { describeValue } from '../core/errors.js';
import { ComposeError } from './errors.js';
import { wgslScalarKind } from './wgsl-names.js';

/**
 * Colour-renderable texture formats by the sample type a fragment output writes (WebGPU "renderable" formats; the
 * ones behind a device feature — snorm, 16-bit norm, rg11b10ufloat — are listed too, the device checks the feature)
 * and their component counts. An f32/f16 output needs a float format, u32 a uint one, i32 a sint one, and the output
 * must have at least as many components as the format.
 */
const renderableFormats: Readonly<Record<'float' | 'uint' | 'sint', Readonly<Record<string, number>>>> = {
  float: {
    r8unorm: 1,
    r8snorm: 1,
    r16unorm: 1,
    r16snorm: 1,
    r16float: 1,
    r32float: 1,
    rg8unorm: 2,
    rg8snorm: 2,
    rg16unorm: 2,
    rg16snorm: 2,
    rg16float: 2,
    rg32float: 2,
    rg11b10ufloat: 3,
    rgba8unorm: 4,
    'rgba8unorm-srgb': 4,
    rgba8snorm: 4,
    bgra8unorm: 4,
    'bgra8unorm-srgb': 4,
    rgb10a2unorm: 4,
    rgba16unorm: 4,
    rgba16snorm: 4,
    rgba16float: 4,
    rgba32float: 4,
  },
  uint: {
    r8uint: 1,
    r16uint: 1,
    r32uint: 1,
    rg8uint: 2,
    rg16uint: 2,
    rg32uint: 2,
    rgba8uint: 4,
    rgb10a2uint: 4,
    rgba16uint: 4,
    rgba32uint: 4,
  },
  sint: {
    r8sint: 1,
    r16sint: 1,
    r32sint: 1,
    rg8sint: 2,
    rg16sint: 2,
    rg32sint: 2,
    rgba8sint: 4,
    rgba16sint: 4,
    rgba32sint: 4,
  },
};

/** Components of a WGSL numeric scalar or vector type (`vec3f` → 3, `f32` → 1). */
function componentCount(type: string): number {
  const m = /^vec([234])/.exec(type.replace(/\s+/g, ''));
  return m ? Number(m[1]) : 1;
}

/**
 * Refuses an output whose declared format is not colour-renderable for its sample type or has more components than
 * the output writes; the message lists the formats that fit.
 * @internal
 */
export function checkOutputFormat(api: string, fragment: Fragment, o: FragmentOutputDecl): void {
  if (o.format === undefined) return;
  const kind = wgslScalarKind(o.type)!;
  const components = componentCount(o.type);
  const formats = renderableFormats[kind];
  const size = typeof o.format === 'string' && Object.hasOwn(formats, o.format) ? formats[o.format] : 0;
  if (size > 0 && size <= components) return;
  const allowed = Object.keys(formats).filter((f) => formats[f] <= components);
  throw new ComposeError(
    api,
    'output-format',
    [fragment.id],
    `fragment "${fragment.id}" output "${o.name}" (${o.type}) has format ${describeValue(o.format)}; a ${o.type} output writes a colour-renderable ${kind} format of at most ${components} component(s): ${allowed.join(', ')}`,
  );
}
