// weft-gpu/vite/client: the type of `virtual:weft-variants`, the table module the weftVariants() plugin of
// weft-gpu/vite serves to a page. Reference it once, as Vite's own `vite/client`: `"types": ["weft-gpu/vite/client"]`
// in tsconfig.json, or `/// <reference types="weft-gpu/vite/client" />` in one file of the page.
declare module 'virtual:weft-variants' {
  /** The variants composed at build time: hand it to `usePrecomposedShaders(engine, precomposed)`. */
  const precomposed: import('weft-gpu/vite').PrecomposedShaders;
  export default precomposed;
}
