// The page composed at run time: the linker is in the bundle.
import { runPrecomposedPage } from './scene.js';

runPrecomposedPage(null).then(
  (result) => (window.__weftResult = result),
  (error: unknown) =>
    (window.__weftResult = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
);
