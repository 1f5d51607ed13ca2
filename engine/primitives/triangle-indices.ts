/** @internal Packs triangle indices into 16 bits when every vertex fits, 32 bits otherwise. */
export function makeIndexArray(values: ArrayLike<number>, vertexCount: number): Uint16Array | Uint32Array {
  return vertexCount <= 65535 ? Uint16Array.from(values) : Uint32Array.from(values);
}

/**
 * Appends grid cell a = (row, col), b = (row, col + 1), c = (row + 1, col), d = (row + 1, col + 1)
 * as two triangles whose front face is on the (row step × column step) side.
 * `skipFirst` / `skipSecond` drop the triangle that collapses at a pole.
 * @internal
 */
export function pushGridCell(
  out: number[],
  a: number,
  b: number,
  c: number,
  d: number,
  skipFirst = false,
  skipSecond = false,
): void {
  if (!skipFirst) out.push(a, c, b);
  if (!skipSecond) out.push(b, c, d);
}
