// weft-gpu/three's own matrix walk (hosts/three/three-world.ts) against three.js's `scene.updateMatrixWorld()`: two
// identical scenes take the same seeded changes — positions, group rotations, mirrors, pivots, hand-written `matrix`
// (with and without matrixWorldNeedsUpdate) and `matrixWorld`, the auto-update flags, re-parenting, added and removed
// objects, objects that override updateMatrixWorld — one walked by the adapter, the other updated by three. Every world
// matrix must be three's, bit for bit, and the seam's meshes must hold three's matrices (as float32) after each sync.
import {
  BoxGeometry,
  Euler,
  Group,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  type Object3D,
  PerspectiveCamera,
  Quaternion,
  Scene,
  Vector3,
} from 'three';
import type { WebGPURenderer } from 'three/webgpu';
import { describe, expect } from 'vitest';
import { collectThreeDrawables, makeThreeDrawables } from '../../../hosts/three/three-drawables.js';
import {
  createDrawableScene,
  disposeDrawableScene,
  pickedObjectOf,
  syncDrawableSceneHinted,
} from '../../../picking/sources/drawable-scene.js';
import { gpuTest } from '../../support/gpu.js';
import { makeRandom } from '../../support/random.js';

/** A group whose class overrides updateMatrixWorld (three calls it for its subtree): it doubles its world scale. */
class Doubling extends Group {
  override updateMatrixWorld(force?: boolean): void {
    super.updateMatrixWorld(force);
    this.matrixWorld.scale(new Vector3(2, 2, 2));
  }
}

const box = new BoxGeometry(1, 1, 1);
const material = new MeshBasicMaterial();

/** A seeded scene of groups and meshes (and a camera and a Doubling group inside it); `all` in creation order. */
function buildScene(random: () => number) {
  const scene = new Scene();
  const all: Object3D[] = [scene];
  const add = (object: Object3D) => {
    const parents = all.filter((o) => !(o as Mesh).isMesh);
    parents[Math.floor(random() * parents.length)].add(object);
    object.position.set(random() * 4 - 2, random() * 4 - 2, random() * 4 - 2);
    object.rotation.set(random() * 3, random() * 3, random() * 3);
    all.push(object);
  };
  for (let i = 0; i < 40; i++) add(random() < 0.3 ? new Group() : new Mesh(box, material));
  add(new Doubling());
  add(new Mesh(box, material));
  add(new PerspectiveCamera());
  return { scene, all };
}

type Change = (all: Object3D[], scene: Scene) => void;

/** One seeded change, applied alike to both scenes (the numbers are drawn once). */
function drawChange(random: () => number, size: number): { name: string; apply: Change } {
  const pick = Math.floor(random() * size);
  const kind = Math.floor(random() * 12);
  const v = [random() * 4 - 2, random() * 4 - 2, random() * 4 - 2];
  const q = new Quaternion().setFromEuler(new Euler(v[0], v[1], v[2]));
  const m = new Matrix4().compose(new Vector3(v[1], v[2], v[0]), q, new Vector3(1, v[0] < 0 ? -1 : 1, 1));
  const other = Math.floor(random() * size);
  switch (kind) {
    case 0:
      return { name: 'position', apply: (all) => all[pick].position.set(v[0], v[1], v[2]) };
    case 1:
      return { name: 'quaternion', apply: (all) => all[pick].quaternion.copy(q) };
    case 2:
      return { name: 'mirror', apply: (all) => (all[pick].scale.x *= -1) };
    case 3:
      return {
        name: 'matrix by hand + matrixWorldNeedsUpdate',
        apply: (all) => {
          all[pick].matrixAutoUpdate = false;
          all[pick].matrix.copy(m);
          all[pick].matrixWorldNeedsUpdate = true;
        },
      };
    case 4:
      return {
        name: 'matrix by hand, no flag',
        apply: (all) => {
          all[pick].matrixAutoUpdate = false;
          all[pick].matrix.copy(m);
        },
      };
    case 5:
      return { name: 'matrixAutoUpdate on', apply: (all) => (all[pick].matrixAutoUpdate = true) };
    case 6:
      return { name: 'matrixWorld by hand', apply: (all) => all[pick].matrixWorld.copy(m) };
    case 7:
      return {
        name: 'matrixWorldAutoUpdate toggled',
        apply: (all) => (all[pick].matrixWorldAutoUpdate = !all[pick].matrixWorldAutoUpdate),
      };
    case 8:
      return {
        name: 'scene auto-update toggled',
        apply: (_, s) => (s.matrixWorldAutoUpdate = !s.matrixWorldAutoUpdate),
      };
    case 9:
      return {
        name: 're-parented',
        apply: (all) => {
          const child = all[pick];
          const parent = all[other];
          if (child === all[0] || (parent as Mesh).isMesh) return;
          for (let p: Object3D | null = parent; p; p = p.parent) if (p === child) return;
          parent.add(child);
        },
      };
    case 10:
      return { name: 'visibility toggled', apply: (all) => (all[pick].visible = !all[pick].visible) };
    default:
      return {
        name: 'pivot',
        apply: (all) => {
          all[pick].pivot = v[0] < -1 ? null : new Vector3(v[0], v[1], v[2]);
        },
      };
  }
}

