// The page built with weftVariants(): its shaders come from the precomposed table, and it bundles no linker.
import precomposed from 'virtual:weft-variants';
import { runPrecomposedPage } from './scene.js';

runPrecomposedPage(precomposed).then(
  (result) => (window.__weftResult = result),
  (error: unknown) =>
    (window.__weftResult = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
);
