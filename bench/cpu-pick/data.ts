// Meshes, cameras, rays and byte counts for the CPU picking bench (bench/cpu-pick.ts).
import { BufferAttribute, BufferGeometry, PerspectiveCamera, Raycaster, Vector2 } from 'three';
import type { MeshBVH } from 'three-mesh-bvh';
import { makePerspectiveCamera, type PerspectiveCamera as WeftCamera } from '../../engine/camera.js';
import { makeTorusData } from '../../engine/primitives/index.js';

/** One mesh's raw data, exactly as both libraries receive it. */
export interface MeshCase {
  label: string;
  positions: Float32Array;
  indices: Uint16Array | Uint32Array;
}

/** 6 numbers per ray: origin, unit direction. */
export type Rays = Float64Array;

export function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The `bunny` package's own positions and cells, not rescaled, not re-wound (makeBunnyDataAsync fits the bunny to a
 * unit box by default and may flip the winding, so it is not used here).
 */
export async function loadRawBunny(): Promise<MeshCase> {
  const loaded = (await import('bunny')) as { positions: number[][]; cells: number[][] } & {
    default?: { positions: number[][]; cells: number[][] };
  };
  const source = loaded.default ?? loaded;
  return {
    label: 'bunny (package as is)',
    positions: Float32Array.from(source.positions.flat()),
    indices: Uint32Array.from(source.cells.flat()),
  };
}

/** A 500 000-triangle torus. */
export function makeBigMesh(): MeshCase {
  const data = makeTorusData({ radius: 1, tube: 0.4, radialSegments: 500, tubularSegments: 500 });
  return { label: 'torus', positions: data.positions!, indices: data.indices! };
}

/** A three.js geometry over the same positions array and a copy of the index (three-mesh-bvh reorders it in place). */
export function threeGeometry(positions: Float32Array, indices: Uint16Array | Uint32Array): BufferGeometry {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(positions, 3));
  geometry.setIndex(new BufferAttribute(indices.slice(), 1));
  return geometry;
}

export function boundsOf(positions: Float32Array): { centre: number[]; extent: number } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    const a = i % 3;
    if (positions[i] < min[a]) min[a] = positions[i];
    if (positions[i] > max[a]) max[a] = positions[i];
  }
  return {
    centre: [0, 1, 2].map((a) => (min[a] + max[a]) / 2),
    extent: Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]),
  };
}

/** The same camera in both libraries: three.js builds it (position + lookAt), weft gets the same parameters. */
export interface CameraPair {
  three: PerspectiveCamera;
  weft: WeftCamera;
  width: number;
  height: number;
}

export function makeCameraPair(centre: number[], distance: number, width: number, height: number): CameraPair {
  const fovY = 0.8;
  const position = [centre[0] + distance * 0.55, centre[1] + distance * 0.35, centre[2] + distance * 0.76];
  const three = new PerspectiveCamera((fovY * 180) / Math.PI, width / height, distance * 0.01, distance * 10);
  three.position.set(position[0], position[1], position[2]);
  three.lookAt(centre[0], centre[1], centre[2]);
  three.updateMatrixWorld(true);
  three.updateProjectionMatrix();
  const weft = makePerspectiveCamera({ position, target: centre, fovY, near: three.near, far: three.far });
  return { three, weft, width, height };
}

/** Coherent rays: three.js `Raycaster.setFromCamera` through every pixel centre of the camera's grid, row by row. */
export function cameraRays(camera: CameraPair): Rays {
  const { width, height } = camera;
  const raycaster = new Raycaster();
  const ndc = new Vector2();
  const rays = new Float64Array(width * height * 6);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      ndc.set(((x + 0.5) / width) * 2 - 1, 1 - ((y + 0.5) / height) * 2);
      raycaster.setFromCamera(ndc, camera.three);
      const { origin: o, direction: d } = raycaster.ray;
      rays.set([o.x, o.y, o.z, d.x, d.y, d.z], (y * width + x) * 6);
    }
  }
  return rays;
}

/** Incoherent rays: from random points of a box 3× the extent towards random points inside the bounds. */
export function randomRays(centre: number[], extent: number, count: number, seed: number): Rays {
  const rand = seeded(seed);
  const rays = new Float64Array(count * 6);
  for (let i = 0; i < count; i++) {
    const o = [0, 1, 2].map((a) => centre[a] + (rand() - 0.5) * extent * 3);
    const t = [0, 1, 2].map((a) => centre[a] + (rand() - 0.5) * extent);
    const d = [t[0] - o[0], t[1] - o[1], t[2] - o[2]];
    const l = Math.hypot(d[0], d[1], d[2]);
    rays.set([o[0], o[1], o[2], d[0] / l, d[1] / l, d[2] / l], i * 6);
  }
  return rays;
}

/**
 * Bytes of every distinct ArrayBuffer behind the typed arrays reachable from `root` (own properties, 3 levels deep),
 * skipping `exclude` (the mesh's own positions / index, which the mesh keeps anyway). Written against the BVH object
 * rather than its field names, so it keeps counting right when the BVH's layout changes.
 */
export function typedArrayBytes(root: unknown, exclude: readonly ArrayBufferLike[] = []): number {
  const seen = new Set<ArrayBufferLike>(exclude);
  let bytes = 0;
  const visit = (value: unknown, depth: number) => {
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
      const buffer = value instanceof ArrayBuffer ? value : value.buffer;
      if (!seen.has(buffer)) {
        seen.add(buffer);
        bytes += buffer.byteLength;
      }
    } else if (value && typeof value === 'object' && depth < 3) {
      for (const child of Object.values(value)) visit(child, depth + 1);
    }
  };
  visit(root, 0);
  return bytes;
}

/**
 * three-mesh-bvh's own structures: the packed node buffers (`_roots`) and, in indirect mode, `_indirectBuffer`. Without
 * `indirect` (its default) it reorders the geometry's existing index in place and allocates nothing else.
 */
export function threeBvhBytes(bvh: MeshBVH): number {
  const internal = bvh as unknown as { _roots: ArrayBuffer[]; _indirectBuffer: Uint32Array | Uint16Array | null };
  return typedArrayBytes({ roots: internal._roots, indirect: internal._indirectBuffer });
}
