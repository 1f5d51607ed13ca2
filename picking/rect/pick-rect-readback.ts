// The marquee drawn the plain way: every mesh, every texel of the rectangle read back and decoded on the CPU. It is
// not public; the tests use it as the reference of pickRectAsync's culled draw and GPU reduction, bench/marquee.ts as
// the cost that reduction saves.
import { captureSceneSources, type GpuPicker, runRequest } from '../gpu-picker.js';
import { findCandidate, makePickSnapshot } from '../pick-snapshot.js';
import { findCapturedSource, makeContributorViewData } from '../sources/pick-contributors.js';
import { type PickedIdentity, sourceIdentity } from './pick-rect.js';
import { checkRectCall, type PickRectOptions, startRectCall } from './pick-rect-async.js';
import { weftPickSource } from '../sources/weft-pick-source.js';

/** @internal `pickRectAsync` by reading every texel back: same arguments, same identities (scene order). */
export async function pickRectByReadbackAsync(
  picker: GpuPicker,
  x: number,
  y: number,
  width: number,
  height: number,
  options?: PickRectOptions,
): Promise<PickedIdentity[]> {
  const loading = startRectCall(picker, options);
  if (loading) await loading;
  const { api, camera, viewProjection, viewport, region, rule, culling, maxResults } = checkRectCall(
    picker,
    x,
    y,
    width,
    height,
    options,
  );
  const snapshot = makePickSnapshot(api, picker.scene.meshes, options ?? {}, null, 1);
  const sources = captureSceneSources(picker, api, snapshot, null, camera, options);
  const view = sources.length ? makeContributorViewData(camera, viewProjection, viewport.width, viewport.height) : null;
  return runRequest(
    picker,
    api,
    {
      api,
      snapshot,
      viewProjection,
      width: viewport.width,
      height: viewport.height,
      regions: [region],
      layout: 'rect',
      detailed: false,
      rule,
      sources,
      view,
      culling,
    },
    (readback) => {
      const seen = new Map<number, PickedIdentity>();
      for (const id of readback.ids()) {
        if (id === 0 || seen.has(id)) continue;
        const found = findCandidate(snapshot, id);
        const source = found ? null : findCapturedSource(sources, id);
        if (found)
          seen.set(id, {
            mesh: weftPickSource.objectOf(found.candidate.mesh),
            thinInstanceIndex: found.instance,
            entity: null,
            entityDetail: null,
          });
        else if (source) seen.set(id, sourceIdentity(source, id));
        else continue;
        if (seen.size >= maxResults) break;
      }
      return [...seen.values()];
    },
  );
}
