// weft-gpu/variants: every shader variant weft itself draws with, by name (for the CLI and snapshot tests).
export { makeWeftVariantRegistry, registerWeftVariants } from './weft-variants.js';
// Variants of your own meshes (data shape + passes), to compose at build time with weft-gpu/vite.
export { type MeshVariantDeclaration, type MeshVariantPass, registerMeshVariants } from './mesh-variants.js';
