import { describeValue } from '../core/errors.js';
import { checkOptionKeys } from '../core/options.js';
import { GeometryError, geometryOptionError } from './geometry-errors.js';
import {
  GEOMETRY_OBJECT_ID_DESCRIPTION,
  GEOMETRY_TEXTURE_DESCRIPTIONS,
  GeometryTextureType,
  geometryTypeName,
} from './geometry-types.js';
import {
  colorAttachmentBytesPerSample,
  getColorFormatCaps,
  listRenderableColorFormats,
} from './texture-format-caps.js';

/** One requested output: a G-buffer type (or the object-ID output) and its format. */
export interface GeometryAttachmentRequest {
  type: GeometryTextureType | 'objectId';
  format: GPUTextureFormat;
}

/** How one attachment is rendered, resolved and blended; `location` is its index in the MRT. */
export interface GeometryAttachmentPlan extends GeometryAttachmentRequest {
  /** The composed output name (`worldPosition`, …, `objectId`). */
  output: string;
  location: number;
  clearValue: GPUColorDict;
  /** Transparent participants blend it (everything but MESH_BLEND_TAG and the object IDs). */
  blended: boolean;
  /** samples 4: `hardware` resolve target, or `first-sample` (formats the hardware cannot resolve, e.g. r32float). */
  resolve: 'none' | 'hardware' | 'first-sample';
}

/** What the plan is checked against: the device's limits and features and the task's options. */
export interface GeometryPlanContext {
  api: string;
  samples: 1 | 4;
  maxColorAttachments: number;
  maxColorAttachmentBytesPerSample: number;
  /** The adapter's ceiling for the limit, quoted in the error; null for a host-owned device (its adapter is the host's). */
  adapterMaxColorAttachmentBytesPerSample: number | null;
  float32Blendable: boolean;
  /** True when some participant is transparent (drawn with blending). */
  blended: boolean;
}

function descriptionOf(type: GeometryTextureType | 'objectId') {
  return type === 'objectId' ? GEOMETRY_OBJECT_ID_DESCRIPTION : GEOMETRY_TEXTURE_DESCRIPTIONS[type];
}

/**
 * Checks the task's textureDescriptions (+ object IDs): known types, no duplicates, 1..8 entries, known formats.
 * @internal
 */
export function normalizeGeometryRequests(
  api: string,
  descriptions: readonly { type: GeometryTextureType; format?: GPUTextureFormat }[],
  objectId: GPUTextureFormat | null,
): GeometryAttachmentRequest[] {
  if (!Array.isArray(descriptions))
    throw new GeometryError(
      api,
      'bad-option',
      `textureDescriptions ${describeValue(descriptions)} must be an array of { type: GeometryTextureType, format? }`,
    );
  const requests: GeometryAttachmentRequest[] = [];
  const seen = new Set<GeometryTextureType>();
  descriptions.forEach((d, i) => {
    if (d !== null && typeof d === 'object')
      checkOptionKeys(api, d, ['type', 'format'], geometryOptionError, `textureDescriptions[${i}]`);
    const type = d?.type;
    if (!Number.isInteger(type) || GEOMETRY_TEXTURE_DESCRIPTIONS[type] === undefined) {
      throw new GeometryError(
        api,
        'bad-option',
        `textureDescriptions[${i}].type ${describeValue(type)} is not a GeometryTextureType; allowed: ${GEOMETRY_TEXTURE_DESCRIPTIONS.map((t) => `${t.type} (${geometryTypeName(t.type)})`).join(', ')}`,
      );
    }
    if (seen.has(type))
      throw new GeometryError(
        api,
        'duplicate',
        `textureDescriptions[${i}] requests ${geometryTypeName(type)} a second time; each type is one attachment`,
      );
    seen.add(type);
    requests.push({ type, format: d.format ?? GEOMETRY_TEXTURE_DESCRIPTIONS[type].defaultFormat });
  });
  if (objectId) requests.push({ type: 'objectId', format: objectId });
  if (requests.length < 1 || requests.length > 8) {
    throw new GeometryError(
      api,
      'bad-size',
      `${requests.length} attachment(s) requested (textureDescriptions${objectId ? ' + objectId' : ''}); use 1..8`,
    );
  }
  for (const r of requests) {
    if (typeof r.format !== 'string' || !getColorFormatCaps(r.format)) {
      throw new GeometryError(
        api,
        'bad-format',
        `${geometryTypeName(r.type)} format ${describeValue(r.format)} is not a renderable colour format; allowed: ${listRenderableColorFormats().join(', ')}`,
      );
    }
  }
  return requests;
}

