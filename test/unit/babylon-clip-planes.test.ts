// Which Babylon.js scenes the picker treats as clipped: the scene's planes (sceneHasClipPlanes), or any of the six
// planes of any listed mesh's material (scanClipPlanes over the list, as the walk does; an InstancedMesh's through its
// source mesh), wherever that mesh sits in the list, in a run of meshes sharing one material or not; a scan started
// again forgets what it found. Real Babylon.js objects on its NullEngine.
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { Plane } from '@babylonjs/core/Maths/math.plane.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import '@babylonjs/core/Meshes/instancedMesh.js';
import { Scene } from '@babylonjs/core/scene.js';
import { describe, expect, it } from 'vitest';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import type { Scene as BabylonScene } from '@babylonjs/core/scene.js';
import {
  makeClipScan,
  resetClipScan,
  scanClipPlanes,
  sceneHasClipPlanes,
} from '../../hosts/babylon/babylon-clip-planes.js';

const scan = makeClipScan();

/** What a pick decides: the scene's planes, or a scan of the listed meshes as the walk makes it. */
function hasClipPlanes(scene: BabylonScene, listed: readonly { object: AbstractMesh }[]): boolean {
  resetClipScan(scan);
  for (const { object } of listed) scanClipPlanes(scan, object);
  return sceneHasClipPlanes(scene) || scan.clipped;
}

function makeScene() {
  const scene = new Scene(new NullEngine());
  const shared = new StandardMaterial('shared', scene);
  const other = new StandardMaterial('other', scene);
  const a = CreateBox('a', { size: 1 }, scene);
  a.material = shared;
  const b = CreateBox('b', { size: 1 }, scene);
  b.material = shared;
  const c = CreateBox('c', { size: 1 }, scene);
  c.material = other;
  const d = CreateBox('d', { size: 1 }, scene);
  d.material = shared;
  const none = CreateBox('none', { size: 1 }, scene);
  const instance = c.createInstance('instance');
  const listed = [a, b, c, d, none, instance].map((object) => ({ object }));
  return { scene, shared, other, c, listed };
}

describe('clip planes of a Babylon.js scene', () => {
  it('is false without planes, whatever the order of materials', () => {
    const { scene, listed } = makeScene();
    expect(hasClipPlanes(scene, listed)).toBe(false);
    expect(hasClipPlanes(scene, [...listed].reverse())).toBe(false);
    expect(hasClipPlanes(scene, [])).toBe(false);
  });

  it("finds the scene's planes", () => {
    for (const key of ['clipPlane', 'clipPlane2', 'clipPlane3', 'clipPlane4', 'clipPlane5', 'clipPlane6'] as const) {
      const { scene, listed } = makeScene();
      scene[key] = new Plane(1, 0, 0, 0);
      expect(hasClipPlanes(scene, listed), key).toBe(true);
    }
  });

  it("finds any plane of a material, on a mesh after a run of another material's meshes", () => {
    for (const key of ['clipPlane', 'clipPlane2', 'clipPlane3', 'clipPlane4', 'clipPlane5', 'clipPlane6'] as const) {
      const { scene, other, listed } = makeScene();
      other[key] = new Plane(0, 1, 0, 0);
      expect(hasClipPlanes(scene, listed), key).toBe(true);
      // Only the meshes of the clipped material, each alone or after the shared run.
      expect(hasClipPlanes(scene, [listed[0], listed[1], listed[2]]), key).toBe(true);
      expect(hasClipPlanes(scene, [listed[0], listed[1], listed[3]]), key).toBe(false);
    }
  });

  it("finds an instance's planes through its source mesh's material", () => {
    const { scene, other, listed } = makeScene();
    other.clipPlane4 = new Plane(0, 0, 1, 0);
    const instanceOnly = [listed[0], listed[5]];
    expect(hasClipPlanes(scene, instanceOnly)).toBe(true);
    other.clipPlane4 = null;
    expect(hasClipPlanes(scene, instanceOnly)).toBe(false);
  });

  it('finds planes on a material that a later run of the same material repeats', () => {
    const { scene, shared, listed } = makeScene();
    shared.clipPlane6 = new Plane(0, 0, 1, 0);
    // a, b (shared), c (other), d (shared): the second shared run must still be seen when the first is not listed.
    expect(hasClipPlanes(scene, [listed[2], listed[3]])).toBe(true);
  });

  it('a scan started again forgets what the last one found', () => {
    const { scene, shared, listed } = makeScene();
    shared.clipPlane = new Plane(1, 0, 0, 0);
    expect(hasClipPlanes(scene, listed)).toBe(true);
    // Unclipped now: the same material object first in the list again must be checked again, not taken as seen.
    shared.clipPlane = null;
    expect(hasClipPlanes(scene, listed)).toBe(false);
  });
});
