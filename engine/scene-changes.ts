import type { Mesh } from './mesh.js';
import type { Scene } from './scene.js';

/**
 * The meshes the setters touched, in order: `meshes[i]` is the change that took `scene.changeVersion` from
 * `base + i` to `base + i + 1`. A picker that saw version `v >= base` refits only `meshes[v - base ..]`; one that
 * is further behind (the log was dropped) checks every mesh.
 */
export interface SceneChangeLog {
  base: number;
  meshes: Mesh[];
}

/** Past this many entries (or the scene's mesh count, if larger) the log is dropped: a full check is as cheap. */
const minLogCapacity = 256;

/** @internal Records that a setter changed `mesh` (its world matrix or thin instances): bumps `scene.changeVersion`. */
export function recordMeshChange(scene: Scene, mesh: Mesh): void {
  const log = scene.changeLog;
  if (log.meshes.length >= Math.max(minLogCapacity, scene.meshes.length)) {
    log.meshes.length = 0;
    log.base = scene.changeVersion;
  }
  log.meshes.push(mesh);
  scene.changeVersion++;
}

/**
 * The meshes changed since a reader saw `version` (duplicates possible), or null when the log no longer reaches
 * back that far (the reader must check every mesh).
 * @internal
 */
export function meshesChangedSince(scene: Scene, version: number): readonly Mesh[] | null {
  const log = scene.changeLog;
  if (version < log.base || version > scene.changeVersion) return null;
  return log.meshes.slice(version - log.base);
}
