// What the acceptance page and its Node test agree on: the paths it runs, the sizes, and the shape of its results.
import type { Tally } from '../../../support/acceptance-tally.js';

/** The two paths this page runs, in the order of the tallies it returns, named by the method 'auto' chose. */
export function browserPaths(method: string | null): string[] {
  return [`pickAsync detail (auto → ${method})`, `pickManyAsync detail (auto → ${method})`];
}

/** The device the page runs on: `?device=compatibility` asks for a compatibility-mode device. */
export type AcceptanceDeviceKind = 'core' | 'compatibility';

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
  device: AcceptanceDeviceKind;
  /** The device's `maxStorageBuffersInVertexStage` (absent where the browser does not report it). */
  vertexStorageBuffers: number | null;
  deviceFeatures: string[];
  size: [number, number];
  variants: string[];
  runVariant(index: number, seeds: number[]): Promise<VariantRun>;
}
