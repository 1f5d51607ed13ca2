import type { ComposeSpec } from '../../composer/compose-shader.js';
import { createContributorViewFragment } from '../../fragments/contributor-view.js';
import {
  createSplatColorFragment,
  createSplatPickFragment,
  createSplatQuadFragment,
} from '../../fragments/splat-pick.js';
import { contributorPickSpec } from '../../picking/pick-contributors.js';

/** The Gaussian splat pick contributor's shader (with the detail attachment, the opacity met, when `detailed`). */
export function splatPickSpec(detailed: boolean): ComposeSpec {
  return contributorPickSpec([createSplatQuadFragment(), createSplatPickFragment()], detailed);
}

/** The Gaussian splat renderer's shader: each splat's peak opacity along the pixel ray, premultiplied colour. */
export function splatColorSpec(): ComposeSpec {
  return { fragments: [createContributorViewFragment(), createSplatQuadFragment(), createSplatColorFragment()] };
}
