/** Median of a sample (the input is not reordered). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Milliseconds `work` takes, awaited. */
export async function time(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** "met" or "MISSED" for a measured value against a target (`atMost` when lower is better). */
export function verdict(value: number, target: number, direction: 'atMost' | 'atLeast'): string {
  return (direction === 'atMost' ? value <= target : value >= target) ? 'met' : 'MISSED';
}

/** Prints rows under a header, each column right-aligned to its widest cell. */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => cell.padStart(widths[i])).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

/** Runs the garbage collector when node was started with --expose-gc, so one sample does not pay another's garbage. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

let evictBuffer: Float64Array | undefined;
/** Reads 64 MiB, more than the last-level cache holds: the next step starts with cold CPU caches. */
export function evictCaches(): number {
  evictBuffer ??= new Float64Array(8 * 1024 * 1024).fill(1);
  let sum = 0;
  for (let i = 0; i < evictBuffer.length; i += 8) sum += evictBuffer[i];
  return sum;
}
