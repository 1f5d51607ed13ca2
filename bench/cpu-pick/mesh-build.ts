// Build, memory and refit rows for one mesh: weft's triangle BVH vs three-mesh-bvh's MeshBVH.
import { type BufferGeometry, DoubleSide, Ray, Sphere, Vector3 } from 'three';
import { CENTER, INTERSECTED, MeshBVH, NOT_INTERSECTED, SAH } from 'three-mesh-bvh';
import {
  buildTriangleBvh,
  makeTriangleHit,
  raycastTriangleBvhFirst,
  refitTriangleBvh,
  type TriangleBvh,
} from '../../picking/cpu/index.js';
import { agree, describeAgreement, faceKey, makeAgreement, requireAgreement } from './agreement.js';
import { type MeshCase, randomRays, threeBvhBytes, threeGeometry, typedArrayBytes } from './data.js';
import { type BenchConfig, fmt, interleaved, type Row } from './harness.js';

export interface BuiltMesh {
  weft: TriangleBvh;
  center: MeshBVH;
  sah: MeshBVH;
  centerGeometry: BufferGeometry;
  sahGeometry: BufferGeometry;
}

const ms = (v: number) => `${fmt(v, v < 10 ? 2 : 1)} ms`;

/** Small meshes build and refit in well under a millisecond: a sample repeats the work so the timer resolves it. */
function repeatsFor(c: MeshCase): number {
  return Math.min(20, Math.max(1, Math.round(100_000 / (c.indices.length / 3))));
}

/** Build rows (weft default vs three-mesh-bvh CENTER, its default, and SAH) and memory rows. */
export function benchBuild(
  c: MeshCase,
  centerGeometry: BufferGeometry,
  sahGeometry: BufferGeometry,
  config: BenchConfig,
  rows: Row[],
): BuiltMesh {
  const built = {} as BuiltMesh;
  const repeat = repeatsFor(c);
  // three-mesh-bvh reorders the geometry's index in place, and a build over an index that its previous build left in
  // leaf order partitions presorted data (~1.2× faster on the torus): each of its builds gets its own geometry, reset to
  // the mesh's order before each of its samples (untimed), as weft's builds always start from the mesh's order. The last
  // one timed is the geometry the queries and refits below use.
  const geometriesOf = (last: BufferGeometry) => [
    ...Array.from({ length: repeat - 1 }, () => threeGeometry(c.positions, c.indices)),
    last,
  ];
  const centers = geometriesOf(centerGeometry);
  const sahs = geometriesOf(sahGeometry);
  const reset = (run: number) => {
    for (const g of run === 1 ? centers : run === 2 ? sahs : [])
      (g.index!.array as Uint16Array | Uint32Array).set(c.indices);
  };
  const times = interleaved(
    config,
    [
      () => {
        for (let k = 0; k < repeat; k++) built.weft = buildTriangleBvh(c.positions, c.indices);
      },
      () => {
        for (let k = 0; k < repeat; k++) built.center = new MeshBVH(centers[k], { strategy: CENTER });
      },
      () => {
        for (let k = 0; k < repeat; k++) built.sah = new MeshBVH(sahs[k], { strategy: SAH });
      },
    ],
    reset,
  );
  const [weft, center, sah] = times.map((t) => t / repeat);
  Object.assign(built, { centerGeometry, sahGeometry });
  const subject = `${c.label} (${fmt(c.indices.length / 3)} tris)`;
  rows.push(
    {
      subject,
      measure: 'build vs CENTER (default)',
      weft: ms(weft),
      three: ms(center),
      ratio: center / weft,
      target: { kind: 'min', value: 1 },
      notes: 'buildTriangleBvh (defaults) vs new MeshBVH(geometry) (CENTER, not indirect)',
    },
    {
      subject: '',
      measure: 'build vs SAH',
      weft: ms(weft),
      three: ms(sah),
      ratio: sah / weft,
      target: null,
      notes: 'vs new MeshBVH(geometry, { strategy: SAH })',
    },
  );
  // weft: every typed array the TriangleBvh holds (node arrays, leaf-ordered triangle copy, faceIds), minus the mesh's
  // own positions / index. three: _roots (+ _indirectBuffer when indirect); its default reorders the mesh's index in
  // place, so that index is the mesh's, as on weft's side.
  const weftBytes = typedArrayBytes(built.weft, [c.positions.buffer, c.indices.buffer]);
  const centerBytes = threeBvhBytes(built.center);
  const mb = (b: number) => `${fmt(b / 1e6, 2)} MB`;
  rows.push({
    subject: '',
    measure: 'memory (BVH bytes)',
    weft: mb(weftBytes),
    three: mb(centerBytes),
    ratio: weftBytes / centerBytes,
    target: { kind: 'max', value: 1.5 },
    notes: `weft bytes / three bytes (CENTER); SAH tree ${mb(threeBvhBytes(built.sah))}; ${fmt(weftBytes / (c.indices.length / 3), 1)} B/tri vs ${fmt(centerBytes / (c.indices.length / 3), 1)}`,
  });
  return built;
}

