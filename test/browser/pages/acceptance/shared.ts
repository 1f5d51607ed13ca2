// What the acceptance page and its Node test agree on: the paths it runs, the sizes, and the shape of its results.
import type { Tally } from '../../../support/acceptance-tally.js';

/** The two paths this page runs, in the order of the tallies it returns. */
export const BROWSER_PATHS: readonly string[] = [
  'pickAsync detail (auto → vertex-index)',
  'pickManyAsync detail (auto → vertex-index)',
];

/** What one variant's run reports. */
export interface VariantRun {
  variant: string;
  tallies: Tally[];
  /** `picker.detailMethod` after `enableDetailedPicking(picker)` ('auto'), per seed. */
  methods: (string | null)[];
  enabled: boolean[];
  /** Milliseconds spent building scene + reference, and picking, summed over seeds. */
  referenceMs: number;
  pickMs: number;
}

/** What the page publishes once its engine is up. */
export interface AcceptancePage {
  adapterFeatures: string[];
  size: [number, number];
  variants: string[];
  runVariant(index: number, seeds: number[]): Promise<VariantRun>;
}
