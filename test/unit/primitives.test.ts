import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../engine/engine.js';
import { EngineError } from '../../engine/engine-errors.js';
import type { MeshData } from '../../engine/mesh-data.js';
import {
  computeSmoothNormals,
  createBoxMesh,
  createBunnyMeshAsync,
  makeBoxData,
  makeBunnyDataAsync,
  makeCapsuleData,
  makePlaneData,
  makeSphereData,
  makeTorusData,
} from '../../engine/primitives/index.js';
import { createScene } from '../../engine/scene.js';

type V3 = [number, number, number];

const vertex = (p: Float32Array, i: number): V3 => [p[i * 3], p[i * 3 + 1], p[i * 3 + 2]];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const normalize = (a: V3): V3 => {
  const l = Math.hypot(...a);
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** Maps each vertex to the first vertex within `eps` (grid hashing over neighbouring cells). */
function weld(positions: Float32Array, eps = 1e-6): number[] {
  const cells = new Map<string, number[]>();
  const ids: number[] = [];
  for (let v = 0; v < positions.length / 3; v++) {
    const p = vertex(positions, v);
    const c = p.map((x) => Math.floor(x / eps));
    let found = -1;
    for (let dx = -1; dx <= 1 && found < 0; dx++)
      for (let dy = -1; dy <= 1 && found < 0; dy++)
        for (let dz = -1; dz <= 1 && found < 0; dz++) {
          for (const other of cells.get(`${c[0] + dx},${c[1] + dy},${c[2] + dz}`) ?? []) {
            if (Math.max(...sub(p, vertex(positions, other)).map(Math.abs)) <= eps) found = other;
          }
        }
    if (found < 0) {
      found = v;
      const key = c.join(',');
      cells.set(key, [...(cells.get(key) ?? []), v]);
    }
    ids.push(found);
  }
  return ids;
}

/** Directed edge counts after welding; a closed, consistently wound mesh has each once, reverse once. */
function edgeReport(data: MeshData): { degenerate: number; undirected: Map<string, number>; directedRepeats: number } {
  const ids = weld(data.positions!);
  const idx = data.indices!;
  const undirected = new Map<string, number>();
  const directed = new Set<string>();
  let degenerate = 0;
  let directedRepeats = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const [a, b, c] = [ids[idx[t]], ids[idx[t + 1]], ids[idx[t + 2]]];
    if (a === b || b === c || a === c) degenerate++;
    for (const [u, v] of [
      [a, b],
      [b, c],
      [c, a],
    ]) {
      const key = `${Math.min(u, v)}-${Math.max(u, v)}`;
      undirected.set(key, (undirected.get(key) ?? 0) + 1);
      if (directed.has(`${u}>${v}`)) directedRepeats++;
      directed.add(`${u}>${v}`);
    }
  }
  return { degenerate, undirected, directedRepeats };
}

function expectWatertight(data: MeshData): void {
  const report = edgeReport(data);
  expect(report.degenerate).toBe(0);
  expect([...report.undirected.values()].every((n) => n === 2)).toBe(true);
  expect(report.directedRepeats).toBe(0);
}

function signedVolume(data: MeshData): number {
  const p = data.positions!;
  const idx = data.indices!;
  let volume = 0;
  for (let t = 0; t < idx.length; t += 3)
    volume += dot(vertex(p, idx[t]), cross(vertex(p, idx[t + 1]), vertex(p, idx[t + 2]))) / 6;
  return volume;
}

function expectUnitNormalsNear(data: MeshData, analytic: (p: V3) => V3, tolerance = 1e-3): void {
  const n = data.normals!;
  let worst = 0;
  let worstLength = 0;
  for (let v = 0; v < n.length / 3; v++) {
    const normal = vertex(n, v);
    worstLength = Math.max(worstLength, Math.abs(Math.hypot(...normal) - 1));
    const expected = analytic(vertex(data.positions!, v));
    worst = Math.max(worst, Math.max(...sub(normal, expected).map(Math.abs)));
  }
  expect(worstLength).toBeLessThan(1e-6);
  expect(worst).toBeLessThan(tolerance);
}

