// Layout rows for one mesh (issue #33 item 3): every TriangleBvhLayout side by side — build vs three-mesh-bvh's CENTER
// build, memory vs its CENTER tree, first-hit queries vs its SAH tree — each set timed in one interleaved run.
import { CENTER, MeshBVH, type MeshBVH as ThreeBvh } from 'three-mesh-bvh';
import { buildTriangleBvh, type TriangleBvh, type TriangleBvhLayout } from '../../picking/cpu/index.js';
import { type MeshCase, threeBvhBytes, threeGeometry, typedArrayBytes } from './data.js';
import { type BenchConfig, fmt, interleaved, type Row } from './harness.js';
import { type RaySet, threeQuery, weftQuery } from './mesh-query.js';

const layouts: readonly TriangleBvhLayout[] = ['compact', 'leaf-indices', 'leaf-triangles', 'face-ids'];

/** Build, memory and query rows of every layout (`sah`: the three-mesh-bvh tree the query rows compare against). */
export function benchLayouts(
  c: MeshCase,
  sah: ThreeBvh,
  raySets: readonly RaySet[],
  config: BenchConfig,
  rows: Row[],
): void {
  const triangles = c.indices.length / 3;
  const built = new Map<TriangleBvhLayout, TriangleBvh>();
  // As in benchBuild: three-mesh-bvh's build gets a fresh copy of the mesh's index order before each sample (untimed).
  const geometry = threeGeometry(c.positions, c.indices);
  let center: MeshBVH | null = null;
  const buildTimes = interleaved(
    config,
    [
      ...layouts.map((layout) => () => {
        built.set(layout, buildTriangleBvh(c.positions, c.indices, { layout }));
      }),
      () => {
        center = new MeshBVH(geometry, { strategy: CENTER });
      },
    ],
    (run) => {
      if (run === layouts.length) (geometry.index!.array as Uint16Array | Uint32Array).set(c.indices);
    },
  );
  const centerTime = buildTimes[layouts.length];
  const centerBytes = threeBvhBytes(center!);
  const queryTimes = raySets.map(({ rays }) =>
    interleaved(config, [
      ...layouts.map((layout) => () => weftQuery(built.get(layout)!, rays)),
      () => threeQuery(sah, rays),
    ]),
  );
  layouts.forEach((layout, i) => {
    const bytes = typedArrayBytes(built.get(layout)!, [c.positions.buffer, c.indices.buffer]);
    const subject = i === 0 ? `${c.label}, by layout` : '';
    rows.push(
      {
        subject,
        measure: `'${layout}' build vs CENTER`,
        weft: `${fmt(buildTimes[i], 1)} ms`,
        three: `${fmt(centerTime, 1)} ms`,
        ratio: centerTime / buildTimes[i],
        target: null,
        notes: `buildTriangleBvh({ layout: '${layout}' }), interleaved with the other layouts`,
      },
      {
        subject: '',
        measure: `'${layout}' memory`,
        weft: `${fmt(bytes / 1e6, 2)} MB`,
        three: `${fmt(centerBytes / 1e6, 2)} MB`,
        ratio: bytes / centerBytes,
        target: null,
        notes: `${fmt(bytes / triangles, 1)} B/tri vs ${fmt(centerBytes / triangles, 1)} (CENTER)`,
      },
      ...raySets.map(({ kind, rays }, s) => ({
        subject: '',
        measure: `'${layout}' query, ${kind}`,
        weft: `${fmt((rays.length / 6 / queryTimes[s][i]) * 1000)} /s`,
        three: `${fmt((rays.length / 6 / queryTimes[s][layouts.length]) * 1000)} /s`,
        ratio: queryTimes[s][layouts.length] / queryTimes[s][i],
        target: null,
        notes: 'raycastTriangleBvhFirst vs raycastFirst (SAH tree), interleaved with the other layouts',
      })),
    );
  });
}
