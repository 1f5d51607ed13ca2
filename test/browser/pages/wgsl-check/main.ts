// checkWgslAsync in a browser: naga-wasm's browser entry, its .wasm found next to the module (no GPU used).
import { checkWgslAsync, composeShader, type MappedShaderMessage } from '../../../../composer/index.js';
import { type Fragment, makeStandardVertexFragments } from '../../../../fragments/index.js';

export interface WgslCheckPageResult {
  good: MappedShaderMessage[];
  bad: MappedShaderMessage[];
  /** performance.now() of the second check of the good shader (naga already instantiated). */
  warmMs: number;
}

function spec(body: string) {
  const helper: Fragment = { id: 'page-helper', source: `fn shade(c: vec4f) -> vec4f {\n${body}\n}\n` };
  const surface: Fragment = {
    id: 'surface',
    source:
      'import io::{ FragmentInput, FragmentOutput };\nimport package::page_helper::shade;\nfn surface(input: FragmentInput) -> FragmentOutput {\n  var o: FragmentOutput;\n  o.color = shade(vec4f(1.0));\n  return o;\n}\n',
    dependencies: ['page-helper'],
    outputs: [{ name: 'color', type: 'vec4f' }],
    fills: [{ slot: 'fragmentStage', fn: 'surface' }],
  };
  return { fragments: [...makeStandardVertexFragments(), helper, surface] };
}

async function run(): Promise<WgslCheckPageResult> {
  const goodShader = composeShader(spec('  return c;'));
  // The page's own import: Vite bundles naga-wasm here, and only here.
  const good = await checkWgslAsync(goodShader, { naga: await import('naga-wasm') });
  const bad = await checkWgslAsync(composeShader(spec('  let k = 1.0;\n  return c * 2u;')));
  const start = performance.now();
  await checkWgslAsync(goodShader);
  return { good, bad, warmMs: performance.now() - start };
}

run().then(
  (result) => {
    (window as unknown as { __weftResult: unknown }).__weftResult = result;
  },
  (error: unknown) => {
    (window as unknown as { __weftResult: unknown }).__weftResult = { error: String((error as Error)?.stack ?? error) };
  },
);
