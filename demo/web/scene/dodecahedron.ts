// A regular dodecahedron: 12 flat pentagons, each fanned into 3 triangles with its own vertices and normal.
import { vec3 } from 'wgpu-matrix';
import type { MeshData } from '../../../engine/index.js';

const phi = (1 + Math.sqrt(5)) / 2;

/** The 20 corners: (±1, ±1, ±1), (0, ±1/φ, ±φ), (±1/φ, ±φ, 0), (±φ, 0, ±1/φ); circumradius √3. */
function corners(): Float32Array[] {
  const out: Float32Array[] = [];
  const signs = [-1, 1];
  for (const x of signs) for (const y of signs) for (const z of signs) out.push(vec3.create(x, y, z));
  for (const a of signs) {
    for (const b of signs) {
      out.push(vec3.create(0, a / phi, b * phi), vec3.create(a / phi, b * phi, 0), vec3.create(a * phi, 0, b / phi));
    }
  }
  return out;
}

/** Face directions (the dual icosahedron's vertices): (0, ±φ, ±1) and its cyclic permutations. */
function faceNormals(): Float32Array[] {
  const out: Float32Array[] = [];
  for (const a of [-1, 1]) {
    for (const b of [-phi, phi])
      out.push(vec3.normalize([0, b, a]), vec3.normalize([b, a, 0]), vec3.normalize([a, 0, b]));
  }
  return out;
}

/** Dodecahedron with circumradius `radius` centred at the origin: 60 vertices, 36 CCW triangles, flat normals. */
export function makeDodecahedronData(radius = 1): MeshData {
  const points = corners();
  const scale = radius / Math.sqrt(3);
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  for (const normal of faceNormals()) {
    // The face's five corners are the ones farthest along its normal.
    const best = Math.max(...points.map((p) => vec3.dot(p, normal)));
    const face = points.filter((p) => vec3.dot(p, normal) > best - 1e-4);
    if (face.length !== 5) throw new Error(`makeDodecahedronData: a face has ${face.length} corners, expected 5`);
    const centre = vec3.divScalar(
      face.reduce((sum, p) => vec3.add(sum, p), vec3.create()),
      5,
    );
    const u = vec3.normalize(vec3.subtract(face[0], centre));
    const v = vec3.cross(normal, u);
    // Counter-clockwise seen from outside: increasing angle about the outward normal.
    face.sort((p, q) => angleIn(p, centre, u, v) - angleIn(q, centre, u, v));
    const base = positions.length / 3;
    for (const p of face) {
      positions.push(p[0] * scale, p[1] * scale, p[2] * scale);
      normals.push(normal[0], normal[1], normal[2]);
    }
    for (let k = 1; k < 4; k++) indices.push(base, base + k, base + k + 1);
  }
  return {
    positions: Float32Array.from(positions),
    normals: Float32Array.from(normals),
    indices: Uint16Array.from(indices),
  };
}

function angleIn(p: Float32Array, centre: Float32Array, u: Float32Array, v: Float32Array): number {
  const d = vec3.subtract(p, centre);
  return Math.atan2(vec3.dot(d, v), vec3.dot(d, u));
}
