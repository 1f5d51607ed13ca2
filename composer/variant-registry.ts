import { type ComposeCache, type ComposedShader, type ComposeSpec, composeShader } from './compose-shader.js';
import { WeftError } from '../core/errors.js';

/** A named shader variant: snapshot-tested, validated on Dawn and printable by the CLI. */
export interface VariantDefinition {
  /** kebab-case; also the snapshot file name (`<name>.wgsl`). */
  name: string;
  description: string;
  /** Builds the compose spec (called on demand, so registering costs nothing). */
  spec: () => ComposeSpec;
}

/** Named variants by name; a plain value, built by the caller (nothing is registered at import). */
export interface VariantRegistry {
  readonly variants: Map<string, VariantDefinition>;
}

/** Makes an empty variant registry. */
export function makeVariantRegistry(): VariantRegistry {
  return { variants: new Map() };
}

/**
 * Adds a variant; a name already registered or not kebab-case is an error. Returns the registry.
 * @throws {WeftError} when the name is not kebab-case or taken, or the definition is malformed
 */
export function registerVariant(registry: VariantRegistry, definition: VariantDefinition): VariantRegistry {
  const api = 'registerVariant';
  if (typeof definition?.name !== 'string' || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(definition.name)) {
    throw new WeftError(
      api,
      'bad-name',
      `variant name ${JSON.stringify(definition?.name)} must be kebab-case (a-z, 0-9, "-"): it names the snapshot file`,
    );
  }
  if (registry.variants.has(definition.name))
    throw new WeftError(
      api,
      'duplicate-variant',
      `variant "${definition.name}" is already registered; names are unique`,
    );
  if (typeof definition.spec !== 'function')
    throw new WeftError(api, 'bad-spec', `variant "${definition.name}" needs spec: () => ComposeSpec`);
  registry.variants.set(definition.name, definition);
  return registry;
}

/** The registered variants, sorted by name. */
export function listVariants(registry: VariantRegistry): VariantDefinition[] {
  return [...registry.variants.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * The variant of that name; an unknown name is an error listing the known ones.
 * @throws {WeftError} when no variant has that name (the message lists the names)
 */
export function getVariant(registry: VariantRegistry, name: string): VariantDefinition {
  const variant = registry.variants.get(name);
  if (!variant)
    throw new WeftError(
      'getVariant',
      'unknown-variant',
      `no variant named ${JSON.stringify(name)}; registered: ${
        listVariants(registry)
          .map((v) => v.name)
          .join(', ') || 'none'
      }`,
    );
  return variant;
}

/**
 * Composes a registered variant.
 * @throws {WeftError} when no variant has that name
 * @throws {ComposeError} when the variant does not compose
 */
export function composeVariant(registry: VariantRegistry, name: string, cache?: ComposeCache): ComposedShader {
  return composeShader(getVariant(registry, name).spec(), cache);
}
