import { describeValue } from '../../../core/errors.js';
import type { Mesh } from '../../../engine/mesh.js';
import { allocateBvhNodes, isLeafNode, nodeFirst, nodeLeafCount, nodeWords } from './bvh-nodes.js';
import { CpuPickError } from '../cpu-pick-error.js';
import { getMeshBvh, setMeshBvh } from './mesh-bvh-cache.js';
import {
  allocateLeafCopy,
  compactFaceIds,
  copyLeafTriangles,
  maxLeafTriangles,
  type FloatTriangleBvh,
  type TriangleBvh,
  triangleBvhLayouts,
} from './triangle-bvh.js';
import { expandCompactBvh, packCompactBvh } from './compact-bvh.js';

const magic = 0x42544657; // "WFTB" read as a little-endian uint32
/**
 * 4: header word 5 holds the layout (0 'face-ids', 1 'leaf-triangles', 2 'leaf-indices', 3 'compact'); a compact BVH is
 * stored as its float nodes (bounds from the positions) and face ids, and packed again on load. Version 3: the same
 * without 'compact'. Version 2: word 5 was flags (bit 0: a triangle copy), the same numbers for the two layouts it
 * knew; version 1 (word 5 always 0) always kept a copy.
 */
const version = 4;
/** Layouts each version knows (versions 2 and 3 number them as version 4 does). */
const layoutsOfVersion = [0, 1, 2, 3, 4];
const headerWords = 6;

/**
 * Serialises a triangle BVH (little-endian): header [magic, version, triangleCount, nodeCount, maxDepth, layout],
 * the nodes (8 words each), then the leaf-order face ids. Triangle coordinates and leaf indices are not stored: they are
 * re-read from the mesh on load, which also proves the BVH belongs to it.
 */
export function serialiseTriangleBvh(bvh: TriangleBvh): Uint8Array<ArrayBuffer> {
  const { nodes, faceIds } =
    bvh.compact !== null ? expandCompactBvh(bvh.compact, bvh.positions) : { nodes: bvh.nodes!, faceIds: bvh.faceIds! };
  const { nodeCount, maxDepth, ints } = nodes;
  const words = new Uint32Array(headerWords + nodeCount * nodeWords + bvh.triangleCount);
  words.set([magic, version, bvh.triangleCount, nodeCount, maxDepth, triangleBvhLayouts.indexOf(bvh.layout)]);
  words.set(new Uint32Array(ints.buffer, ints.byteOffset, nodeCount * nodeWords), headerWords);
  words.set(faceIds, headerWords + nodeCount * nodeWords);
  return new Uint8Array(words.buffer);
}

function fail(reason: string): never {
  throw new CpuPickError('deserialiseTriangleBvh', 'bad-serialised-bvh', reason);
}

/** Checks links: children after parents, every node but the root referenced once, leaves tiling the triangles once. */
function checkTopology(ints: Int32Array, nodeCount: number, triangleCount: number): number {
  const referenced = new Uint8Array(nodeCount);
  const depth = new Int32Array(nodeCount);
  const covered = new Uint8Array(triangleCount);
  let maxDepth = 0;
  for (let n = 0; n < nodeCount; n++) {
    const o = n * nodeWords;
    if (n > 0 && referenced[n] !== 1)
      fail(`node ${n} is referenced ${referenced[n]} times (a tree references each node once)`);
    const count = nodeLeafCount(ints, o);
    const link = nodeFirst(ints, o);
    if (count < 0) fail(`node ${n} has a negative primitive count ${count}`);
    if (count === 0) {
      if (!(link > n && link + 1 < nodeCount))
        fail(`inner node ${n} links children ${link}, ${link + 1}; they must lie in ${n + 1}..${nodeCount - 1}`);
      referenced[link]++;
      referenced[link + 1]++;
      depth[link] = depth[link + 1] = depth[n] + 1;
      maxDepth = Math.max(maxDepth, depth[n] + 1);
      continue;
    }
    if (count > maxLeafTriangles) fail(`leaf ${n} holds ${count} triangles; a leaf holds at most ${maxLeafTriangles}`);
    if (link < 0 || link + count > triangleCount)
      fail(`leaf ${n} covers triangles ${link}..${link + count - 1}, outside 0..${triangleCount - 1}`);
    for (let i = link; i < link + count; i++) {
      if (covered[i]++) fail(`triangle slot ${i} is in two leaves`);
    }
  }
  const missing = covered.indexOf(0);
  if (missing >= 0) fail(`triangle slot ${missing} is in no leaf`);
  return maxDepth;
}

/**
 * Rebuilds a TriangleBvh from `serialiseTriangleBvh` output and the geometry it was built for; validates everything.
 * @throws {CpuPickError} when the BVH does not match the geometry's triangle count
 */
