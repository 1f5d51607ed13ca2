// Shared helpers of the reliability suite (issue #16): scene copies for the CPU reference, tallies, timeouts.
import { mat4 } from 'wgpu-matrix';
import { WeftError } from '../../core/errors.js';
import {
  createBoxMesh,
  createScene,
  type Engine,
  makePerspectiveCamera,
  type Mesh,
  type Scene,
} from '../../engine/index.js';
import type { PickingInfo } from '../../picking/index.js';
import {
  castReferenceRayAll,
  createReferenceScene,
  type ReferenceMesh,
  type ReferenceScene,
} from './reference-raycast.js';
import { type CameraBasis, makeFloat64Camera, pixelRay } from './camera-rays.js';

/** The camera position of the suite's scenes. */
export const eye: [number, number, number] = [0, 0, 8];

/** The limits and fuzz scene: a back wall, a box in front, and a row of three thin instances. */
export function makeScene(engine: Engine): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: eye, target: [0, 0, 0], fovY: 0.8 });
  createBoxMesh(scene, 'wall', { width: 14, height: 9, depth: 0.2 }, { worldMatrix: mat4.translation([0, 0, -2]) });
  createBoxMesh(scene, 'front', { width: 2, height: 1, depth: 1 }, { worldMatrix: mat4.translation([-1, 1.5, 0]) });
  const row = new Float32Array(3 * 16);
  for (let i = 0; i < 3; i++) row.set(mat4.translation([(i - 1) * 1.6, 0, 0]), i * 16);
  createBoxMesh(scene, 'row', {}, { worldMatrix: mat4.translation([0, -1, 0]), thinInstances: row });
  return scene;
}

/** The figures one part of the suite prints. */
export interface Tally {
  calls: number;
  wrong: number;
  untyped: number;
  hangs: number;
  typedRejections: number;
  /** Answers compared with the reference (unambiguous pixels and rectangles). */
  checked: number;
  failures: string[];
}

export function makeTally(): Tally {
  return { calls: 0, wrong: 0, untyped: 0, hangs: 0, typedRejections: 0, checked: 0, failures: [] };
}

export function note(tally: Tally, message: string): void {
  if (tally.failures.length < 12) tally.failures.push(message);
}

/** One summary line per part, for the lead to paste. */
export function printSummary(part: string, figures: Record<string, number | string>): void {
  const text = Object.entries(figures)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  console.log(`[reliability] ${part}: ${text}`);
}

const hang = Symbol('hang');

