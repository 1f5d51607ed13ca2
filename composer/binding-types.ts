import { type Fragment, type FragmentBinding, fragmentModuleName } from '../fragments/fragment-types.js';
import { describeValue } from '../core/errors.js';
import { ComposeError } from './errors.js';
import { nearestName } from './fragment-checks.js';
import { sourceMessage } from './link-sources.js';
import { scanFragmentModule } from './slot-signatures.js';
import { qualifyWgslType } from './wgsl-names.js';

type BindingOf<K extends FragmentBinding['kind']> = Extract<FragmentBinding, { kind: K }>;

const textureTypeByDimension: Readonly<Record<GPUTextureViewDimension, string>> = {
  '1d': 'texture_1d',
  '2d': 'texture_2d',
  '2d-array': 'texture_2d_array',
  cube: 'texture_cube',
  'cube-array': 'texture_cube_array',
  '3d': 'texture_3d',
};

/** @internal Throws the `invalid-fragment` ComposeError for one binding declaration of a fragment. */
export function failBinding(api: string, fragment: Fragment, binding: unknown, what: string): never {
  throw new ComposeError(
    api,
    'invalid-fragment',
    [fragment.id],
    `fragment "${fragment.id}" binding ${describeValue((binding as { name?: unknown })?.name)}: ${what}`,
  );
}

/**
 * The WGSL type a binding declaration is declared with in the `bindings` module (a buffer's own type with the
 * fragment's names qualified, a texture or sampler type from its sample type, dimension and access).
 * @internal
 */
export function bindingWgslType(api: string, fragment: Fragment, b: FragmentBinding): string {
  const qualify = (name: string) => `package::${fragmentModuleName(fragment.id)}::${name}`;
  switch (b.kind) {
    case 'uniform':
    case 'storage':
    case 'read-only-storage':
      if (typeof b.type !== 'string' || !b.type.trim())
        failBinding(api, fragment, b, `type ${describeValue(b.type)} must be a WGSL type`);
      return qualifyWgslType(b.type.trim(), (name) => {
        checkTypeNameDeclared(api, fragment, b.name, b.type, name);
        return qualify(name);
      });
    case 'texture':
      return textureType(api, fragment, b);
    case 'storage-texture':
      return storageTextureType(api, fragment, b);
    case 'sampler':
      if (!['filtering', 'non-filtering', 'comparison'].includes(b.samplerType))
        failBinding(
          api,
          fragment,
          b,
          `samplerType ${describeValue(b.samplerType)} is not one of filtering, non-filtering, comparison`,
        );
      return b.samplerType === 'comparison' ? 'sampler_comparison' : 'sampler';
    default:
      return failBinding(
        api,
        fragment,
        b,
        `kind ${describeValue((b as { kind?: unknown }).kind)} is not one of uniform, storage, read-only-storage, texture, storage-texture, sampler`,
      );
  }
}

/**
 * A buffer binding's type may name only structs and aliases its own fragment declares (or imports): anything else
 * would fail inside the generated bindings module, far from the mistake. A misspelt struct is named with its line.
 */
function checkTypeNameDeclared(api: string, fragment: Fragment, binding: string, type: string, name: string): void {
  const scan = scanFragmentModule(fragment);
  if (scan.structs.has(name) || scan.aliases.has(name) || scan.imports.has(name)) return;
  const declared = [...scan.structs, ...scan.aliases.keys()];
  const near = nearestName(name, declared);
  const place = near === undefined ? undefined : scan.structPlaces.get(near);
  const hint = near === undefined ? '' : ` (did you mean \`${near}\`${place ? `, line ${place.line}` : ''}?)`;
  const what = `type ${JSON.stringify(type)} names ${name}, which the fragment's source does not declare${hint}; it declares: ${declared.sort().join(', ') || '(no struct or alias)'}`;
  throw new ComposeError(
    api,
    'invalid-fragment',
    [fragment.id],
    `fragment "${fragment.id}" binding ${describeValue(binding)}: ${what}`,
    place ? [sourceMessage({ path: fragment.id, text: fragment.source }, place.line, place.column, 'error', what)] : [],
  );
}

function textureType(api: string, fragment: Fragment, b: BindingOf<'texture'>): string {
  const sample = b.sampleType;
  const dimension = textureTypeByDimension[b.viewDimension];
  if (!dimension)
    failBinding(
      api,
      fragment,
      b,
      `viewDimension ${describeValue(b.viewDimension)} is not one of ${Object.keys(textureTypeByDimension).join(', ')}`,
    );
  if (sample === 'depth') {
    if (b.multisampled) return 'texture_depth_multisampled_2d';
    if (!['2d', '2d-array', 'cube', 'cube-array'].includes(b.viewDimension))
      failBinding(
        api,
        fragment,
        b,
        `a depth texture's viewDimension must be 2d, 2d-array, cube or cube-array, not ${describeValue(b.viewDimension)}`,
      );
    return dimension.replace('texture_', 'texture_depth_');
  }
  const scalar = { float: 'f32', 'unfilterable-float': 'f32', sint: 'i32', uint: 'u32' }[sample as string];
  if (!scalar)
    failBinding(
      api,
      fragment,
      b,
      `sampleType ${describeValue(sample)} is not one of float, unfilterable-float, depth, sint, uint`,
    );
  if (b.multisampled) {
    if (b.viewDimension !== '2d')
      failBinding(
        api,
        fragment,
        b,
        `a multisampled texture's viewDimension must be 2d, not ${describeValue(b.viewDimension)}`,
      );
    return `texture_multisampled_2d<${scalar}>`;
  }
  return `${dimension}<${scalar}>`;
}

function storageTextureType(api: string, fragment: Fragment, b: BindingOf<'storage-texture'>): string {
  const dimension = textureTypeByDimension[b.viewDimension];
  const access = { 'write-only': 'write', 'read-only': 'read', 'read-write': 'read_write' }[b.access as string];
  if (!dimension || b.viewDimension.startsWith('cube'))
    failBinding(
      api,
      fragment,
      b,
      `a storage texture's viewDimension must be 1d, 2d, 2d-array or 3d, not ${describeValue(b.viewDimension)}`,
    );
  if (!access)
    failBinding(api, fragment, b, `access ${describeValue(b.access)} is not one of write-only, read-only, read-write`);
  if (typeof b.format !== 'string' || !/^[a-z0-9]+$/.test(b.format))
    failBinding(api, fragment, b, `format ${describeValue(b.format)} is not a storage texture format`);
  return `${dimension.replace('texture_', 'texture_storage_')}<${b.format}, ${access}>`;
}