export function deserialiseTriangleBvh(
  bytes: Uint8Array | ArrayBuffer,
  positions: Float32Array,
  indices: Uint16Array | Uint32Array | null,
): TriangleBvh {
  const raw = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
  if (!(raw instanceof Uint8Array) || raw.byteLength < headerWords * 4 || raw.byteLength % 4 !== 0) {
    fail(
      `expected a Uint8Array or ArrayBuffer of at least ${headerWords * 4} bytes and a multiple of 4, got ${describeValue(bytes)} (${raw?.byteLength} bytes)`,
    );
  }
  const words = new Uint32Array(raw.slice().buffer); // a copy: aligned, and independent of the caller's bytes
  if (words[0] !== magic) fail(`bad magic 0x${words[0].toString(16)}; this is not a weft triangle BVH`);
  if (words[1] < 1 || words[1] > version) fail(`version ${words[1]} is not supported (expected 1 to ${version})`);
  const layoutCount = layoutsOfVersion[words[1]];
  if (words[1] > 1 && words[5] >= layoutCount)
    fail(
      `unknown ${words[1] > 2 ? 'layout' : 'flags'} ${words[5]} for version ${words[1]} (allowed: 0 to ${layoutCount - 1})`,
    );
  const layout = words[1] === 1 ? 'leaf-triangles' : triangleBvhLayouts[words[5]];
  const [triangleCount, nodeCount] = [words[2], words[3]];
  const expected = headerWords + nodeCount * nodeWords + triangleCount;
  if (words.length !== expected)
    fail(`holds ${words.length} words; the header (${triangleCount} triangles, ${nodeCount} nodes) needs ${expected}`);
  const vertexTriangles = indices ? indices.length / 3 : positions.length / 9;
  if (triangleCount !== vertexTriangles) {
    throw new CpuPickError(
      'deserialiseTriangleBvh',
      'bvh-mismatch',
      `the BVH covers ${triangleCount} triangles but the geometry has ${vertexTriangles}`,
    );
  }
  if ((triangleCount === 0) !== (nodeCount === 0) || nodeCount > 2 * triangleCount)
    fail(`${nodeCount} nodes cannot index ${triangleCount} triangles`);
  const { floats, ints } = allocateBvhNodes(nodeCount);
  ints.set(new Int32Array(words.buffer, headerWords * 4, nodeCount * nodeWords));
  const maxDepth = checkTopology(ints, nodeCount, triangleCount);
  const faceIds = words.slice(headerWords + nodeCount * nodeWords);
  const seen = new Uint8Array(triangleCount);
  for (const f of faceIds) {
    if (f >= triangleCount || seen[f]++)
      fail(`face ids are not a permutation of 0..${triangleCount - 1} (bad or repeated ${f})`);
  }
  const vertexCount = Math.floor(positions.length / 3);
  if (indices) {
    for (let i = 0; i < indices.length; i++) {
      if (indices[i] >= vertexCount)
        fail(`face ${Math.floor(i / 3)} references vertex ${indices[i]}, beyond the ${vertexCount} positions`);
    }
  } else if (triangleCount * 9 > positions.length)
    fail(`${triangleCount} faces need more than the ${vertexCount} positions`);
  const order = compactFaceIds(faceIds);
  const bvh: FloatTriangleBvh = {
    nodes: { floats, ints, nodeCount, maxDepth },
    compact: null,
    layout: layout === 'compact' ? 'leaf-indices' : layout,
    triangles: null,
    leafIndices: null,
    faceIds: order,
    positions,
    indices,
    triangleCount,
    refitCount: 0,
  };
  checkBounds(bvh);
  if (layout === 'compact') {
    // Sorted as the build sorts them: the leaf stream stores offsets from each leaf's first face.
    for (let n = 0; n < nodeCount; n++) {
      const o = n * nodeWords;
      const first = nodeFirst(ints, o);
      if (isLeafNode(ints, o)) faceIds.subarray(first, first + nodeLeafCount(ints, o)).sort();
    }
    const compact = packCompactBvh(bvh.nodes, faceIds, indices);
    if (compact !== null) return { ...bvh, nodes: null, faceIds: null, compact, layout };
  }
  allocateLeafCopy(bvh);
  copyLeafTriangles(bvh);
  return bvh;
}

/** Every leaf box must contain its triangles and every inner box its children, or the BVH was built for other data. */
function checkBounds(bvh: FloatTriangleBvh): void {
  const { floats, ints, nodeCount } = bvh.nodes;
  const { positions, indices, faceIds } = bvh;
  for (let n = 0; n < nodeCount; n++) {
    const o = n * nodeWords;
    const inside = (x: number, a: number): boolean => floats[o + 2 * a] <= x && x <= floats[o + 2 * a + 1];
    const first = nodeFirst(ints, o);
    if (!isLeafNode(ints, o)) {
      for (const c of [first, first + 1]) {
        for (let k = 0; k < 6; k++) {
          if (!inside(floats[c * nodeWords + k], k >> 1)) {
            throw new CpuPickError(
              'deserialiseTriangleBvh',
              'bvh-mismatch',
              `node ${n}'s bounds do not contain child ${c}`,
            );
          }
        }
      }
      continue;
    }
    for (let i = first, end = first + nodeLeafCount(ints, o); i < end; i++) {
      for (let k = 0; k < 9; k++) {
        const corner = faceIds[i] * 3 + Math.floor(k / 3);
        if (!inside(positions[(indices ? indices[corner] : corner) * 3 + (k % 3)], k % 3)) {
          throw new CpuPickError(
            'deserialiseTriangleBvh',
            'bvh-mismatch',
            `leaf ${n}'s bounds do not contain its triangle ${i}: the BVH was built for other positions (rebuild, or deserialise then refit)`,
          );
        }
      }
    }
  }
}

/** Serialises the mesh's BVH (building it first when needed). */
export function serialiseMeshBvh(mesh: Mesh): Uint8Array<ArrayBuffer> {
  return serialiseTriangleBvh(getMeshBvh(mesh));
}

/** Installs a serialised BVH for the mesh after validating it against the mesh's positions and indices. */
export function loadMeshBvh(mesh: Mesh, bytes: Uint8Array | ArrayBuffer): TriangleBvh {
  const bvh = deserialiseTriangleBvh(bytes, mesh.positions, mesh.geometry.indices);
  setMeshBvh(mesh, bvh);
  return bvh;
}
