// Timing and the result table shared by the CPU picking bench (bench/cpu-pick.ts).
import { median } from '../bench-timing.js';

const gc = (globalThis as { gc?: () => void }).gc;

/** Whether `global.gc` is exposed (NODE_OPTIONS=--expose-gc), so every sample starts from a collected heap. */
export const gcExposed = gc !== undefined;

export interface BenchConfig {
  /** Measured rounds per row (each round times every side once, in order). */
  rounds: number;
  /** Untimed rounds first, so every side is compiled and its caches are warm. */
  warmUp: number;
}

/**
 * Median milliseconds of each run over interleaved rounds: weft, three, weft, three, … after `warmUp` untimed rounds.
 * `before` (untimed) runs before every sample with the index of the run about to be timed, e.g. to move vertices before a
 * refit; a GC runs before every sample.
 */
export function interleaved(config: BenchConfig, runs: Array<() => void>, before?: (run: number) => void): number[] {
  const samples = runs.map(() => [] as number[]);
  for (let round = -config.warmUp; round < config.rounds; round++) {
    runs.forEach((run, i) => {
      before?.(i);
      gc?.();
      const start = performance.now();
      run();
      const elapsed = performance.now() - start;
      if (round >= 0) samples[i].push(elapsed);
    });
  }
  return samples.map(median);
}

/** What a row's ratio must be: `min` for speed (weft speed / three speed ≥ value), `max` for memory. */
export type Target = { kind: 'min' | 'max'; value: number } | null;

export interface Row {
  subject: string;
  measure: string;
  weft: string;
  three: string;
  ratio: number;
  target: Target;
  notes: string;
}

export const fmt = (v: number, digits = 0): string =>
  v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function status(row: Row): string {
  if (!row.target) return 'info';
  const met = row.target.kind === 'min' ? row.ratio >= row.target.value : row.ratio <= row.target.value;
  return met ? 'met' : 'MISSED';
}

function targetText(target: Target): string {
  if (!target) return '—';
  return `${target.kind === 'min' ? '≥' : '≤'} ${target.value}×`;
}

/** Prints the rows as a fixed-width table (columns sized to their widest cell). */
export function printTable(rows: readonly Row[]): void {
  const header = ['mesh / scene', 'measure', 'weft', 'three-mesh-bvh', 'ratio', 'target', '', 'notes'];
  const cells = rows.map((r) => [
    r.subject,
    r.measure,
    r.weft,
    r.three,
    `${fmt(r.ratio, 2)}×`,
    targetText(r.target),
    status(r),
    r.notes,
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...cells.map((row) => row[c].length)));
  const line = (row: string[]) =>
    row.map((cell, c) => (c >= 2 && c <= 4 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join(' | ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of cells) console.log(line(row));
}
