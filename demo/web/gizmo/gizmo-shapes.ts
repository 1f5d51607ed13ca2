// Handle geometry of the gizmo, in gizmo units (the arrow is 1 long) along +Y; the layout rotates it per axis.
import { makeBoxData, type MeshData } from '../../../engine/index.js';

/** Triangle soup being assembled: positions, normals and 16-bit indices. */
interface ShapeBuilder {
  positions: number[];
  normals: number[];
  indices: number[];
}

const segments = 16;

/** A side-only cylinder (or cone when `topRadius` is 0) around +Y from y0 to y1, outward normals, with a base disk. */
function addFrustum(b: ShapeBuilder, bottomRadius: number, topRadius: number, y0: number, y1: number): void {
  const base = b.positions.length / 3;
  const slope = (bottomRadius - topRadius) / (y1 - y0);
  const scale = 1 / Math.hypot(1, slope);
  for (let i = 0; i <= segments; i++) {
    const a = (i / segments) * Math.PI * 2;
    const cos = Math.cos(a);
    const sin = Math.sin(a);
    b.positions.push(bottomRadius * cos, y0, bottomRadius * sin, topRadius * cos, y1, topRadius * sin);
    b.normals.push(cos * scale, slope * scale, sin * scale, cos * scale, slope * scale, sin * scale);
  }
  for (let i = 0; i < segments; i++) {
    const v = base + i * 2;
    b.indices.push(v, v + 1, v + 2, v + 1, v + 3, v + 2);
  }
  const centre = b.positions.length / 3;
  b.positions.push(0, y0, 0);
  b.normals.push(0, -1, 0);
  for (let i = 0; i <= segments; i++) {
    const a = (i / segments) * Math.PI * 2;
    b.positions.push(bottomRadius * Math.cos(a), y0, bottomRadius * Math.sin(a));
    b.normals.push(0, -1, 0);
  }
  for (let i = 0; i < segments; i++) b.indices.push(centre, centre + 1 + i, centre + 2 + i);
}

/** An axis-aligned cube of edge `size` centred on the Y axis at height `y`. */
function addCube(b: ShapeBuilder, size: number, y: number): void {
  const box = makeBoxData({ width: size, height: size, depth: size });
  const base = b.positions.length / 3;
  const p = box.positions!;
  for (let i = 0; i < p.length; i += 3) b.positions.push(p[i], p[i + 1] + y, p[i + 2]);
  b.normals.push(...box.normals!);
  for (const index of box.indices!) b.indices.push(base + index);
}

function finish(b: ShapeBuilder): MeshData {
  return {
    positions: Float32Array.from(b.positions),
    normals: Float32Array.from(b.normals),
    indices: Uint16Array.from(b.indices),
  };
}

/** Where handles sit along their axis, in gizmo units. */
export const gizmoProportions = {
  shaftStart: 0.14,
  shaftRadius: 0.012,
  coneStart: 0.8,
  coneRadius: 0.055,
  scaleBoxCentre: 0.9,
  scaleBoxSize: 0.1,
  ringRadius: 0.85,
  ringTube: 0.013,
  centreBoxSize: 0.15,
} as const;

/** Translate handle: a thin shaft and a cone tip. */
export function makeArrowData(): MeshData {
  const g = gizmoProportions;
  const b: ShapeBuilder = { positions: [], normals: [], indices: [] };
  addFrustum(b, g.shaftRadius, g.shaftRadius, g.shaftStart, g.coneStart);
  addFrustum(b, g.coneRadius, 0, g.coneStart, 1);
  return finish(b);
}

/** Scale handle: a thin shaft ending in a cube. */
export function makeScaleHandleData(): MeshData {
  const g = gizmoProportions;
  const b: ShapeBuilder = { positions: [], normals: [], indices: [] };
  addFrustum(b, g.shaftRadius, g.shaftRadius, g.shaftStart, g.scaleBoxCentre - g.scaleBoxSize / 2);
  addCube(b, g.scaleBoxSize, g.scaleBoxCentre);
  return finish(b);
}

/** The centre handle: free move (translate) or uniform scale (scale). */
export function makeCentreHandleData(): MeshData {
  const b: ShapeBuilder = { positions: [], normals: [], indices: [] };
  addCube(b, gizmoProportions.centreBoxSize, 0);
  return finish(b);
}
