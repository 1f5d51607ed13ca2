// A (p, q) torus knot tube: the editor's dense mesh (default 256 × 32 segments = 16 384 triangles).
import { vec3 } from 'wgpu-matrix';
import { computeSmoothNormals, type MeshData } from '../../../engine/index.js';

/** Options of `makeTorusKnotData`. */
export interface TorusKnotOptions {
  /** Radius of the torus the curve winds around. */
  radius?: number;
  /** Radius of the tube swept along the curve. */
  tube?: number;
  p?: number;
  q?: number;
  tubularSegments?: number;
  radialSegments?: number;
}

function curvePoint(t: number, p: number, q: number, radius: number, out: Float32Array): Float32Array {
  const r = radius * (2 + Math.cos(q * t)) * 0.5;
  return vec3.set(r * Math.cos(p * t), radius * Math.sin(q * t) * 0.5, r * Math.sin(p * t), out);
}

/** A closed tube around a torus-knot curve, CCW outward triangles, smooth normals, 32-bit indices. */
export function makeTorusKnotData(options: TorusKnotOptions = {}): MeshData {
  const { radius = 0.4, tube = 0.09, p = 2, q = 3, tubularSegments = 256, radialSegments = 32 } = options;
  const columns = radialSegments + 1;
  const positions = new Float32Array((tubularSegments + 1) * columns * 3);
  const here = vec3.create();
  const ahead = vec3.create();
  for (let i = 0; i <= tubularSegments; i++) {
    const t = (i / tubularSegments) * Math.PI * 2;
    curvePoint(t, p, q, radius, here);
    curvePoint(t + 1e-3, p, q, radius, ahead);
    // A frame from the tangent and the (curve + ahead) sum: it never degenerates for a torus knot.
    const tangent = vec3.normalize(vec3.subtract(ahead, here));
    const binormal = vec3.normalize(vec3.cross(tangent, vec3.add(ahead, here)));
    const normal = vec3.cross(binormal, tangent);
    for (let j = 0; j <= radialSegments; j++) {
      const a = (j / radialSegments) * Math.PI * 2;
      const c = -tube * Math.cos(a);
      const s = tube * Math.sin(a);
      const at = (i * columns + j) * 3;
      for (let k = 0; k < 3; k++) positions[at + k] = here[k] + c * normal[k] + s * binormal[k];
    }
  }
  const indices = new Uint32Array(tubularSegments * radialSegments * 6);
  let n = 0;
  for (let i = 0; i < tubularSegments; i++) {
    for (let j = 0; j < radialSegments; j++) {
      const a = i * columns + j;
      const b = (i + 1) * columns + j;
      indices.set([a, b, a + 1, b, b + 1, a + 1], n);
      n += 6;
    }
  }
  return { positions, normals: computeSmoothNormals(positions, indices), indices };
}
