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

/** Whether any mesh in `meshes` (or the scene) is clipped. @internal */
export function hasClipPlanes(scene: Scene, meshes: readonly { object: AbstractMesh }[]): boolean {
  const holder = scene as unknown as PlaneHolder;
  if (planeKeys.some((k) => holder[k])) return true;
  // Neighbouring meshes mostly share a material: each run of one is checked once (at 10 000 meshes the check of every
  // mesh's six planes cost a tenth of a pick's walk).
  let checked: PlaneHolder | null | undefined;
  for (let i = 0; i < meshes.length; i++) {
    const material = materialOf(meshes[i].object);
    if (material === checked) continue;
    checked = material;
    if (
      material &&
      (material.clipPlane ||
        material.clipPlane2 ||
        material.clipPlane3 ||
        material.clipPlane4 ||
        material.clipPlane5 ||
        material.clipPlane6)
    )
      return true;
  }
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
