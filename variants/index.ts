/**
 * Every shader variant weft itself draws with, by name (for the CLI and snapshot tests).
 * @module weft-gpu/variants
 */
export { makeWeftVariantRegistry, registerWeftVariants } from './weft-variants.js';
// Variants of your own meshes (data shape + passes), to compose at build time with weft-gpu/vite.
export { type MeshVariantDeclaration, type MeshVariantPass, registerMeshVariants } from './mesh-variants.js';
