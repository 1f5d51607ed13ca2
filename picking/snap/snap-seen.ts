// The triangles seen in the snap block, read from its readback into arrays reused from snap to snap: each (pick ID,
// face) once, with its world corners as drawn. A snap's code runs cold (between idle moments), so the per-texel and
// per-triangle work allocates nothing and each mesh or instance seen is looked up once.
import { composeInstanceWorld } from '../detailed-picking.js';
import type { PickReadback } from '../gpu/pick-readback.js';
import { findCandidate, meshAsCaptured, type PickSnapshot, snapshotInstanceMatrix } from '../pick-snapshot.js';
import type { PickingRay } from '../picking-ray.js';
import type { PickSubject } from '../sources/pick-source.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';
import { getFeatureEdges } from './snap-edges.js';

/**
 * @internal The triangles seen in the snap block, as parallel arrays (reused between snaps: the first `count` hold
 * this snap's). Triangle i's world corners (float64, as drawn) are `corners[9i .. 9i + 9]`: x, y, z of corner 0, 1, 2.
 */
export interface SnapTriangles {
  count: number;
  corners: Float64Array;
  /** The corners' vertex indices, at 3i. */
  vertices: Uint32Array;
  /** Bit k set: edge k (corners k, (k + 1) % 3) is a feature edge. */
  featureEdges: Uint8Array;
  /** The pick ID each was drawn with (orders equal candidates deterministically), and its face index. */
  ids: Uint32Array;
  faces: Uint32Array;
}

/** @internal Room for `capacity` triangles. */
export function makeSnapTriangles(capacity: number): SnapTriangles {
  return {
    count: 0,
    corners: new Float64Array(capacity * 9),
    vertices: new Uint32Array(capacity * 3),
    featureEdges: new Uint8Array(capacity),
    ids: new Uint32Array(capacity),
    faces: new Uint32Array(capacity),
  };
}

/** @internal Doubles the room, keeping the first `count` triangles. */
export function growSnapTriangles(triangles: SnapTriangles): void {
  const grown = makeSnapTriangles(triangles.ids.length * 2);
  grown.corners.set(triangles.corners);
  grown.vertices.set(triangles.vertices);
  grown.featureEdges.set(triangles.featureEdges);
  grown.ids.set(triangles.ids);
  grown.faces.set(triangles.faces);
  Object.assign(triangles, { ...grown, count: triangles.count });
}

/** The primitive index contributors write: "no triangle detail here". */
const noPrimitive = 0xffffffff;

/** A mesh or thin instance seen in the block: what its triangles' corners are computed from. */
interface SeenOwner {
  id: number;
  mesh: PickSubject | null;
  deformed: boolean;
  instance: number;
  world: Float32Array | null;
  featureEdges: Uint8Array | null;
}

/**
 * Seen (ID, face) pairs in an open-addressed table whose slots count as empty unless stamped with this snap's
 * generation, so nothing is cleared between snaps. Sized for the largest block (33² texels) at most half full.
 */
interface SeenScratch {
  triangles: SnapTriangles;
  owners: SeenOwner[];
  generation: number;
  stamps: Uint32Array;
  keyIds: Uint32Array;
  keyFaces: Uint32Array;
  local: [number, number, number];
}

const tableSize = 4096;

// Made on the first snap, so importing the module allocates nothing.
let scratch: SeenScratch | null = null;

/**
 * The triangles seen at the pixels of the (2·radius + 1)² block around the ray's sample that lie inside the
 * framebuffer, each once, in the order first seen (row by row). Valid until the next call.
 * @internal
 */
