/** Area-weighted smooth vertex normals (unit length; +Y for vertices no triangle uses). */
export function computeSmoothNormals(positions: Float32Array, indices: ArrayLike<number>): Float32Array {
  const sums = new Float64Array(positions.length);
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const i0 = indices[t] * 3;
    const i1 = indices[t + 1] * 3;
    const i2 = indices[t + 2] * 3;
    const ex = positions[i1] - positions[i0];
    const ey = positions[i1 + 1] - positions[i0 + 1];
    const ez = positions[i1 + 2] - positions[i0 + 2];
    const fx = positions[i2] - positions[i0];
    const fy = positions[i2 + 1] - positions[i0 + 1];
    const fz = positions[i2 + 2] - positions[i0 + 2];
    // The unnormalised cross product is twice the triangle's area: summing it weights by area.
    const nx = ey * fz - ez * fy;
    const ny = ez * fx - ex * fz;
    const nz = ex * fy - ey * fx;
    for (const i of [i0, i1, i2]) {
      sums[i] += nx;
      sums[i + 1] += ny;
      sums[i + 2] += nz;
    }
  }
  const normals = new Float32Array(positions.length);
  for (let i = 0; i < sums.length; i += 3) {
    const length = Math.hypot(sums[i], sums[i + 1], sums[i + 2]);
    if (length > 0) {
      normals[i] = sums[i] / length;
      normals[i + 1] = sums[i + 1] / length;
      normals[i + 2] = sums[i + 2] / length;
    } else {
      normals[i + 1] = 1;
    }
  }
  return normals;
}
