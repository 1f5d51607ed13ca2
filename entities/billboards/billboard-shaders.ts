import type { ComposeSpec } from '../../composer/compose-shader.js';
import {
  makeBillboardColorFragment,
  makeBillboardPickFragment,
  makeBillboardQuadFragment,
} from '../../fragments/billboard-pick.js';
import { makeContributorViewFragment } from '../../fragments/contributor-view.js';
import { contributorPickSpec } from '../../picking/sources/pick-contributors.js';

/** @internal The billboard pick contributor's shader (with the detail attachment when `detailed`). */
export function billboardPickSpec(detailed: boolean): ComposeSpec {
  return contributorPickSpec([makeBillboardQuadFragment(), makeBillboardPickFragment()], detailed);
}

/** @internal The billboard renderer's shader: the sprite quads in flat colours. */
export function billboardColorSpec(): ComposeSpec {
  return {
    fragments: [makeContributorViewFragment(), makeBillboardQuadFragment(), makeBillboardColorFragment()],
  };
}