function checkKind(api: string, r: GeometryAttachmentRequest): void {
  const caps = getColorFormatCaps(r.format)!;
  const name = geometryTypeName(r.type);
  if (r.type === GeometryTextureType.MESH_BLEND_TAG) {
    if (r.format !== 'r8uint')
      throw new GeometryError(
        api,
        'bad-format',
        `MESH_BLEND_TAG format must be "r8uint" (single-sample, integer 0 clear), got ${describeValue(r.format)}`,
      );
    return;
  }
  if (r.type === 'objectId') {
    if (caps.kind !== 'uint' || caps.byteCost < 4 * Math.min(2, caps.channels) || r.format.startsWith('rgb10')) {
      throw new GeometryError(
        api,
        'bad-format',
        `OBJECT_ID format ${describeValue(r.format)} cannot hold 32-bit ids; allowed: r32uint (id only), rg32uint (id + primitive), rgba32uint`,
      );
    }
    return;
  }
  if (caps.kind !== 'float')
    throw new GeometryError(
      api,
      'bad-format',
      `${name} writes float values; format ${describeValue(r.format)} is a ${caps.kind} format; use a float or unorm format (default ${descriptionOf(r.type).defaultFormat})`,
    );
  if (r.type === GeometryTextureType.LINEAR_VELOCITY && caps.channels < 2) {
    throw new GeometryError(
      api,
      'bad-format',
      `LINEAR_VELOCITY needs at least two channels (x, y); format ${describeValue(r.format)} has one`,
    );
  }
}

function checkMultisample(api: string, r: GeometryAttachmentRequest): GeometryAttachmentPlan['resolve'] {
  const name = geometryTypeName(r.type);
  if (r.type === GeometryTextureType.MESH_BLEND_TAG || r.type === 'objectId') {
    throw new GeometryError(
      api,
      'bad-format',
      `${name} requires samples: 1 (integer data cannot be resolved); use samples: 1 or leave ${name} out`,
    );
  }
  const caps = getColorFormatCaps(r.format)!;
  if (!caps.multisample) {
    throw new GeometryError(
      api,
      'bad-format',
      `${name} format "${r.format}" cannot be multisampled (samples: 4); override it with a multisampleable format such as rgba16float or r32float, or use samples: 1`,
    );
  }
  return caps.resolve ? 'hardware' : 'first-sample';
}

function checkBlend(api: string, r: GeometryAttachmentRequest, float32Blendable: boolean): void {
  const caps = getColorFormatCaps(r.format)!;
  if (caps.kind !== 'float')
    throw new GeometryError(
      api,
      'bad-format',
      `Transparent geometry output cannot blend integer format "${r.format}". (${geometryTypeName(r.type)})`,
    );
  if (caps.blendable === 'feature' && !float32Blendable) {
    throw new GeometryError(
      api,
      'missing-feature',
      `Transparent geometry output format "${r.format}" requires the float32-blendable WebGPU feature or a blendable format override. (${geometryTypeName(r.type)}: request the feature in createEngineAsync options, or use e.g. rgba16float)`,
    );
  }
}

function checkBytes(api: string, requests: readonly GeometryAttachmentRequest[], context: GeometryPlanContext): void {
  const { total, attachments } = colorAttachmentBytesPerSample(requests.map((r) => r.format));
  const limit = context.maxColorAttachmentBytesPerSample;
  if (total <= limit) return;
  const list = attachments
    .map((a, i) => `${geometryTypeName(requests[i].type)} ${a.format} ${a.cost} B at byte ${a.offset}`)
    .join(', ');
  const ceiling = context.adapterMaxColorAttachmentBytesPerSample;
  const how =
    ceiling === null
      ? `the host created this device: request maxColorAttachmentBytesPerSample >= ${total} in its requestDevice({ requiredLimits }) (if its adapter allows), or override formats with smaller ones`
      : total <= ceiling
        ? `raise the limit with createEngineAsync(gpu, target, { requiredLimits: { maxColorAttachmentBytesPerSample: ${total} } }) (this adapter allows up to ${ceiling}), or override formats with smaller ones`
        : `this adapter allows at most ${ceiling}: request fewer attachments or smaller formats`;
  throw new GeometryError(
    api,
    'limit-exceeded',
    `the attachments need ${total} bytes per sample (each starts at a multiple of its component alignment: ${list}) but the device allows maxColorAttachmentBytesPerSample = ${limit}; ${how}`,
  );
}

/**
 * Checks the attachments, in MRT location order, against the spec and the device: format kinds, MESH_BLEND_TAG's
 * fixed r8uint single-sample form, multisampling and resolve rules, blending of transparent participants, and the
 * maxColorAttachmentBytesPerSample sum with alignment. Throws GeometryError before anything is built.
 * @throws {GeometryError} when the outputs exceed the device limits or formats are not allowed
 */
export function planGeometryAttachments(
  requests: readonly GeometryAttachmentRequest[],
  context: GeometryPlanContext,
): GeometryAttachmentPlan[] {
  const { api } = context;
  if (requests.length > context.maxColorAttachments)
    throw new GeometryError(
      api,
      'limit-exceeded',
      `${requests.length} attachments requested but the device allows maxColorAttachments = ${context.maxColorAttachments}`,
    );
  const plans = requests.map((r, location): GeometryAttachmentPlan => {
    const blended = r.type !== GeometryTextureType.MESH_BLEND_TAG && r.type !== 'objectId';
    if (context.blended && blended) checkBlend(api, r, context.float32Blendable);
    checkKind(api, r);
    const resolve = context.samples === 4 ? checkMultisample(api, r) : 'none';
    const [red, green, blue, alpha] = descriptionOf(r.type).clearValue;
    return {
      ...r,
      output: descriptionOf(r.type).name,
      location,
      clearValue: { r: red, g: green, b: blue, a: alpha },
      blended,
      resolve,
    };
  });
  checkBytes(api, plans, context);
  return plans;
}