/** Awaits `promise` for at most `ms`; a timeout is a hang, a non-WeftError rejection is untyped. */
export async function settle<T>(
  tally: Tally,
  label: string,
  promise: Promise<T>,
  ms = 20_000,
): Promise<{ ok: true; value: T } | { ok: false }> {
  tally.calls++;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof hang>((resolve) => (timer = setTimeout(() => resolve(hang), ms)));
  try {
    const result = await Promise.race([promise, timeout]);
    if (result === hang) {
      tally.hangs++;
      note(tally, `${label}: no answer after ${ms} ms`);
      return { ok: false };
    }
    return { ok: true, value: result as T };
  } catch (error) {
    if (error instanceof WeftError) tally.typedRejections++;
    else {
      tally.untyped++;
      note(tally, `${label}: untyped ${String(error)}`);
    }
    return { ok: false };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `fn` synchronously; returns the typed error it threw (null if none), counts an untyped one. */
export function expectTypedThrow(tally: Tally, label: string, fn: () => unknown): unknown {
  tally.calls++;
  try {
    fn();
    return null;
  } catch (error) {
    if (error instanceof WeftError) tally.typedRejections++;
    else {
      tally.untyped++;
      note(tally, `${label}: untyped ${String(error)}`);
    }
    return error;
  }
}

/** The mesh as the reference caster sees it, copied now (matrices and instance data copied by this test). */
export function copyForReference(mesh: Mesh): ReferenceMesh {
  return {
    id: mesh.uniqueId,
    positions: Float32Array.from(mesh.positions),
    indices: mesh.geometry.indices ? mesh.geometry.indices.slice() : null,
    worldMatrix: Float32Array.from(mesh.worldMatrix),
    thinInstances: mesh.thinInstances ? Float32Array.from(mesh.thinInstances) : null,
    doubleSided: true,
  };
}

/** A frozen copy of what a pick should see: reference scene, names, camera inverse, frame size. */
export interface SceneCopy {
  reference: ReferenceScene;
  names: Map<number, string>;
  /** The camera as float64 numbers, copied at the call (rays come from its parameters, not weft's matrices). */
  camera: CameraBasis;
  width: number;
  height: number;
}

export function copyScene(
  engine: Engine,
  scene: Scene,
  eye: [number, number, number],
  viewport = { width: engine.width, height: engine.height },
): SceneCopy {
  const meshes = scene.meshes.filter((m) => m.pickable && !m.disposed);
  return {
    reference: createReferenceScene(meshes.map(copyForReference)),
    names: new Map(meshes.map((m) => [m.uniqueId, m.name])),
    camera: makeFloat64Camera({ ...scene.camera!, position: eye }, viewport.width, viewport.height),
    width: viewport.width,
    height: viewport.height,
  };
}

/** A world-space discard the reference applies: hits with `discard(point)` true are skipped. */
export type ReferenceDiscard = ((point: [number, number, number]) => boolean) | null;

/** Reference answer at pixel (x, y): "name#instance" or "miss". */
export function answerAt(copy: SceneCopy, x: number, y: number, discard: ReferenceDiscard = null): string {
  const ray = pixelRay(copy.camera, x, y);
  const hit = castReferenceRayAll(copy.reference, ray.origin, ray.direction).find((h) => !discard?.(h.point));
  if (!hit) return 'miss';
  return `${copy.names.get(hit.meshId)}${hit.thinInstanceIndex >= 0 ? `#${hit.thinInstanceIndex}` : ''}`;
}

const shifts = [
  [0.4, 0],
  [-0.4, 0],
  [0, 0.4],
  [0, -0.4],
] as const;

/** The answer at the pixel centre and whether it is unambiguous (the 4 neighbours at ±0.4 px agree). */
export function stableAnswerAt(
  copy: SceneCopy,
  x: number,
  y: number,
  discard: ReferenceDiscard = null,
): { answer: string; stable: boolean; around: string[] } {
  const answer = answerAt(copy, x, y, discard);
  const around = shifts.map(([dx, dy]) => answerAt(copy, x + dx, y + dy, discard));
  return { answer, stable: around.every((a) => a === answer), around };
}

/** Checks a marquee answer: every unambiguous identity in the rectangle is found, nothing outside it is. */
export function rectMismatch(
  copy: SceneCopy,
  rect: { x: number; y: number; w: number; h: number },
  got: readonly { mesh: { name: string } | null; thinInstanceIndex: number }[],
  discard: ReferenceDiscard = null,
): string | null {
  const required = new Set<string>();
  const allowed = new Set<string>();
  for (let py = rect.y; py < rect.y + rect.h; py++)
    for (let px = rect.x; px < rect.x + rect.w; px++) {
      const s = stableAnswerAt(copy, px, py, discard);
      if (s.stable) required.add(s.answer);
      allowed.add(s.answer);
      for (const a of s.around) allowed.add(a);
    }
  required.delete('miss');
  allowed.delete('miss');
  const names = new Set(
    got.map((id) => `${id.mesh?.name}${id.thinInstanceIndex >= 0 ? `#${id.thinInstanceIndex}` : ''}`),
  );
  const missing = [...required].filter((a) => !names.has(a));
  const extra = [...names].filter((a) => !allowed.has(a));
  return missing.length || extra.length ? `missing [${missing}] extra [${extra}]` : null;
}

export const who = (info: PickingInfo): string =>
  info.hit ? `${info.pickedMesh!.name}${info.thinInstanceIndex >= 0 ? `#${info.thinInstanceIndex}` : ''}` : 'miss';

export function rss(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  return process.memoryUsage().rss;
}
