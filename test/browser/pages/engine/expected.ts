/** Box colour (unlit) and clear colour the engine page draws, 0..255. */
export const boxRgb = [230, 120, 20];
export const clearRgb = [20, 40, 160];

/** What the engine page reports to the test. */
export type EnginePageResult =
  | {
      backing: [number, number];
      format: string;
      adapterFeatures: string[];
      features: string[];
      centre: number[];
      corner: number[];
    }
  | { error: string };
