import { makeFloat64Camera, pixelRay, type SceneCameraParameters } from './camera-rays.js';
import { castReferenceRay, type ReferenceHit, type ReferenceScene } from './reference-raycast.js';

type Rgb = [number, number, number];

/** What a rendered frame is compared against: an independent ray cast per pixel centre. */
export interface FrameReference {
  width: number;
  height: number;
  /** The camera's parameters: rays are built from them in float64 (camera-rays.ts). */
  camera: SceneCameraParameters;
  scene: ReferenceScene;
  /** Expected linear colour (0..1) of a hit. */
  hitColor: (hit: ReferenceHit) => Rgb;
  clearColor: Rgb;
  /** Allowed difference per channel, in 0..255 units. */
  tolerance: number;
}

/** Per-frame comparison figures; `mismatches` lists the first few failing pixels. */
export interface FrameComparison {
  compared: number;
  hits: number;
  skippedNearEdges: number;
  mismatches: string[];
}

const edgeOffsets = [
  [-0.05, 0],
  [0.05, 0],
  [0, -0.05],
  [0, 0.05],
];

function sameIdentity(a: ReferenceHit | null, b: ReferenceHit | null): boolean {
  if (!a || !b) return a === b;
  return a.meshId === b.meshId && a.thinInstanceIndex === b.thinInstanceIndex && a.faceId === b.faceId;
}

/** Casts a ray through each pixel centre; pixels within 0.05 px of a triangle edge are skipped. */
export function compareFrameToReference(pixels: Uint8Array, reference: FrameReference): FrameComparison {
  const camera = makeFloat64Camera(reference.camera, reference.width, reference.height);
  const result: FrameComparison = { compared: 0, hits: 0, skippedNearEdges: 0, mismatches: [] };
  const cast = (x: number, y: number) => {
    const ray = pixelRay(camera, x, y);
    return castReferenceRay(reference.scene, ray.origin, ray.direction);
  };
  for (let y = 0; y < reference.height; y++) {
    for (let x = 0; x < reference.width; x++) {
      const hit = cast(x, y);
      if (edgeOffsets.some(([dx, dy]) => !sameIdentity(hit, cast(x + dx, y + dy)))) {
        result.skippedNearEdges++;
        continue;
      }
      const expected = hit ? reference.hitColor(hit) : reference.clearColor;
      const at = (y * reference.width + x) * 4;
      const actual = [pixels[at], pixels[at + 1], pixels[at + 2]];
      const ok = expected.every(
        (c, i) => Math.abs(Math.round(Math.min(1, Math.max(0, c)) * 255) - actual[i]) <= reference.tolerance,
      );
      result.compared++;
      if (hit) result.hits++;
      if (!ok && result.mismatches.length < 10) {
        result.mismatches.push(
          `(${x}, ${y}) ${hit ? `hit mesh ${hit.meshId}/${hit.thinInstanceIndex} face ${hit.faceId}` : 'miss'}: expected ${expected.map((c) => Math.round(c * 255)).join(',')} got ${actual.join(',')}`,
        );
      } else if (!ok) {
        result.mismatches.push('…');
      }
    }
  }
  return result;
}

/** Lambert + ambient, the standard material's lighting, computed independently of the shader. */
export function lambert(base: Rgb, normal: Rgb, light: Rgb, lightColor: Rgb, ambient: Rgb): Rgb {
  const length = Math.hypot(...light);
  const diffuse = Math.max(0, (normal[0] * light[0] + normal[1] * light[1] + normal[2] * light[2]) / length);
  return [0, 1, 2].map((i) => base[i] * (ambient[i] + lightColor[i] * diffuse)) as Rgb;
}
