// What link.ts becomes in a page built with weft-gpu/vite: the same exports without wesl. Nothing imports this file;
// the plugin resolves the composer's `./link.js` here, so composeShader finds every shader in the precomposed table
// and a miss is a `not-precomposed` ComposeError (composeShader throws it, naming the key, before it would link).
import type { LinkedWesl } from 'wesl';
import type { Fragment } from '../fragments/fragment-types.js';
import type { Conditions } from './conditions.js';
import { ComposeError } from './errors.js';
import type { GeneratedModule } from './generated-module.js';
import type { LinkRegistry, LinkResult } from './link-sources.js';

export {
  generatedPath,
  type LinkRegistry,
  type LinkResult,
  type LinkSource,
  locate,
  makeLinkRegistry,
  sourceMessage,
} from './link-sources.js';

/** @internal False: this build has no run-time linker. */
export const linkerAvailable = false;

const reason =
  "this page was built by weft-gpu/vite without the run-time linker: declare the shader's variant in weftVariants({ variants }) or set weftVariants({ linker: 'keep' })";

/** @internal Never maps: a precomposed shader has no source map (messages stay in the linked code). */
export function mapLinkedCompilationInfo(_linked: LinkedWesl, _info: GPUCompilationInfo): never {
  throw new ComposeError('mapCompilationInfo', 'not-precomposed', [], `no source map to map with: ${reason}`);
}

/** @internal Refuses to link (composeShader reports a miss itself; this is reached only by a spec it could not key). */
export function linkFragments(
  api: string,
  _registry: LinkRegistry,
  fragments: readonly Fragment[],
  _generated: readonly GeneratedModule[],
  _root: GeneratedModule,
  _conditions: Conditions,
): LinkResult {
  throw new ComposeError(
    api,
    'not-precomposed',
    fragments.map((f) => f.id),
    `cannot link fragments [${fragments.map((f) => f.id).join(', ')}]: ${reason}`,
  );
}
