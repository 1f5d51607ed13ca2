import { WeftError } from '../../core/errors.js';

/**
 * Why weft-gpu/typegpu refused a schema, a layout or a fragment; the message names the API, the value and what is
 * allowed.
 * - `not-a-schema`: a value where a TypeGPU data schema (`d.struct(…)`, `d.vec3f`, …) was expected;
 * - `unsupported-type`: a type one side cannot express (TypeGPU 0.12 has square `f32` matrices only; a uniform buffer
 *   holds no runtime-sized array, atomic or `bool`);
 * - `layout-mismatch`: TypeGPU lays a type out differently from the WGSL rules weft's layout follows (never seen;
 *   refused rather than written wrong);
 * - `bad-binding`: a fragment binding that gives both `type` and `schema`, neither, or a schema on a texture or sampler;
 * - `name-clash`: a schema's struct has the name of a struct the fragment's own source declares.
 */
export type TypeGpuInteropErrorCode =
  | 'not-a-schema'
  | 'unsupported-type'
  | 'layout-mismatch'
  | 'bad-binding'
  | 'name-clash';

/** The typed error of weft-gpu/typegpu (weft's own `ComposeError` / `LayoutError` pass through unchanged). */
export class TypeGpuInteropError extends WeftError<TypeGpuInteropErrorCode> {
  constructor(api: string, code: NoInfer<TypeGpuInteropErrorCode>, message: string) {
    super(api, code, message);
    this.name = 'TypeGpuInteropError';
  }
}
