/**
 * A G-buffer of typed MRT attachments (normals, positions, depths, albedo, velocity, …).
 * @module weft-gpu/geometry
 */

// The geometry renderer task and its motion-vector (velocity) controls.
export {
  createGeometryRendererTask,
  enableGeometryVelocity,
  excludeFromVelocity,
  type GeometryRendererTask,
  type GeometryVelocityOptions,
  includeInVelocity,
  readGeometryFrameIdAsync,
} from './geometry-renderer-task.js';
export type { GeometryRendererTaskConfig, GeometryRendererTextureDescription } from './geometry-task-state.js';
export {
  GEOMETRY_OBJECT_ID_DESCRIPTION,
  GEOMETRY_TEXTURE_DESCRIPTIONS,
  type GeometryTextureDescription,
  GeometryTextureType,
} from './geometry-types.js';
export { GeometryError, type GeometryErrorCode } from './geometry-errors.js';

// Checking a configuration against a device before creating it (attachment bytes, formats, blending).
export {
  type GeometryAttachmentPlan,
  type GeometryAttachmentRequest,
  type GeometryPlanContext,
  planGeometryAttachments,
} from './geometry-validation.js';
export {
  type AttachmentBytes,
  type ColorFormatCaps,
  colorAttachmentBytesPerSample,
  getColorFormatCaps,
  listRenderableColorFormats,
} from './texture-format-caps.js';

// Using the attachments: copy/remap one into a texture, or render every type as an image strip.
export type {
  CopyPath,
  CopyToTextureTask,
  CopyToTextureTaskConfig,
  NormalizedViewport,
} from './copy-to-texture-state.js';
export { createCopyToTextureTask } from './copy-to-texture-task.js';
export { type GeometryStripImage, geometryStripTypes, renderGeometryStripAsync } from './geometry-strip.js';
