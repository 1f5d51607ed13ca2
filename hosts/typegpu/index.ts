/**
 * weft-gpu/typegpu: TypeGPU data schemas and weft's composer, both ways (TypeGPU is an optional peer dependency).
 * A fragment's buffer binding may take its type from a schema (`withTypeGpuSchemas`), and a composed shader's buffer
 * layout becomes a schema TypeGPU's typed buffers write (`toTypeGpuSchema`); both check the layout on each side.
 * @module weft-gpu/typegpu
 */
export {
  type TypeGpuBufferBinding,
  type TypeGpuFragment,
  type TypeGpuWgsl,
  wgslOfTypeGpuSchemas,
  withTypeGpuSchemas,
} from './typegpu-fragment.js';
export { TypeGpuInteropError, type TypeGpuInteropErrorCode } from './typegpu-errors.js';
export { type TypeGpuSchema, type TypeGpuSchemaOptions, toTypeGpuSchema } from './typegpu-schema.js';
