// Where a weft pick's time goes, stage by stage, measured after the timed rounds (the hooks are never installed while
// they run): JS until the first queue.submit (snapshot, refit, encode), submit → mapAsync call, the mapAsync wait
// (GPU work + the round trip), and from the map's resolution to the pick's answer (decode).
import { median } from '../bench-timing.js';

/** Median milliseconds per stage of one request. */
export interface StageProfile {
  js: number;
  submitToMap: number;
  mapWait: number;
  decode: number;
  total: number;
  submits: number;
}

interface Marks {
  submits: number[];
  mapCalls: number[];
  mapDone: number[];
}

/** Runs `work` `count` times with submit / mapAsync timestamped on `device` only, and returns the stage medians. */
export async function profileStagesAsync(
  device: GPUDevice,
  work: () => Promise<unknown>,
  count: number,
): Promise<StageProfile> {
  const queue = device.queue;
  const submit = GPUQueue.prototype.submit;
  const mapAsync = GPUBuffer.prototype.mapAsync;
  let marks: Marks = { submits: [], mapCalls: [], mapDone: [] };
  GPUQueue.prototype.submit = function (this: GPUQueue, buffers: Iterable<GPUCommandBuffer>) {
    if (this === queue) marks.submits.push(performance.now());
    return submit.call(this, buffers);
  };
  GPUBuffer.prototype.mapAsync = function (this: GPUBuffer, ...args: Parameters<GPUBuffer['mapAsync']>) {
    const mine = marks;
    mine.mapCalls.push(performance.now());
    return mapAsync.apply(this, args).then(() => {
      mine.mapDone.push(performance.now());
      return undefined;
    });
  };
  const samples: StageProfile[] = [];
  try {
    for (let i = 0; i < count; i++) {
      marks = { submits: [], mapCalls: [], mapDone: [] };
      const start = performance.now();
      await work();
      const end = performance.now();
      const firstSubmit = marks.submits[0] ?? end;
      const firstMap = marks.mapCalls[0] ?? end;
      const lastDone = marks.mapDone.at(-1) ?? end;
      samples.push({
        js: firstSubmit - start,
        submitToMap: firstMap - firstSubmit,
        mapWait: lastDone - firstMap,
        decode: end - lastDone,
        total: end - start,
        submits: marks.submits.length,
      });
    }
  } finally {
    GPUQueue.prototype.submit = submit;
    GPUBuffer.prototype.mapAsync = mapAsync;
  }
  const keys = Object.keys(samples[0]) as (keyof StageProfile)[];
  return Object.fromEntries(keys.map((k) => [k, median(samples.map((s) => s[k]))])) as unknown as StageProfile;
}