export function collectSeenTriangles(
  snapshot: PickSnapshot,
  readback: PickReadback,
  ray: PickingRay,
  radius: number,
): SnapTriangles {
  scratch ??= {
    triangles: makeSnapTriangles(64),
    owners: [],
    generation: 0,
    stamps: new Uint32Array(tableSize),
    keyIds: new Uint32Array(tableSize),
    keyFaces: new Uint32Array(tableSize),
    local: [0, 0, 0],
  };
  const s = scratch;
  const triangles = s.triangles;
  triangles.count = 0;
  let ownerCount = 0;
  s.generation = (s.generation + 1) >>> 0;
  if (s.generation === 0) {
    s.stamps.fill(0);
    s.generation = 1;
  }
  const size = 2 * radius + 1;
  const detailWord = readback.detailWord;
  const rows = Math.min(radius, ray.height - 1 - Math.floor(ray.sampleY));
  const columns = Math.min(radius, ray.width - 1 - Math.floor(ray.sampleX));
  const firstColumn = Math.max(-radius, -Math.floor(ray.sampleX));
  let owner: SeenOwner | null = null;
  for (let dy = Math.max(-radius, -Math.floor(ray.sampleY)); dy <= rows; dy++) {
    let lastId = 0;
    let lastFace = noPrimitive;
    for (let dx = firstColumn; dx <= columns; dx++) {
      const index = (dy + radius) * size + dx + radius;
      const id = readback.id(index);
      if (id === 0) continue;
      const face = detailWord ? detailWord(index) : (readback.texel(index).detail?.[0] ?? noPrimitive);
      // Neighbouring texels mostly show the triangle their left neighbour shows.
      if (face === noPrimitive || (id === lastId && face === lastFace)) continue;
      lastId = id;
      lastFace = face;
      let slot = ((Math.imul(id, 0x9e3779b1) ^ Math.imul(face, 0x85ebca77)) >>> 0) & (tableSize - 1);
      while (s.stamps[slot] === s.generation && (s.keyIds[slot] !== id || s.keyFaces[slot] !== face))
        slot = (slot + 1) & (tableSize - 1);
      if (s.stamps[slot] === s.generation) continue;
      if (owner === null || owner.id !== id) {
        owner = null;
        for (let o = 0; o < ownerCount; o++) if (s.owners[o].id === id) owner = s.owners[o];
        if (owner === null) {
          owner = s.owners[ownerCount] ??= {
            id: 0,
            mesh: null,
            deformed: false,
            instance: -1,
            world: null,
            featureEdges: null,
          };
          if (!placeOwner(owner, snapshot, id)) {
            owner = null;
            continue;
          }
          ownerCount++;
        }
      }
      s.stamps[slot] = s.generation;
      s.keyIds[slot] = id;
      s.keyFaces[slot] = face;
      if (triangles.count === triangles.ids.length) growSnapTriangles(triangles);
      addTriangle(triangles, owner, id, face, s.local);
    }
  }
  // The owners keep no mesh alive until the next snap.
  for (let o = 0; o < ownerCount; o++) {
    const seen = s.owners[o];
    seen.mesh = null;
    seen.world = null;
    seen.featureEdges = null;
  }
  return triangles;
}

/** Fills `owner` for pick ID `id` (the mesh as captured, world × instance as drawn); false when no candidate owns it. */
function placeOwner(owner: SeenOwner, snapshot: PickSnapshot, id: number): boolean {
  const found = findCandidate(snapshot, id);
  if (!found) return false;
  const { candidate, instance } = found;
  owner.id = id;
  owner.mesh = meshAsCaptured(candidate);
  owner.deformed = source.isDeformed(owner.mesh);
  owner.instance = instance;
  owner.world = composeInstanceWorld(
    candidate.worldMatrix,
    instance >= 0 ? snapshotInstanceMatrix(candidate, instance) : null,
  );
  owner.featureEdges = getFeatureEdges(candidate.mesh);
  return true;
}

/** Appends triangle `face` of the owner: vertex indices, world corners in float64 (the pose as captured), feature edges. */
function addTriangle(
  triangles: SnapTriangles,
  owner: SeenOwner,
  id: number,
  face: number,
  local: [number, number, number],
): void {
  const n = triangles.count++;
  const mesh = owner.mesh!;
  const world = owner.world!;
  const indices = mesh.geometry.indices;
  const positions = mesh.positions;
  const { corners, vertices } = triangles;
  for (let k = 0; k < 3; k++) {
    const v = indices ? indices[face * 3 + k] : face * 3 + k;
    vertices[n * 3 + k] = v;
    if (owner.deformed) source.deformVertex(mesh, v, local, Math.max(0, owner.instance));
    else {
      local[0] = positions[v * 3];
      local[1] = positions[v * 3 + 1];
      local[2] = positions[v * 3 + 2];
    }
    for (let i = 0; i < 3; i++)
      corners[n * 9 + k * 3 + i] =
        world[i] * local[0] + world[4 + i] * local[1] + world[8 + i] * local[2] + world[12 + i];
  }
  const flags = owner.featureEdges!;
  triangles.featureEdges[n] = flags[face * 3] | (flags[face * 3 + 1] << 1) | (flags[face * 3 + 2] << 2);
  triangles.ids[n] = id;
  triangles.faces[n] = face;
}
