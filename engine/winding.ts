import type { StandardMaterial } from './material.js';
import type { Mesh } from './mesh.js';

/**
 * The one face rule every pass follows (forward, frame IDs, G-buffer, GPU pick, CPU pick):
 * - a triangle's front is its counter-clockwise side in mesh-local space (clockwise for a material whose `frontFace`
 *   is `'cw'`), carried through the world (× thin
 *   instance) matrix: when that matrix mirrors (negative determinant) the front face is the clockwise one on
 *   screen, so mirrored meshes and instances are not drawn inside out and nobody flips indices;
 * - a one-sided material (`doubleSided: false`) culls back faces, a double-sided one culls nothing;
 * - picks cull exactly the same unless asked otherwise (`culling: 'none'` picks every face).
 */

/** @internal 1 when the material's mesh-local front is counter-clockwise (the default), -1 when clockwise. */
export function materialFacing(material: StandardMaterial): 1 | -1 {
  return material.frontFace === 'cw' ? -1 : 1;
}

/** @internal The cull mode a material draws with. */
export function materialCullMode(material: StandardMaterial): GPUCullMode {
  return material.doubleSided ? 'none' : 'back';
}

/**
 * Sign of the determinant of the upper 3×3 of the column-major 4×4 at `offset` (payload lanes are ignored).
 * @internal
 */
export function determinantSign(m: ArrayLike<number>, offset = 0): 1 | -1 {
  const a = m[offset];
  const b = m[offset + 1];
  const c = m[offset + 2];
  const d = m[offset + 4];
  const e = m[offset + 5];
  const f = m[offset + 6];
  const g = m[offset + 8];
  const h = m[offset + 9];
  const i = m[offset + 10];
  return a * (e * i - f * h) - d * (b * i - c * h) + g * (b * f - c * e) < 0 ? -1 : 1;
}

/** Front face of a draw whose world (× instance) matrix has this determinant sign. */
function frontFaceOf(sign: number): GPUFrontFace {
  return sign < 0 ? 'cw' : 'ccw';
}

/** A run of consecutive instances drawn with one front face. */
interface WindingRun {
  first: number;
  count: number;
  frontFace: GPUFrontFace;
}

/** Which thin instances mirror, for one instance array version: null when none does, so the common case is O(1). */
interface InstanceMirrors {
  array: Float32Array;
  version: number;
  mirrored: Uint8Array | null;
  all: boolean;
}

let instanceMirrors: WeakMap<Mesh, InstanceMirrors> | undefined;

function mirrorsOf(mesh: Mesh): InstanceMirrors {
  instanceMirrors ??= new WeakMap();
  const instances = mesh.thinInstances!;
  const known = instanceMirrors.get(mesh);
  if (known && known.array === instances && known.version === mesh.thinInstanceVersion) return known;
  let mirrored: Uint8Array | null = null;
  let count = 0;
  for (let i = 0; i < mesh.thinInstanceCount; i++) {
    if (determinantSign(instances, i * 16) > 0) continue;
    mirrored ??= new Uint8Array(mesh.thinInstanceCount);
    mirrored[i] = 1;
    count++;
  }
  const entry = {
    array: instances,
    version: mesh.thinInstanceVersion,
    mirrored,
    all: count === mesh.thinInstanceCount,
  };
  instanceMirrors.set(mesh, entry);
  return entry;
}

/**
 * Splits instances `first .. first + count` of `mesh` into runs of one front face, given the mesh's world matrix
 * (for a mesh without thin instances: one run of one instance). Appends to `out` and returns it.
 * @internal
 */
export function splitByWinding(
  mesh: Mesh,
  world: ArrayLike<number>,
  first: number,
  count: number,
  out: WindingRun[] = [],
): WindingRun[] {
  const worldSign = determinantSign(world) * materialFacing(mesh.material);
  if (!mesh.thinInstances || count === 0) {
    if (count > 0) out.push({ first, count, frontFace: frontFaceOf(worldSign) });
    return out;
  }
  const { mirrored, all } = mirrorsOf(mesh);
  if (!mirrored || all) {
    out.push({ first, count, frontFace: frontFaceOf(all && mirrored ? -worldSign : worldSign) });
    return out;
  }
  let start = first;
  for (let i = first + 1; i <= first + count; i++) {
    if (i < first + count && mirrored[i] === mirrored[start]) continue;
    out.push({ first: start, count: i - start, frontFace: frontFaceOf(mirrored[start] ? -worldSign : worldSign) });
    start = i;
  }
  return out;
}

/**
 * Every instance of the mesh as drawn now (one instance without thin instances), in runs of one front face.
 * @internal
 */
export function meshWindingRuns(mesh: Mesh, out: WindingRun[] = []): WindingRun[] {
  return splitByWinding(mesh, mesh.worldMatrix, 0, mesh.thinInstances ? mesh.thinInstanceCount : 1, out);
}

/** @internal True when some instance of the mesh (or the mesh itself) is drawn with the clockwise front face now. */
export function meshUsesClockwise(mesh: Mesh): boolean {
  const worldSign = determinantSign(mesh.worldMatrix) * materialFacing(mesh.material);
  if (!mesh.thinInstances) return worldSign < 0;
  if (mesh.thinInstanceCount === 0) return false;
  const { mirrored, all } = mirrorsOf(mesh);
  return worldSign > 0 ? mirrored !== null : !(all && mirrored !== null);
}
