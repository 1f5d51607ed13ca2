// Babylon.js clip planes (scene.clipPlane … clipPlane6, or a material's own) as a weft discard rule: a fragment whose
// world position has dot(normal, p) + d > 0 for any active plane is dropped, as Babylon.js's clipPlaneFragment does.
import type { Plane } from '@babylonjs/core/Maths/math.plane.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import type { Scene } from '@babylonjs/core/scene.js';
import type { Mesh as WeftMesh } from '../../engine/mesh.js';
import type { PickDiscardRule } from '../../picking/discard-rules.js';
import type { DrawableScene } from '../../picking/sources/drawable-types.js';

const planeKeys = ['clipPlane', 'clipPlane2', 'clipPlane3', 'clipPlane4', 'clipPlane5', 'clipPlane6'] as const;
type PlaneHolder = Partial<Record<(typeof planeKeys)[number], Plane | null>>;

/** A plane that never clips (0·p − 1 ≤ 0). */
const inactive = [0, 0, 0, -1];

const clipWgsl = `
fn pickDiscard(input: PickDiscardInput) -> bool {
  for (var i = 0u; i < 6u; i++) {
    let plane = babylonClipPlanes[i];
    if (dot(plane.xyz, input.worldPos) + plane.w > 0.0) {
      return true;
    }
  }
  return false;
}`;

function materialOf(mesh: AbstractMesh): PlaneHolder | null {
  const source = mesh.getClassName() === 'InstancedMesh' ? (mesh as unknown as { sourceMesh: Mesh }).sourceMesh : mesh;
  return (source.material as PlaneHolder | null) ?? null;
}

/** @internal What a scan of listed meshes found so far: the last material checked, and whether any clips. */
export interface ClipScan {
  material: PlaneHolder | null | undefined;
  clipped: boolean;
}

/** @internal A scan that has seen no mesh. */
export function makeClipScan(): ClipScan {
  return { material: undefined, clipped: false };
}

/** @internal Starts `scan` again (and lets go of the material it held). */
export function resetClipScan(scan: ClipScan): void {
  scan.material = undefined;
  scan.clipped = false;
}

/**
 * @internal Adds one listed mesh to `scan`: its material's planes (an InstancedMesh's through its source mesh).
 * Neighbouring meshes mostly share a material: each run of one is checked once. The walk calls it for each mesh it
 * lists, while the mesh is in the CPU caches (a second pass over 10 000 meshes cost a tenth of a pick's walk).
 */
export function scanClipPlanes(scan: ClipScan, mesh: AbstractMesh): void {
  if (scan.clipped) return;
  const material = materialOf(mesh);
  if (material === scan.material) return;
  scan.material = material;
  if (
    material &&
    (material.clipPlane ||
      material.clipPlane2 ||
      material.clipPlane3 ||
      material.clipPlane4 ||
      material.clipPlane5 ||
      material.clipPlane6)
  )
    scan.clipped = true;
}

/** @internal Whether the scene itself sets a clip plane. */
export function sceneHasClipPlanes(scene: Scene): boolean {
  const holder = scene as unknown as PlaneHolder;
  // A plain loop: this runs on every pick, and a callback would be a closure made each time.
  for (let i = 0; i < planeKeys.length; i++) if (holder[planeKeys[i]]) return true;
  return false;
}

/**
 * The discard rule of the scene's clip planes: its text never changes (the planes are per-mesh storage), so it
 * compiles once.
 * @internal
 */
export function makeClipPlaneRule(scene: Scene, drawables: DrawableScene<AbstractMesh>): PickDiscardRule {
  const planes = new Float32Array(24);
  return {
    key: 'weft-babylon-clip-planes',
    wgsl: clipWgsl,
    storage: [
      {
        name: 'babylonClipPlanes',
        type: 'array<vec4f, 6>',
        data: (mesh: WeftMesh) => {
          const object = drawables.objectOfMesh.get(mesh);
          const material = object ? materialOf(object) : null;
          const sceneHolder = scene as unknown as PlaneHolder;
          const out = planes.slice();
          planeKeys.forEach((key, i) => {
            const plane = material?.[key] ?? sceneHolder[key];
            out.set(plane ? [plane.normal.x, plane.normal.y, plane.normal.z, plane.d] : inactive, i * 4);
          });
          return out;
        },
      },
    ],
  };
}
