// weft-gpu/three's own matrix walk (hosts/three/three-world.ts) against three.js's `scene.updateMatrixWorld()`: two
// identical scenes take the same seeded changes — positions, group rotations, mirrors, pivots, hand-written `matrix`
// (with and without matrixWorldNeedsUpdate) and `matrixWorld`, the auto-update flags, re-parenting, added and removed
// objects, objects that override updateMatrixWorld — walked by the adapter; before each walk a copy of the scene as it
// is then (hand-written matrices included) is updated by three. Every world matrix the walk picks with must be the
// copy's, bit for bit, and the seam's meshes must hold them (as float32) after each sync. three's own `matrixWorld`
// arrays must be the copy's too, but where the walk leaves a hand-written one that three's update overwrites before
// drawing (matrixAutoUpdate and matrixWorldAutoUpdate on): weft picks what three would draw, and writes no more.
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
import {
  collectThreeDrawables,
  makeThreeDrawables,
  type ThreeDrawables,
} from '../../../hosts/three/three-drawables.js';
import { copyWorld, worldPlaceOf } from '../../../hosts/three/three-world.js';
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
function drawChange(random: () => number, size: number): { name: string; apply: Change; handWritten?: number } {
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
      return { name: 'matrixWorld by hand', apply: (all) => all[pick].matrixWorld.copy(m), handWritten: pick };
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

/** A copy of `scene` as it is (clone copies matrices, flags and classes), updated by three; `all`'s twins in order. */
function updatedCopy(scene: Scene, all: Object3D[]): Object3D[] {
  const copy = scene.clone();
  const originals: Object3D[] = [];
  const copies: Object3D[] = [];
  scene.traverse((o) => originals.push(o));
  copy.traverse((o) => copies.push(o));
  if (copy.matrixWorldAutoUpdate) copy.updateMatrixWorld();
  return all.map((o) => copies[originals.indexOf(o)]);
}

/** The world matrix the last walk took for `object` (the one its drawable and its children's products use). */
function walkedWorldOf(state: ThreeDrawables, object: Object3D): number[] {
  const at = worldPlaceOf(state.world, object);
  expect(at, 'the object is a place of the walk').toBeGreaterThanOrEqual(0);
  const out = new Float64Array(16);
  copyWorld(state.world, at, out);
  return Array.from(out);
}

describe("weft-gpu/three's matrix walk equals three's updateMatrixWorld", () => {
  gpuTest(
    'after each of 400 seeded changes, every world matrix and every synced mesh matrix is three’s',
    async ({ engine }) => {
      const walked = buildScene(makeRandom(7));
      const camera = new PerspectiveCamera();
      const state = makeThreeDrawables(renderer, engine.device, false);
      const target = createDrawableScene<Object3D>(engine);
      const random = makeRandom(11);
      let skippedTotal = 0;
      let derivedLess = 0;
      let leftByHand = 0;
      const handWritten = new Set<number>();
      for (let round = 0; round < 400; round++) {
        const change = round === 0 ? null : drawChange(random, walked.all.length);
        change?.apply(walked.all, walked.scene);
        if (change?.handWritten !== undefined) handWritten.add(change.handWritten);
        const updated = updatedCopy(walked.scene, walked.all);
        const list = collectThreeDrawables('test', state, walked.scene, camera);
        syncDrawableSceneHinted(target, list, state);
        skippedTotal += target.sync.steadySkipped;
        if (state.world.computed < walked.all.length) derivedLess++;
        for (let i = 0; i < walked.all.length; i++) {
          const object = walked.all[i];
          const three = updated[i].matrixWorld.elements;
          expect(walkedWorldOf(state, object), `${change?.name}, object ${i} (round ${round})`).toEqual(three);
          if (handWritten.has(i) && object.matrixWorld.elements.some((v, k) => v !== three[k])) {
            // Left as written only where three's next update overwrites it before drawing.
            expect(object.matrixAutoUpdate && object.matrixWorldAutoUpdate && walked.scene.matrixWorldAutoUpdate).toBe(
              true,
            );
            leftByHand++;
          } else
            expect(object.matrixWorld.elements, `${change?.name}, object ${i}'s matrixWorld (round ${round})`).toEqual(
              three,
            );
        }
        for (const mesh of target.scene.meshes) {
          const object = pickedObjectOf(target, { pickedMesh: mesh, thinInstanceIndex: -1 })!.object;
          const twin = updated[walked.all.indexOf(object)];
          expect(Array.from(mesh.worldMatrix), `${change?.name}: the seam's matrix (round ${round})`).toEqual(
            twin.matrixWorld.elements.map(Math.fround),
          );
        }
      }
      // The walk did skip work (else it is three's walk again) and the seam took steady places on its word.
      expect(derivedLess).toBeGreaterThan(200);
      expect(skippedTotal).toBeGreaterThan(1000);
      // The seeded changes do leave a hand-written matrixWorld in place somewhere (else the rule above is untested).
      expect(leftByHand).toBeGreaterThan(0);
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

  gpuTest(
    'a hand-written matrixWorld three overwrites is left alone but never picked with, nor multiplied into children',
    async ({ engine }) => {
      // scene > group > (mesh, camera), and a second mesh: the group and the second mesh get a matrixWorld by hand;
      // then the first mesh and the camera move, and the second mesh is listed again (its material hidden and shown).
      const make = () => {
        const scene = new Scene();
        const group = new Group();
        group.position.set(1, 2, 3);
        const mesh = new Mesh(box, material);
        mesh.position.set(0, 1, 0);
        const camera = new PerspectiveCamera();
        const other = new Mesh(box, new MeshBasicMaterial());
        other.position.set(-2, 0, 0);
        group.add(mesh, camera);
        scene.add(group, other);
        return { scene, group, mesh, camera, other };
      };
      const walked = make();
      const reference = make();
      const state = makeThreeDrawables(renderer, engine.device, false);
      const target = createDrawableScene<Object3D>(engine);
      const view = new PerspectiveCamera();
      syncDrawableSceneHinted(target, collectThreeDrawables('test', state, walked.scene, view), state);
      const byHand = new Matrix4().makeTranslation(40, 50, 60);
      walked.group.matrixWorld.copy(byHand);
      walked.other.matrixWorld.copy(byHand);
      syncDrawableSceneHinted(target, collectThreeDrawables('test', state, walked.scene, view), state);
      walked.other.material.visible = false;
      syncDrawableSceneHinted(target, collectThreeDrawables('test', state, walked.scene, view), state);
      walked.other.material.visible = true;
      for (const { mesh, camera } of [walked, reference]) {
        mesh.position.x += 0.5;
        camera.position.z += 2;
      }
      const list = collectThreeDrawables('test', state, walked.scene, view);
      syncDrawableSceneHinted(target, list, state);
      reference.scene.updateMatrixWorld();
      // The second mesh's is left as written (three's next update overwrites it); the group's was read by its moved
      // children, so the walk wrote three's world there first. The walk's worlds are three's.
      expect(walked.other.matrixWorld.elements).toEqual(byHand.elements);
      expect(walked.group.matrixWorld.elements).toEqual(reference.group.matrixWorld.elements);
      expect(walkedWorldOf(state, walked.group)).toEqual(reference.group.matrixWorld.elements);
      expect(walked.mesh.matrixWorld.elements).toEqual(reference.mesh.matrixWorld.elements);
      expect(walked.camera.matrixWorld.elements).toEqual(reference.camera.matrixWorld.elements);
      const drawn = (object: Object3D) => Array.from(list.find((d) => d.object === object)!.worldMatrix);
      expect(drawn(walked.mesh)).toEqual(reference.mesh.matrixWorld.elements);
      expect(drawn(walked.other)).toEqual(reference.other.matrixWorld.elements);
      for (const mesh of target.scene.meshes) {
        const object = pickedObjectOf(target, { pickedMesh: mesh, thinInstanceIndex: -1 })!.object;
        const twin = object === walked.mesh ? reference.mesh : reference.other;
        expect(Array.from(mesh.worldMatrix)).toEqual(twin.matrixWorld.elements.map(Math.fround));
      }
      disposeDrawableScene(target);
    },
  );
});
