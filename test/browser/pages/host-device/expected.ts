/** What the host-device page reports to the test. */
export type HostDevicePageResult =
  | {
      backing: [number, number];
      owner: string;
      sameDevice: boolean;
      /** The EngineError code renderFrame threw while the host's device was lost. */
      refused: string;
      before: { centre: number[]; corner: number[] };
      after: { centre: number[]; corner: number[] };
    }
  | { error: string };
