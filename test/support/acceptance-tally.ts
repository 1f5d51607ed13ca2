// Scoring of one pick path against the reference on the judged pixels, and the table the suite prints. Pure: no weft,
// no Node API.
import type { JudgedPixel } from './acceptance-scenes.js';
import type { ReferenceHit } from './reference-raycast.js';

type Vec3 = [number, number, number];

/** What a path answered at one pixel; a field left undefined is one the path does not produce. */
export interface PathSample {
  hit: boolean;
  meshId: number;
  thinInstanceIndex: number;
  faceId?: number;
  point?: Vec3 | null;
  bu?: number;
  bv?: number;
  /** Interpolated vertex normal in world space (null when the mesh has none). */
  normal?: Vec3 | null;
  /** Geometric normal in world space; compared as a line (its sign under mirroring is the `drawn` helper's rule). */
  faceNormal?: Vec3 | null;
  /** Compare `normal` as a line, not a vector (a G-buffer normal of a back face: its orientation is documented apart). */
  normalAsLine?: boolean;
  uv?: [number, number] | null;
}

/** The bars of the acceptance (issue 15). */
export const ACCEPTANCE_BARS = Object.freeze({
  ratio: 0.999,
  point: 1e-5, // × distance
  barycentric: 1e-4,
  uv: 1e-4,
  normalDegrees: 0.01,
});

/** Counts and worst errors of one path on one variant (summed over seeds). */
export interface Tally {
  path: string;
  variant: string;
  judged: number;
  nearEdge: number;
  depthTie: number;
  misses: number;
  missAgree: number;
  hits: number;
  identity: number;
  face: number;
  faceCompared: number;
  worstPoint: number;
  worstBary: number;
  worstUv: number;
  worstNormalDeg: number;
  worstFaceNormalDeg: number;
  over: Record<'point' | 'barycentric' | 'uv' | 'normal', number>;
  firstFailures: string[];
}

export function makeTally(path: string, variant: string): Tally {
  return {
    path,
    variant,
    judged: 0,
    nearEdge: 0,
    depthTie: 0,
    misses: 0,
    missAgree: 0,
    hits: 0,
    identity: 0,
    face: 0,
    faceCompared: 0,
    worstPoint: 0,
    worstBary: 0,
    worstUv: 0,
    worstNormalDeg: 0,
    worstFaceNormalDeg: 0,
    over: { point: 0, barycentric: 0, uv: 0, normal: 0 },
    firstFailures: [],
  };
}

function angleDegrees(a: readonly number[], b: readonly number[], asLine: boolean): number {
  const la = Math.hypot(a[0], a[1], a[2]);
  const lb = Math.hypot(b[0], b[1], b[2]);
  const cos = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (la * lb);
  const sin = Math.hypot(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]) / (la * lb);
  // atan2 of |a×b| and a·b stays accurate for tiny angles, where acos of the dot loses everything.
  return (Math.atan2(sin, asLine ? Math.abs(cos) : cos) * 180) / Math.PI;
}

/**
 * The reference's interpolated normal turned to the side of the triangle the ray came from: the documented rule for
 * every normal of a hit (weft's `PickingInfo.pickedNormal`, as the G-buffer's WORLD_NORMAL). Pure geometry: the
 * geometric normal facing the ray picks the side, whatever the winding, the mirroring or the data's own normals.
 */
export function normalOnRaySide(truth: ReferenceHit): Vec3 | null {
  const n = truth.normalWorld;
  if (!n) return null;
  const f = truth.faceNormalWorld;
  const towardRay = truth.frontFacing ? 1 : -1;
  return towardRay * (n[0] * f[0] + n[1] * f[1] + n[2] * f[2]) < 0 ? [-n[0], -n[1], -n[2]] : n;
}

function note(tally: Tally, what: string, pixel: JudgedPixel): void {
  if (tally.firstFailures.length < 6) tally.firstFailures.push(`(${pixel.x}, ${pixel.y}) ${what}`);
}

