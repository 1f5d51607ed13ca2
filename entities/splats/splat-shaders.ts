import type { ComposeSpec } from '../../composer/compose-shader.js';
import { makeContributorViewFragment } from '../../fragments/contributor-view.js';
import { makeSplatColorFragment, makeSplatPickFragment, makeSplatQuadFragment } from '../../fragments/splat-pick.js';
import { contributorPickSpec } from '../../picking/sources/pick-contributors.js';

/**
 * The Gaussian splat pick contributor's shader (with the detail attachment, the opacity met, when `detailed`).
 * @internal
 */
export function splatPickSpec(detailed: boolean): ComposeSpec {
  return contributorPickSpec([makeSplatQuadFragment(), makeSplatPickFragment()], detailed);
}

/**
 * The Gaussian splat renderer's shader: each splat's peak opacity along the pixel ray, premultiplied colour.
 * @internal
 */
export function splatColorSpec(): ComposeSpec {
  return { fragments: [makeContributorViewFragment(), makeSplatQuadFragment(), makeSplatColorFragment()] };
}