/** Every triangle's geometric normal agrees with its vertices' normals (CCW = front = outward). */
function expectFacesAgreeWithNormals(data: MeshData): void {
  const p = data.positions!;
  const idx = data.indices!;
  let disagreements = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const face = cross(sub(vertex(p, idx[t + 1]), vertex(p, idx[t])), sub(vertex(p, idx[t + 2]), vertex(p, idx[t])));
    for (let k = 0; k < 3; k++) if (!(dot(face, vertex(data.normals!, idx[t + k])) > 0)) disagreements++;
  }
  expect(disagreements).toBe(0);
}

function expectUvsInRange(data: MeshData): void {
  expect(data.uvs!.length / 2).toBe(data.positions!.length / 3);
  expect(data.uvs!.every((x) => x >= 0 && x <= 1)).toBe(true);
}

function maxIndex(indices: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < indices.length; i++) max = Math.max(max, indices[i]);
  return max;
}

function expectIndexWidth(data: MeshData): void {
  const vertexCount = data.positions!.length / 3;
  expect(data.indices).toBeInstanceOf(vertexCount <= 65535 ? Uint16Array : Uint32Array);
  expect(maxIndex(data.indices!)).toBeLessThan(vertexCount);
}

function expectEngineError(run: () => unknown, ...fragments: string[]): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(EngineError);
  for (const fragment of fragments) expect((caught as Error).message).toContain(fragment);
}

describe('box', () => {
  it('has 24 vertices, flat normals, is closed and wound outward with volume w·h·d', () => {
    const data = makeBoxData({ width: 2, height: 3, depth: 4 });
    expect(data.positions!.length).toBe(24 * 3);
    expect(data.indices!.length).toBe(36);
    expectIndexWidth(data);
    expectWatertight(data);
    expect(signedVolume(data)).toBe(24);
    expectUvsInRange(data);
    expectFacesAgreeWithNormals(data);
    // Flat normals: each vertex's normal is a unit axis, and the vertex lies on that face's plane.
    const half = [1, 1.5, 2];
    for (let v = 0; v < 24; v++) {
      const n = vertex(data.normals!, v);
      const axis = n.findIndex((c) => c !== 0);
      expect(n.filter((c) => c !== 0)).toHaveLength(1);
      expect(Math.abs(n[axis])).toBe(1);
      expect(dot(vertex(data.positions!, v), n)).toBe(half[axis]);
    }
  });

  it('defaults to a unit cube and adds a mesh through createBoxMesh', () => {
    expect(signedVolume(makeBoxData())).toBe(1);
    const scene = createScene({} as Engine);
    const mesh = createBoxMesh(scene, 'crate', { width: 2 });
    expect(scene.meshes).toEqual([mesh]);
    expect(mesh.geometry.vertexCount).toBe(24);
    expect(mesh.localBounds.max).toEqual([1, 0.5, 0.5]);
  });
});

describe('sphere', () => {
  it('is closed, outward, and ≈ 4/3πr³ at 64×32', () => {
    const radius = 0.75;
    const data = makeSphereData({ radius, segments: 64, rings: 32 });
    expectWatertight(data);
    const analytic = (4 / 3) * Math.PI * radius ** 3;
    const volume = signedVolume(data);
    expect(volume).toBeGreaterThan(0);
    expect(Math.abs(volume - analytic) / analytic).toBeLessThan(0.02);
    expectUnitNormalsNear(data, normalize);
    expectFacesAgreeWithNormals(data);
    expectUvsInRange(data);
    expectIndexWidth(data);
  });

  it('has the documented default tessellation', () => {
    const data = makeSphereData();
    expect(data.positions!.length / 3).toBe(17 * 33);
    expect(data.indices!.length / 3).toBe(2 * 32 * 16 - 2 * 32); // one triangle per pole cell
    expectWatertight(data);
    expect(Math.max(...Array.from(data.positions!).map(Math.abs))).toBeCloseTo(0.5, 6);
  });
});