/** Scores one sample against its pixel's reference (only judged pixels count). */
export function scoreSample(tally: Tally, pixel: JudgedPixel, sample: PathSample): void {
  if (pixel.verdict === 'near-edge') {
    tally.nearEdge++;
    return;
  }
  if (pixel.verdict === 'depth-tie') {
    tally.depthTie++;
    return;
  }
  tally.judged++;
  const truth = pixel.truth;
  if (!truth) {
    tally.misses++;
    if (!sample.hit) tally.missAgree++;
    else note(tally, `reference misses, path hit mesh ${sample.meshId}`, pixel);
    return;
  }
  tally.hits++;
  if (!sample.hit || sample.meshId !== truth.meshId || sample.thinInstanceIndex !== truth.thinInstanceIndex) {
    note(
      tally,
      `identity ${sample.hit ? `${sample.meshId}/${sample.thinInstanceIndex}` : 'miss'} ≠ ${truth.meshId}/${truth.thinInstanceIndex}`,
      pixel,
    );
    return;
  }
  tally.identity++;
  if (sample.faceId !== undefined) {
    tally.faceCompared++;
    if (sample.faceId !== truth.faceId) {
      note(tally, `face ${sample.faceId} ≠ ${truth.faceId}`, pixel);
      return;
    }
    tally.face++;
  }
  const bars = ACCEPTANCE_BARS;
  const check = (key: keyof Tally['over'], error: number, bar: number, worst: keyof Tally) => {
    (tally[worst] as number) = Math.max(tally[worst] as number, error);
    if (!(error <= bar)) {
      tally.over[key]++;
      note(tally, `${key} error ${error.toExponential(2)} > ${bar}`, pixel);
    }
  };
  if (sample.point) {
    const error = Math.hypot(...sample.point.map((c, i) => c - truth.point[i])) / truth.distance;
    check('point', error, bars.point, 'worstPoint');
  }
  if (sample.bu !== undefined && sample.bv !== undefined)
    check(
      'barycentric',
      Math.max(Math.abs(sample.bu - truth.bu), Math.abs(sample.bv - truth.bv)),
      bars.barycentric,
      'worstBary',
    );
  if (sample.uv !== undefined) {
    if (truth.uv && sample.uv)
      check('uv', Math.max(...sample.uv.map((c, i) => Math.abs(c - truth.uv![i]))), bars.uv, 'worstUv');
    else if (!!truth.uv !== !!sample.uv) check('uv', Infinity, bars.uv, 'worstUv');
  }
  if (sample.normal !== undefined) {
    const expected = normalOnRaySide(truth);
    if (expected && sample.normal)
      check(
        'normal',
        angleDegrees(sample.normal, expected, !!sample.normalAsLine),
        bars.normalDegrees,
        'worstNormalDeg',
      );
    else if (!!truth.normalWorld !== !!sample.normal) check('normal', Infinity, bars.normalDegrees, 'worstNormalDeg');
  }
  if (sample.faceNormal)
    check(
      'normal',
      angleDegrees(sample.faceNormal, truth.faceNormalWorld, true),
      bars.normalDegrees,
      'worstFaceNormalDeg',
    );
}

/** Every bar the tally fails, as readable lines (empty when the path passes on the variant). */
export function tallyFailures(t: Tally): string[] {
  const failures: string[] = [];
  const ratio = (n: number, of: number) => (of === 0 ? 1 : n / of);
  if (t.missAgree !== t.misses)
    failures.push(`${t.misses - t.missAgree} of ${t.misses} reference misses hit something`);
  if (ratio(t.identity, t.hits) < ACCEPTANCE_BARS.ratio) failures.push(`identity ${t.identity}/${t.hits}`);
  if (ratio(t.face, t.faceCompared) < ACCEPTANCE_BARS.ratio) failures.push(`faceId ${t.face}/${t.faceCompared}`);
  for (const [key, count] of Object.entries(t.over))
    if (count > 0) failures.push(`${count} ${key} errors over the bar`);
  return failures;
}

const percent = (n: number, of: number) => (of === 0 ? '—' : `${((100 * n) / of).toFixed(2)} %`);
const exp = (v: number, used: boolean) => (used ? v.toExponential(1) : '—');

/** A Markdown table of the tallies (one row per path × variant), ready to paste. */
export function formatAcceptanceTable(
  tallies: readonly Tally[],
  produced: (t: Tally) => Record<string, boolean>,
  passes: (t: Tally) => boolean,
): string {
  const head =
    '| bars met | path | variant | judged px | hits | miss agree | identity | faceId | worst point / dist | worst bu,bv | worst UV | worst normal ° | worst face normal ° | skipped near edge / depth tie |';
  const rule = `|${head
    .split('|')
    .slice(1, -1)
    .map(() => '---')
    .join('|')}|`;
  const rows = tallies.map((t) => {
    const p = produced(t);
    return `| ${passes(t) ? 'yes' : 'NO'} | ${t.path} | ${t.variant} | ${t.judged} | ${t.hits} | ${percent(t.missAgree, t.misses)} | ${percent(t.identity, t.hits)} | ${p.face ? percent(t.face, t.faceCompared) : '—'} | ${exp(t.worstPoint, p.point)} | ${exp(t.worstBary, p.barycentric)} | ${exp(t.worstUv, p.uv)} | ${exp(t.worstNormalDeg, p.normal)} | ${exp(t.worstFaceNormalDeg, p.faceNormal)} | ${t.nearEdge} / ${t.depthTie} |`;
  });
  return [head, rule, ...rows].join('\n');
}
