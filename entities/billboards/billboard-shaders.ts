import type { ComposeSpec } from '../../composer/compose-shader.js';
import {
  createBillboardColorFragment,
  createBillboardPickFragment,
  createBillboardQuadFragment,
} from '../../fragments/billboard-pick.js';
import { createContributorViewFragment } from '../../fragments/contributor-view.js';
import { contributorPickSpec } from '../../picking/pick-contributors.js';

/** The billboard pick contributor's shader (with the detail attachment when `detailed`). */
export function billboardPickSpec(detailed: boolean): ComposeSpec {
  return contributorPickSpec([createBillboardQuadFragment(), createBillboardPickFragment()], detailed);
}

/** The billboard renderer's shader: the sprite quads in flat colours. */
export function billboardColorSpec(): ComposeSpec {
  return {
    fragments: [createContributorViewFragment(), createBillboardQuadFragment(), createBillboardColorFragment()],
  };
}