const renderer = { backend: { get: () => ({}) } } as unknown as WebGPURenderer;

describe("weft-gpu/three's matrix walk equals three's updateMatrixWorld", () => {
  gpuTest(
    'after each of 400 seeded changes, every world matrix and every synced mesh matrix is three’s',
    async ({ engine }) => {
      const walked = buildScene(makeRandom(7));
      const updated = buildScene(makeRandom(7));
      const camera = new PerspectiveCamera();
      const state = makeThreeDrawables(renderer, engine.device, false);
      const target = createDrawableScene<Object3D>(engine);
      const random = makeRandom(11);
      let skippedTotal = 0;
      let derivedLess = 0;
      for (let round = 0; round < 400; round++) {
        const change = round === 0 ? null : drawChange(random, walked.all.length);
        change?.apply(walked.all, walked.scene);
        change?.apply(updated.all, updated.scene);
        const list = collectThreeDrawables('test', state, walked.scene, camera);
        syncDrawableSceneHinted(target, list, state);
        skippedTotal += target.sync.steadySkipped;
        if (state.world.computed < walked.all.length) derivedLess++;
        if (updated.scene.matrixWorldAutoUpdate) updated.scene.updateMatrixWorld();
        for (let i = 0; i < walked.all.length; i++)
          expect(walked.all[i].matrixWorld.elements, `${change?.name}, object ${i} (round ${round})`).toEqual(
            updated.all[i].matrixWorld.elements,
          );
        for (const mesh of target.scene.meshes) {
          const object = pickedObjectOf(target, { pickedMesh: mesh, thinInstanceIndex: -1 })!.object;
          const twin = updated.all[walked.all.indexOf(object)];
          expect(Array.from(mesh.worldMatrix), `${change?.name}: the seam's matrix (round ${round})`).toEqual(
            twin.matrixWorld.elements.map(Math.fround),
          );
        }
      }
      // The walk did skip work (else it is three's walk again) and the seam took steady places on its word.
      expect(derivedLess).toBeGreaterThan(200);
      expect(skippedTotal).toBeGreaterThan(1000);
      disposeDrawableScene(target);
    },
  );

  gpuTest(
    'matrixAutoUpdate turned on over a hand-written matrix that starts with the position, quaternion and scale',
    async ({ engine }) => {
      // The kept local values of the two modes lie in the same place: a matrix whose first ten numbers are the object's
      // position, quaternion and scale must not pass for them when three starts composing again.
      const make = () => {
        const scene = new Scene();
        const mesh = new Mesh(box, material);
        mesh.position.set(0.5, -1, 2);
        mesh.quaternion.setFromEuler(new Euler(0.3, 0.2, 0.1));
        mesh.scale.set(1, 2, 1);
        const { x, y, z, w } = mesh.quaternion;
        mesh.matrixAutoUpdate = false;
        mesh.matrix.fromArray([0.5, -1, 2, x, y, z, w, 1, 2, 1, 1, 0, 3, 0, 0, 1]);
        mesh.matrixWorldNeedsUpdate = true;
        scene.add(mesh);
        return { scene, mesh };
      };
      const walked = make();
      const updated = make();
      const state = makeThreeDrawables(renderer, engine.device, false);
      const camera = new PerspectiveCamera();
      collectThreeDrawables('test', state, walked.scene, camera);
      updated.scene.updateMatrixWorld();
      expect(walked.mesh.matrixWorld.elements).toEqual(updated.mesh.matrixWorld.elements);
      walked.mesh.matrixAutoUpdate = updated.mesh.matrixAutoUpdate = true;
      collectThreeDrawables('test', state, walked.scene, camera);
      updated.scene.updateMatrixWorld();
      expect(walked.mesh.matrixWorld.elements).toEqual(updated.mesh.matrixWorld.elements);
    },
  );
});
