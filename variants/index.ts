// weft-gpu/variants: every shader variant weft itself draws with, by name (for the CLI and snapshot tests).
export { makeWeftVariantRegistry, registerWeftVariants } from './weft-variants.js';
