/** The G-buffer outputs the geometry renderer can write. */
export enum GeometryTextureType {
  IRRADIANCE = 0,
  WORLD_POSITION = 1,
  LOCAL_POSITION = 2,
  REFLECTIVITY = 3,
  VIEW_DEPTH = 4,
  NORMALIZED_VIEW_DEPTH = 5,
  SCREENSPACE_DEPTH = 6,
  VIEW_NORMAL = 7,
  WORLD_NORMAL = 8,
  ALBEDO = 9,
  LINEAR_VELOCITY = 10,
  MESH_BLEND_TAG = 11,
}

/** Name, default format and background clear value of one G-buffer output. */
export interface GeometryTextureDescription {
  readonly type: GeometryTextureType;
  /** Also the composed shader's output (and fragment output member) name. */
  readonly name: string;
  /** The task's accessor for this output's single-attachment render target. */
  readonly accessor: string;
  readonly defaultFormat: GPUTextureFormat;
  readonly clearValue: readonly [number, number, number, number];
  /** What the texel holds and why the format and clear value were chosen. */
  readonly meaning: string;
}

const describe = (
  type: GeometryTextureType,
  name: string,
  defaultFormat: GPUTextureFormat,
  clearValue: readonly [number, number, number, number],
  meaning: string,
): GeometryTextureDescription =>
  Object.freeze({
    type,
    name,
    accessor: `geometry${name[0].toUpperCase()}${name.slice(1)}Texture`,
    defaultFormat,
    clearValue: Object.freeze(clearValue),
    meaning,
  });

/** One description per GeometryTextureType, indexed by the enum value. */
export const GEOMETRY_TEXTURE_DESCRIPTIONS: readonly GeometryTextureDescription[] = Object.freeze([
  /* @__PURE__ */ describe(
    GeometryTextureType.IRRADIANCE,
    'irradiance',
    'rgba16float',
    [0, 0, 0, 0],
    'The colour the forward pass shades (albedo × (ambient + light × Lambert), or albedo when unlit) in rgb, albedo alpha in a; half float keeps HDR range; background 0 (no light).',
  ),
  /* @__PURE__ */ describe(
    GeometryTextureType.WORLD_POSITION,
    'worldPosition',
    'rgba32float',
    [0, 0, 0, 0],
    'World xyz, w = 1 on geometry; 32-bit floats because positions far from the origin lose too much in half floats; w = 0 marks background.',
  ),
  /* @__PURE__ */ describe(
    GeometryTextureType.LOCAL_POSITION,
    'localPosition',
    'rgba32float',
    [0, 0, 0, 0],
    'The vertex position attribute (mesh-local space, before world and thin-instance transforms), w = 1 on geometry; w = 0 marks background.',
  ),
  /* @__PURE__ */ describe(
    GeometryTextureType.REFLECTIVITY,
    'reflectivity',
    'rgba8unorm',
    [0, 0, 0, 0],
    "Specular colour (F0) in rgb, glossiness in a; weft materials have no specular inputs yet, so it is the task's per-mesh reflectivity (default rgb 0.04 dielectric, a 0); 8 bits suffice for material inputs; background 0.",
  ),
  /* @__PURE__ */ describe(
    GeometryTextureType.VIEW_DEPTH,
    'viewDepth',
    'r32float',
    [0, 0, 0, 0],
    'Positive view-space depth (distance along the camera -Z axis) in r; geometry is always beyond the near plane, so 0 marks background; 32 bits keep far depths exact.',
  ),
  /* @__PURE__ */ describe(
    GeometryTextureType.NORMALIZED_VIEW_DEPTH,
    'normalizedViewDepth',
    'r32float',
    [1, 0, 0, 0],
    '(viewDepth - near) / (far - near) for a finite far plane, 1 - near / viewDepth for an infinite one, in r: 0 at the near plane, 1 at the far plane (or infinity); background 1 (at the far plane).',
  ),
  /* @__PURE__ */ describe(
    GeometryTextureType.SCREENSPACE_DEPTH,
    'screenspaceDepth',
    'r32float',
    [0, 0, 0, 0],
    'NDC depth as the depth buffer holds it in r: reverse-Z, 1 at the near plane, 0 at the far plane and for background.',
  ),
  /* @__PURE__ */ describe(
    GeometryTextureType.VIEW_NORMAL,
    'viewNormal',
    'rgba16float',
    [0, 0, 0, 0],
    'Unit view-space normal in xyz (signed, not packed; facing the camera), w = 1 on geometry; background 0 (no normal).',
  ),
  /* @__PURE__ */ describe(
    GeometryTextureType.WORLD_NORMAL,
    'worldNormal',
    'rgba16float',
    [0, 0, 0, 0],
    'Unit world-space normal in xyz (signed; facing the camera), w = 1 on geometry; background 0.',
  ),
  /* @__PURE__ */ describe(
    GeometryTextureType.ALBEDO,
    'albedo',
    'rgba8unorm',
    [0, 0, 0, 0],
    'Base colour × texture × vertex colour with alpha; background 0 (transparent black).',
  ),
  /* @__PURE__ */ describe(
    GeometryTextureType.LINEAR_VELOCITY,
    'linearVelocity',
    'rgba16float',
    [0, 0, 0, 0],
    '(previousNDC - currentNDC) / 2 in xy, Y up; z 0 or the previous positive view depth (enableGeometryVelocity previousDepth; use rgba32float for far depths); w = 1 on geometry; background 0 (no motion).',
  ),
  /* @__PURE__ */ describe(
    GeometryTextureType.MESH_BLEND_TAG,
    'meshBlendTag',
    'r8uint',
    [0, 0, 0, 0],
    'Per-mesh integer tag for compositing (default 1 on every mesh); always single-sample r8uint with an integer 0 clear (0 = untagged background), never blended.',
  ),
]);

/** The optional object-ID output (not a G-buffer type): frame id and primitive index of what covers each pixel. */
export const GEOMETRY_OBJECT_ID_DESCRIPTION = Object.freeze({
  name: 'objectId',
  accessor: 'geometryObjectIdTexture',
  defaultFormat: 'rg32uint' as GPUTextureFormat,
  clearValue: Object.freeze([0, 0, 0, 0] as const),
  meaning:
    'x = frame id (1-based, per mesh and thin instance; 0 = background), y = primitive index (0xffffffff when the device lacks primitive-index); rg32uint holds both, r32uint keeps the id only; single-sample, never blended.',
});

/** @internal Human name of a type for messages: `WORLD_POSITION`. */
export function geometryTypeName(type: GeometryTextureType | 'objectId'): string {
  return type === 'objectId' ? 'OBJECT_ID' : GeometryTextureType[type];
}