/** Same nearest triangle after a refit, on random rays (both BVHs read the same moved positions). */
function checkAfterRefit(what: string, c: MeshCase, built: BuiltMesh, centre: number[], extent: number): string {
  const rays = randomRays(centre, extent, 2000, 99);
  const hit = makeTriangleHit();
  const ray = new Ray();
  const a = makeAgreement();
  const threeIndex = built.centerGeometry.index!.array;
  for (let i = 0; i < rays.length; i += 6) {
    const ours = raycastTriangleBvhFirst(
      built.weft,
      rays[i],
      rays[i + 1],
      rays[i + 2],
      rays[i + 3],
      rays[i + 4],
      rays[i + 5],
      0,
      Infinity,
      hit,
    );
    ray.origin.set(rays[i], rays[i + 1], rays[i + 2]);
    ray.direction.set(rays[i + 3], rays[i + 4], rays[i + 5]);
    const theirs = built.center.raycastFirst(ray, DoubleSide);
    agree(
      a,
      ours ? hit.t : Infinity,
      ours ? faceKey(c.indices, hit.faceId) : '',
      theirs ? theirs.distance : Infinity,
      theirs ? faceKey(threeIndex, theirs.faceIndex!) : '',
    );
  }
  requireAgreement(what, a);
  return describeAgreement(a);
}

/**
 * Refit rows. Both BVHs read the same positions array. 1 %: the vertices nearest one vertex (a sculpt stroke) move;
 * each library refits only what the stroke touched, as its users do for local edits: three-mesh-bvh gets the nodes
 * its `shapecast` found around the stroke (`refit(nodeIndices)`; the shapecast is done once, untimed), weft gets the
 * stroke's vertex indices (`refitTriangleBvh(…, { movedVertices })`; its vertex → leaf index is built by the first
 * such call, in the warm-up round, untimed — its cost is in the notes). All: every vertex moves, both refit everything.
 */
export function benchRefit(
  c: MeshCase,
  built: BuiltMesh,
  centre: number[],
  extent: number,
  config: BenchConfig,
  rows: Row[],
): void {
  const p = c.positions;
  const vertexCount = p.length / 3;
  const seedVertex = Math.floor(vertexCount / 3);
  const sx = p[seedVertex * 3];
  const sy = p[seedVertex * 3 + 1];
  const sz = p[seedVertex * 3 + 2];
  const distances = new Float64Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) distances[v] = Math.hypot(p[v * 3] - sx, p[v * 3 + 1] - sy, p[v * 3 + 2] - sz);
  const radius = Float64Array.from(distances).sort()[Math.ceil(vertexCount * 0.01)];
  const moved = Uint32Array.from(
    Array.from({ length: vertexCount }, (_, v) => v).filter((v) => distances[v] <= radius),
  );
  const step = extent * 1e-3;
  const sphere = new Sphere(new Vector3(sx, sy, sz), radius + 2 * step);
  const nodeIndices = new Set<number>();
  built.center.shapecast({
    intersectsBounds: (box, _isLeaf, _score, _depth, nodeIndex) => {
      if (!box.intersectsSphere(sphere)) return NOT_INTERSECTED;
      nodeIndices.add(nodeIndex);
      return INTERSECTED;
    },
    intersectsRange: (_offset, _count, _contained, _depth, nodeIndex) => {
      nodeIndices.add(nodeIndex);
      return false;
    },
  });
  let sign = 1;
  const moveStroke = () => {
    sign = -sign;
    for (let i = 0; i < moved.length; i++) p[moved[i] * 3 + 1] += sign * step;
  };
  const moveAll = () => {
    sign = -sign;
    for (let i = 1; i < p.length; i += 3) p[i] += sign * step;
  };
  const repeat = repeatsFor(c);
  const weftRefit = () => refitTriangleBvh(built.weft, p, c.indices);
  const weftPartial = () => refitTriangleBvh(built.weft, p, c.indices, { movedVertices: moved });
  const repeated = (run: () => void) => () => {
    for (let k = 0; k < repeat; k++) run();
  };
  moveStroke();
  const firstStart = performance.now();
  weftPartial();
  const firstPartial = performance.now() - firstStart;
  built.center.refit(nodeIndices);
  const [weftLocal, threeLocal, threeWhole] = interleaved(
    config,
    [repeated(weftPartial), repeated(() => built.center.refit(nodeIndices)), repeated(() => built.center.refit())],
    moveStroke,
  ).map((t) => t / repeat);
  moveStroke();
  weftPartial();
  built.center.refit(nodeIndices);
  const localCheck = checkAfterRefit(`${c.label} refit 1 %`, c, built, centre, extent);
  const [weftAll, threeAll] = interleaved(
    config,
    [repeated(weftRefit), repeated(() => built.center.refit())],
    moveAll,
  ).map((t) => t / repeat);
  moveAll();
  weftRefit();
  built.center.refit();
  const allCheck = checkAfterRefit(`${c.label} refit all`, c, built, centre, extent);
  rows.push(
    {
      subject: '',
      measure: `refit, 1 % moved (${fmt(moved.length)} verts)`,
      weft: ms(weftLocal),
      three: ms(threeLocal),
      ratio: threeLocal / weftLocal,
      target: { kind: 'min', value: 1 },
      notes: `refitTriangleBvh({ movedVertices: ${fmt(moved.length)} }) vs refit(nodeIndices: ${fmt(nodeIndices.size)} nodes); weft's first partial refit (builds its index) ${ms(firstPartial)}; ${localCheck}`,
    },
    {
      subject: '',
      measure: 'refit, 1 % moved, three whole',
      weft: ms(weftLocal),
      three: ms(threeWhole),
      ratio: threeWhole / weftLocal,
      target: null,
      notes: 'vs bvh.refit() with no node set',
    },
    {
      subject: '',
      measure: 'refit, all moved',
      weft: ms(weftAll),
      three: ms(threeAll),
      ratio: threeAll / weftAll,
      target: { kind: 'min', value: 1 },
      notes: `refitTriangleBvh vs bvh.refit() (CENTER tree); ${allCheck}`,
    },
  );
}
