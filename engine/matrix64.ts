// Column-major 4×4 matrices in float64, for the few places (host cameras, picking rays) where wgpu-matrix's float32
// would round what the host gave: products, inverses and point transforms only.

/** @internal a × b (column-major, float64). */
export function multiplyMatrices64(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const out = new Float64Array(16);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++)
      out[c * 4 + r] = a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] + a[12 + r] * b[c * 4 + 3];
  return out;
}

/**
 * The inverse of a column-major 4×4 matrix in float64 (cofactors); null when it is singular or not finite.
 * @internal
 */
export function invertMatrix64(m: ArrayLike<number>): Float64Array | null {
  const [a00, a01, a02, a03, a10, a11, a12, a13, a20, a21, a22, a23, a30, a31, a32, a33] = Array.from(m);
  const b00 = a00 * a11 - a01 * a10;
  const b01 = a00 * a12 - a02 * a10;
  const b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11;
  const b04 = a01 * a13 - a03 * a11;
  const b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30;
  const b07 = a20 * a32 - a22 * a30;
  const b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31;
  const b10 = a21 * a33 - a23 * a31;
  const b11 = a22 * a33 - a23 * a32;
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  if (det === 0 || !Number.isFinite(det)) return null;
  const s = 1 / det;
  const out = Float64Array.of(
    (a11 * b11 - a12 * b10 + a13 * b09) * s,
    (a02 * b10 - a01 * b11 - a03 * b09) * s,
    (a31 * b05 - a32 * b04 + a33 * b03) * s,
    (a22 * b04 - a21 * b05 - a23 * b03) * s,
    (a12 * b08 - a10 * b11 - a13 * b07) * s,
    (a00 * b11 - a02 * b08 + a03 * b07) * s,
    (a32 * b02 - a30 * b05 - a33 * b01) * s,
    (a20 * b05 - a22 * b02 + a23 * b01) * s,
    (a10 * b10 - a11 * b08 + a13 * b06) * s,
    (a01 * b08 - a00 * b10 - a03 * b06) * s,
    (a30 * b04 - a31 * b02 + a33 * b00) * s,
    (a21 * b02 - a20 * b04 - a23 * b00) * s,
    (a11 * b07 - a10 * b09 - a12 * b06) * s,
    (a00 * b09 - a01 * b07 + a02 * b06) * s,
    (a31 * b01 - a30 * b03 - a32 * b00) * s,
    (a20 * b03 - a21 * b01 + a22 * b00) * s,
  );
  return out.every(Number.isFinite) ? out : null;
}

/** @internal m × (x, y, z, 1) as homogeneous (x, y, z, w), not divided. */
export function transformPoint64(
  m: ArrayLike<number>,
  x: number,
  y: number,
  z: number,
): [number, number, number, number] {
  return [
    m[0] * x + m[4] * y + m[8] * z + m[12],
    m[1] * x + m[5] * y + m[9] * z + m[13],
    m[2] * x + m[6] * y + m[10] * z + m[14],
    m[3] * x + m[7] * y + m[11] * z + m[15],
  ];
}
