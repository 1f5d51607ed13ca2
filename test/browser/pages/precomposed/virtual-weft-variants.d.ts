// The table module of weft-gpu/vite's plugin, as a page sees it.
declare module 'virtual:weft-variants' {
  const precomposed: import('../../../../composer/precomposed.js').PrecomposedShaders;
  export default precomposed;
}
