// What a host engine's glue is generated from: the fields of each stage resource a library's `bufferLayouts` lists,
// with their WGSL types, so the host declares and fills weft's uniform structs by field name (no offsets, no field
// order copied by hand). Used by the three.js and Babylon.js pages.
import type { ComposedShader, FieldLayout } from '../../composer/index.js';
import type { HostUniformValues } from './host-view.js';

/** One stage resource as the host feeds it: its binding, linked struct name and the fields it has values for. */
export interface HostResource {
  binding: string;
  struct: string;
  fields: { field: FieldLayout; value: number | number[] }[];
}

/** The resources `stage` takes, in `stageResources` order, each with the fields of `values` (layout order). */
export function hostResources(
  library: ComposedShader,
  stage: 'vertex' | 'fragment',
  values: HostUniformValues,
): HostResource[] {
  if (!library.stageResources) throw new Error('hostResources takes a library (output: "library")');
  return library.stageResources[stage].map((binding) => {
    const type = library.bufferLayouts[binding]?.type;
    if (type?.kind !== 'struct') throw new Error(`library has no struct layout for "${binding}"`);
    const given = values[binding] ?? {};
    for (const name of Object.keys(given))
      if (!type.fields.some((f) => f.name === name)) throw new Error(`${type.name} has no field "${name}"`);
    return {
      binding,
      struct: type.name,
      fields: type.fields.filter((f) => f.name in given).map((field) => ({ field, value: given[field.name] })),
    };
  });
}

/** A WGSL shorthand type in its long form (`vec4f` → `vec4<f32>`), as Babylon.js's uniform parser reads types. */
export function wgslLongForm(type: string): string {
  const scalar: Record<string, string> = { f: 'f32', i: 'i32', u: 'u32', h: 'f16' };
  const m = /^(vec[234]|mat[234]x[234])([fiuh])$/.exec(type);
  return m ? `${m[1]}<${scalar[m[2]]}>` : type;
}

/**
 * A WGSL function building each resource's struct from one parameter per fed field (`weft_scene_viewProjection`, …):
 * `fn hostMake_scene(…) -> SceneUniforms`. Fields not fed stay zero (`var` is zero-initialised).
 */
export function hostStructMakers(resources: readonly HostResource[]): string {
  return resources
    .map((r) => {
      const params = r.fields.map(({ field }) => `${hostArgName(r, field)}: ${field.type.wgsl}`).join(', ');
      const sets = r.fields.map(({ field }) => `  value.${field.name} = ${hostArgName(r, field)};`).join('\n');
      return `fn hostMake_${r.binding}(${params}) -> ${r.struct} {\n  var value: ${r.struct};\n${sets}\n  return value;\n}`;
    })
    .join('\n');
}

/** The host-side name of a fed field: `weft_<binding>_<field>`. */
export function hostArgName(resource: HostResource, field: FieldLayout): string {
  return `weft_${resource.binding}_${field.name}`;
}