describe('torus', () => {
  it('is closed, outward, and ≈ 2π²Rr²', () => {
    const [R, r] = [0.6, 0.15];
    const data = makeTorusData({ radius: R, tube: r, radialSegments: 64, tubularSegments: 128 });
    expectWatertight(data);
    const analytic = 2 * Math.PI ** 2 * R * r * r;
    expect(Math.abs(signedVolume(data) - analytic) / analytic).toBeLessThan(0.02);
    expectUnitNormalsNear(data, (p) => {
      const ring = normalize([p[0], 0, p[2]]);
      return normalize(sub(p, [ring[0] * R, 0, ring[2] * R]));
    });
    expectFacesAgreeWithNormals(data);
    expectUvsInRange(data);
  });

  it('defaults are closed and outward too', () => {
    const data = makeTorusData();
    expectWatertight(data);
    expect(signedVolume(data)).toBeGreaterThan(0);
    expect(data.positions!.length / 3).toBe(17 * 33);
  });
});

describe('capsule', () => {
  const capsuleNormal =
    (halfCylinder: number) =>
    (p: V3): V3 => {
      const centreY = Math.max(-halfCylinder, Math.min(halfCylinder, p[1]));
      return normalize([p[0], p[1] - centreY, p[2]]);
    };

  it('is closed, outward, and ≈ πr²L + 4/3πr³', () => {
    const [radius, height] = [0.3, 1.4];
    const data = makeCapsuleData({ radius, height, segments: 64, capRings: 16 });
    expectWatertight(data);
    const analytic = Math.PI * radius ** 2 * (height - 2 * radius) + (4 / 3) * Math.PI * radius ** 3;
    expect(Math.abs(signedVolume(data) - analytic) / analytic).toBeLessThan(0.02);
    expectUnitNormalsNear(data, capsuleNormal(height / 2 - radius));
    expectFacesAgreeWithNormals(data);
    expectUvsInRange(data);
    const ys = Array.from(data.positions!).filter((_, i) => i % 3 === 1);
    expect(Math.max(...ys)).toBeCloseTo(0.7, 6);
    expect(Math.min(...ys)).toBeCloseTo(-0.7, 6);
  });

  it('stays closed with defaults and with no cylinder (height = 2r)', () => {
    for (const data of [makeCapsuleData(), makeCapsuleData({ radius: 0.5, height: 1, capRings: 1, segments: 3 })]) {
      expectWatertight(data);
      expect(signedVolume(data)).toBeGreaterThan(0);
      expectFacesAgreeWithNormals(data);
    }
  });
});

describe('plane', () => {
  it('faces +Y, has an open border of 4n edges and area w·d', () => {
    const n = 5;
    const data = makePlaneData({ width: 3, depth: 2, subdivisions: n });
    const report = edgeReport(data);
    const counts = [...report.undirected.values()];
    expect(counts.filter((c) => c === 1).length).toBe(4 * n);
    expect(counts.every((c) => c === 1 || c === 2)).toBe(true);
    expect(report.directedRepeats).toBe(0);
    let area = 0;
    const p = data.positions!;
    const idx = data.indices!;
    for (let t = 0; t < idx.length; t += 3) {
      const face = cross(sub(vertex(p, idx[t + 1]), vertex(p, idx[t])), sub(vertex(p, idx[t + 2]), vertex(p, idx[t])));
      expect(face[1]).toBeGreaterThan(0);
      area += face[1] / 2;
    }
    expect(area).toBeCloseTo(6, 6);
    expectUnitNormalsNear(data, () => [0, 1, 0], 1e-9);
    expectUvsInRange(data);
  });

  it('switches to 32-bit indices above 65535 vertices', () => {
    expect(makePlaneData({ subdivisions: 254 }).indices).toBeInstanceOf(Uint16Array); // 255² = 65025
    const big = makePlaneData({ subdivisions: 300 });
    expect(big.indices).toBeInstanceOf(Uint32Array);
    expect(maxIndex(big.indices!)).toBe(301 * 301 - 1);
  });
});

