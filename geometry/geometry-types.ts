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
  readonly name: string;
  readonly defaultFormat: GPUTextureFormat;
  readonly clearValue: readonly [number, number, number, number];
  /** What the texel holds and why the format and clear value were chosen. */
  readonly meaning: string;
}

const describe = (type: GeometryTextureType, name: string, defaultFormat: GPUTextureFormat, clearValue: readonly [number, number, number, number], meaning: string): GeometryTextureDescription =>
  Object.freeze({ type, name, defaultFormat, clearValue, meaning });

/** One description per GeometryTextureType, indexed by the enum value. */
export const GEOMETRY_TEXTURE_DESCRIPTIONS: readonly GeometryTextureDescription[] = Object.freeze([
  describe(GeometryTextureType.IRRADIANCE, 'irradiance', 'rgba16float', [0, 0, 0, 0], 'Lit colour before tone mapping; half float keeps HDR range; background 0 (no light).'),
  describe(GeometryTextureType.WORLD_POSITION, 'worldPosition', 'rgba32float', [0, 0, 0, 0], 'World xyz, w = 1 on geometry; 32-bit floats because positions far from the origin lose too much in half floats; w = 0 marks background.'),
  describe(GeometryTextureType.LOCAL_POSITION, 'localPosition', 'rgba32float', [0, 0, 0, 0], 'Mesh-local (rest or deformed) xyz, w = 1 on geometry; w = 0 marks background.'),
  describe(GeometryTextureType.REFLECTIVITY, 'reflectivity', 'rgba8unorm', [0, 0, 0, 0], 'Specular colour in rgb, glossiness in a; 8 bits suffice for material inputs; background 0 (not reflective).'),
  describe(GeometryTextureType.VIEW_DEPTH, 'viewDepth', 'r32float', [0, 0, 0, 0], 'Positive view-space depth (distance along the camera -Z axis); geometry is always beyond the near plane, so 0 marks background.'),
  describe(GeometryTextureType.NORMALIZED_VIEW_DEPTH, 'normalizedViewDepth', 'r32float', [1, 0, 0, 0], '(viewDepth - near) / (far - near) in 0..1 (far = the camera far plane); background 1 (at the far plane).'),
  describe(GeometryTextureType.SCREENSPACE_DEPTH, 'screenspaceDepth', 'r32float', [0, 0, 0, 0], 'NDC depth as the depth buffer holds it: reverse-Z, 1 at the near plane, 0 at the far plane and for background.'),
  describe(GeometryTextureType.VIEW_NORMAL, 'viewNormal', 'rgba16float', [0, 0, 0, 0], 'Unit view-space normal in xyz (signed, not packed), w = 1 on geometry; background 0 (no normal).'),
  describe(GeometryTextureType.WORLD_NORMAL, 'worldNormal', 'rgba16float', [0, 0, 0, 0], 'Unit world-space normal in xyz (signed), w = 1 on geometry; background 0.'),
  describe(GeometryTextureType.ALBEDO, 'albedo', 'rgba8unorm', [0, 0, 0, 0], 'Base colour × texture × vertex colour with alpha; background 0 (transparent black).'),
  describe(GeometryTextureType.LINEAR_VELOCITY, 'linearVelocity', 'rgba16float', [0, 0, 0, 0], '(previousNDC - currentNDC) / 2 in xy, Y up; z 0 or the previous view depth; background 0 (no motion).'),
  describe(GeometryTextureType.MESH_BLEND_TAG, 'meshBlendTag', 'r8uint', [0, 0, 0, 0], 'Per-mesh integer tag for compositing; always single-sample r8uint with an integer 0 clear (0 = untagged background).'),
]);