describe('bunny', () => {
  it('keeps the package counts, winds outward, fits a unit box and has unit normals', async () => {
    const data = await makeBunnyDataAsync();
    expect(data.positions!.length / 3).toBe(1839);
    expect(data.indices!.length / 3).toBe(3674);
    expect(data.indices).toBeInstanceOf(Uint16Array);
    expectWatertight(data); // the package's scan is closed: every edge has two triangles
    expect(signedVolume(data)).toBeGreaterThan(0);
    const p = Array.from(data.positions!);
    const extent = [0, 1, 2].map((c) => {
      const axis = p.filter((_, i) => i % 3 === c);
      return [Math.min(...axis), Math.max(...axis)];
    });
    expect(Math.max(...extent.map(([lo, hi]) => hi - lo))).toBeCloseTo(1, 6);
    for (const [lo, hi] of extent) expect(lo + hi).toBeCloseTo(0, 6);
    const lengths = Array.from({ length: 1839 }, (_, v) => Math.hypot(...vertex(data.normals!, v)));
    expect(lengths.every((l) => Math.abs(l - 1) < 1e-6)).toBe(true);
  });

  it('can keep the package coordinates; the mesh wrapper adds it to the scene', async () => {
    const raw = createRequire(import.meta.url)('bunny') as { positions: number[][] };
    const data = await makeBunnyDataAsync({ fitToUnitBox: false });
    expect(Array.from(data.positions!.subarray(0, 6))).toEqual(
      Array.from(Float32Array.from(raw.positions.slice(0, 2).flat())),
    );
    const scene = createScene({} as Engine);
    const mesh = await createBunnyMeshAsync(scene, 'bunny');
    expect(scene.meshes).toEqual([mesh]);
    expect(mesh.geometry.triangleCount).toBe(3674);
  });
});

describe('computeSmoothNormals', () => {
  it('weights face normals by triangle area', () => {
    // A 2×2 triangle in XY (normal +Z, area 2) and a 1×1 triangle in XZ (normal +Y, area 0.5) share vertex 0.
    const positions = new Float32Array([0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, -1, 1, 0, 0]);
    const normals = computeSmoothNormals(positions, [0, 1, 2, 0, 4, 3]);
    const expected = normalize([0, 0.5, 2]);
    for (let c = 0; c < 3; c++) expect(normals[c]).toBeCloseTo(expected[c], 6);
    expect(Array.from(normals.subarray(3, 6))).toEqual([0, 0, 1]);
  });
});

describe('option validation', () => {
  it('refuses bad sizes and segment counts, naming the function, option and range', () => {
    expectEngineError(() => makeSphereData({ segments: 2 }), 'makeSphereData', 'segments', '3..1024');
    expectEngineError(() => makeSphereData({ rings: 4.5 }), 'makeSphereData', 'rings', '2..1024');
    expectEngineError(() => makeSphereData({ radius: -1 }), 'makeSphereData', 'radius', '> 0');
    expectEngineError(() => makeBoxData({ width: Number.NaN }), 'makeBoxData', 'width', 'NaN');
    expectEngineError(() => makeBoxData({ depth: Infinity }), 'makeBoxData', 'depth');
    expectEngineError(() => makeBoxData({ height: '1' as unknown as number }), 'makeBoxData', 'height', '"1"');
    expectEngineError(() => makePlaneData({ subdivisions: 0 }), 'makePlaneData', 'subdivisions', '1..1024');
    expectEngineError(() => makeTorusData({ tubularSegments: 1e6 }), 'makeTorusData', 'tubularSegments');
    expectEngineError(() => makeTorusData({ radius: 0.2, tube: 0.3 }), 'makeTorusData', 'tube');
    expectEngineError(() => makeCapsuleData({ radius: 0.5, height: 0.9 }), 'makeCapsuleData', 'height', '2 × radius');
    expectEngineError(() => makeCapsuleData({ capRings: 0 }), 'makeCapsuleData', 'capRings', '1..1024');
    expectEngineError(
      () => makeSphereData({ radiu: 1 } as never),
      'makeSphereData',
      '"radiu"',
      'radius, segments, rings',
    );
    expectEngineError(() => makeBoxData(null as never), 'makeBoxData', 'options');
  });

  it('refuses bad bunny options', async () => {
    await expect(makeBunnyDataAsync({ fitToUnitBox: 'yes' as never })).rejects.toThrow(EngineError);
    await expect(makeBunnyDataAsync({ scale: 2 } as never)).rejects.toThrow(/makeBunnyDataAsync.*"scale"/);
  });
});
