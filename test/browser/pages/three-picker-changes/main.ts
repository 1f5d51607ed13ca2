// weft-gpu/three keeps what it learnt of a three.js scene between picks (records, geometry stamps, what it last wrote
// into each drawable). Each step here changes one thing three draws — without rendering — and picks the same pixel
// again; three.js's Raycaster (through the pixel centre, the camera's layers, visible ancestors only) is the
// reference. A step counts only if the change changes the reference answer, so a stale cache cannot pass. weft picks
// before the reference runs three's `updateMatrixWorld`, so the adapter's own matrix walk is what is tested.
import {
  BackSide,
  BoxGeometry,
  DoubleSide,
  Float32BufferAttribute,
  FrontSide,
  Group,
  InstancedMesh,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  type Object3D,
  PerspectiveCamera,
  PlaneGeometry,
  Raycaster,
  Scene,
  Vector2,
  Vector3,
} from 'three';
import { WebGPURenderer } from 'three/webgpu';
import {
  createThreePickerAsync,
  disposeThreePicker,
  pickRectThreeAsync,
  pickThreeAsync,
  type ThreePicker,
} from '../../../../hosts/three/index.js';

const width = 160;
const height = 120;

/** One change between two picks: the answers before and after it, weft's and the reference's. */
export interface ChangeStep {
  name: string;
  referenceBefore: string;
  referenceAfter: string;
  weftBefore: string;
  weftAfter: string;
  /** GPU pick passes the pick after the change made: 2 when it went ahead of its walk and was drawn again. */
  passesAfter: number;
}

type Hit = { object: Object3D; instanceId?: number; faceIndex?: number | null } | null;

function shown(object: Object3D | null): boolean {
  for (let o = object; o; o = o.parent) if (!o.visible) return false;
  return true;
}

async function run() {
  const canvas = document.createElement('canvas');
  document.body.append(canvas);
  const renderer = new WebGPURenderer({ canvas });
  renderer.setPixelRatio(1);
  renderer.setSize(width, height, false);
  await renderer.init();

  const scene = new Scene();
  const names = new Map<Object3D, string>();
  const name = (object: Object3D, label: string) => (names.set(object, label), object);
  // A box in a group, a wall behind everything, and a row of four instances below the box.
  const group = new Group();
  const boxMaterial = new MeshBasicMaterial({ side: FrontSide });
  const box = name(new Mesh(new BoxGeometry(1, 1, 1), boxMaterial), 'box') as Mesh;
  box.name = 'box';
  group.add(box);
  scene.add(group);
  const wall = name(new Mesh(new PlaneGeometry(40, 40), new MeshBasicMaterial()), 'wall') as Mesh;
  wall.position.z = -3;
  scene.add(wall);
  const row = name(new InstancedMesh(new BoxGeometry(0.4, 0.4, 0.4), new MeshBasicMaterial(), 4), 'row');
  const instanced = row as InstancedMesh;
  for (let i = 0; i < 4; i++) instanced.setMatrixAt(i, new Matrix4().makeTranslation(-1.2 + 0.8 * i, -1.3, 0));
  scene.add(instanced);
  // A morphed plane in front of the wall's upper left: its one target moves it 20 units away.
  const morphGeometry = new PlaneGeometry(0.8, 0.8);
  const base = morphGeometry.getAttribute('position');
  const moved = new Float32Array(base.count * 3);
  for (let v = 0; v < base.count; v++) moved.set([base.getX(v) + 20, base.getY(v), base.getZ(v)], v * 3);
  morphGeometry.morphAttributes.position = [new Float32BufferAttribute(moved, 3)];
  const morphed = name(new Mesh(morphGeometry, new MeshBasicMaterial()), 'morphed') as Mesh;
  morphed.position.set(-1.8, 1.2, 0);
  morphed.updateMorphTargets();
  scene.add(morphed);

  const camera = new PerspectiveCamera(50, width / height, 0.1, 50);
  camera.position.set(0, 0, 5);
  camera.lookAt(0, 0, 0);
  scene.updateMatrixWorld();
  renderer.render(scene, camera);
  const picker: ThreePicker = await createThreePickerAsync(renderer);

  /** The pixel whose centre sees the world point (x, y, z) as the camera is now. */
  const pixelOf = (x: number, y: number, z: number) => {
    scene.updateMatrixWorld();
    const p = new Vector3(x, y, z).project(camera);
    return { x: Math.floor(((p.x + 1) / 2) * width), y: Math.floor(((1 - p.y) / 2) * height) };
  };
  const key = (hit: Hit) =>
    hit ? `${names.get(hit.object) ?? hit.object.uuid}#${hit.instanceId ?? -1}/${hit.faceIndex}` : 'miss';
  const reference = (pixel: { x: number; y: number }) => {
    scene.updateMatrixWorld();
    const raycaster = new Raycaster();
    raycaster.layers.mask = camera.layers.mask;
    raycaster.setFromCamera(
      new Vector2(((pixel.x + 0.5) / width) * 2 - 1, -((pixel.y + 0.5) / height) * 2 + 1),
      camera,
    );
    const hits = raycaster.intersectObject(scene, true).filter((h) => shown(h.object));
    return key(hits[0] ?? null);
  };
  const weft = async (pixel: { x: number; y: number }) =>
    key(await pickThreeAsync(picker, scene, camera, pixel.x, pixel.y));

  const steps: ChangeStep[] = [];
  /**
   * Picks `pixel`, applies `change`, picks it again (no render between), each against the reference (weft first: the
   * reference updates three's matrices).
   */
  const pickBoth = async (pixel: { x: number; y: number }) => {
    const picked = await weft(pixel);
    return [picked, reference(pixel)];
  };
  const step = async (label: string, pixel: { x: number; y: number }, change: () => void, into = steps) => {
    const [weftBefore, referenceBefore] = await pickBoth(pixel);
    change();
    const passes = picker.picker.picks;
    const [weftAfter, referenceAfter] = await pickBoth(pixel);
    const passesAfter = picker.picker.picks - passes;
    into.push({ name: label, referenceBefore, weftBefore, referenceAfter, weftAfter, passesAfter });
  };
  // Off the box face's diagonals, so the face under the pixel is one triangle's interior.
  const onBox = pixelOf(0.21, 0.12, 0.5);
  await step('material.side FrontSide → BackSide', onBox, () => {
    boxMaterial.side = BackSide;
  });
  await step('material.side BackSide → DoubleSide', onBox, () => {
    boxMaterial.side = DoubleSide;
  });
  await step('a new material with another side', onBox, () => {
    box.material = new MeshBasicMaterial({ side: BackSide });
  });
  await step('mesh.material back to a front-sided one', onBox, () => {
    box.material = boxMaterial;
    boxMaterial.side = FrontSide;
  });
  await step('parent hidden (group.visible = false)', onBox, () => {
    group.visible = false;
  });
  await step('parent shown again', onBox, () => {
    group.visible = true;
  });
  await step('mesh on a layer the camera does not see', onBox, () => {
    box.layers.set(2);
  });
  await step('camera enables that layer', onBox, () => {
    camera.layers.enable(2);
  });
  await step('mirrored: scale.x = -1 turns the culled side', onBox, () => {
    box.scale.x = -1;
  });
  await step('not mirrored again', onBox, () => {
    box.scale.x = 1;
  });
  await step('position attribute replaced (a new attribute, version 0)', onBox, () => {
    const position = box.geometry.getAttribute('position');
    const moved = Float32Array.from(position.array as Float32Array, (v, i) => (i % 3 === 0 ? v + 0.35 : v));
    box.geometry.setAttribute('position', new Float32BufferAttribute(moved, 3));
  });
  await step('index replaced (faces listed in reverse order)', onBox, () => {
    const index = box.geometry.index!;
    const reversed: number[] = [];
    for (let f = index.count / 3 - 1; f >= 0; f--)
      reversed.push(index.getX(f * 3), index.getX(f * 3 + 1), index.getX(f * 3 + 2));
    box.geometry.setIndex(reversed);
  });
  await step('mesh.geometry swapped for another', onBox, () => {
    box.geometry = new BoxGeometry(0.2, 0.2, 1);
  });
  const lastInstance = pixelOf(-1.2 + 0.8 * 3 + 0.05, -1.3 + 0.05, 0.2);
  await step('InstancedMesh.count 4 → 2', lastInstance, () => {
    instanced.count = 2;
  });
  await step('InstancedMesh.count 2 → 4', lastInstance, () => {
    instanced.count = 4;
  });
  const onMorphed = pixelOf(-1.8 + 0.13, 1.2 + 0.07, 0);
  await step('morph influence 0 → 1', onMorphed, () => {
    morphed.morphTargetInfluences![0] = 1;
  });
  await step('morph influence 1 → 0', onMorphed, () => {
    morphed.morphTargetInfluences![0] = 0;
  });
  // Matrices, moved between two picks in each way three allows: a 0.8 box alone in its group, right of the others.
  const moverGroup = new Group();
  moverGroup.position.set(1.8, 1.1, 0);
  const mover = name(new Mesh(new BoxGeometry(0.8, 0.8, 0.8), new MeshBasicMaterial()), 'mover') as Mesh;
  moverGroup.add(mover);
  scene.add(moverGroup);
  const onMover = pixelOf(1.8 + 0.17, 1.1 + 0.09, 0.4);
  await step('mesh moved by position', onMover, () => {
    mover.position.x = 1;
  });
  await step('mesh moved back by position', onMover, () => {
    mover.position.x = 0;
  });
  await step("parent group's rotation", onMover, () => {
    moverGroup.rotation.y = -Math.PI / 4;
  });
  await step("parent group's rotation undone", onMover, () => {
    moverGroup.rotation.y = 0;
  });
  await step('matrix by hand (matrixAutoUpdate false, matrixWorldNeedsUpdate)', onMover, () => {
    mover.matrixAutoUpdate = false;
    mover.matrix.makeTranslation(0, 1, 0);
    mover.matrixWorldNeedsUpdate = true;
  });
  await step('matrixAutoUpdate on again (composed from position)', onMover, () => {
    mover.matrixAutoUpdate = true;
  });
  await step('matrixWorldAutoUpdate false, matrixWorld by hand', onMover, () => {
    mover.matrixWorldAutoUpdate = false;
    mover.matrixWorld.makeTranslation(1.8, 2.1, 0);
  });
  await step('matrixWorldAutoUpdate on again', onMover, () => {
    mover.matrixWorldAutoUpdate = true;
  });
  // three's update overwrites a matrixWorld written by hand (matrixWorldAutoUpdate on): the answer must not change.
  const overwritten: ChangeStep[] = [];
  await step(
    'matrixWorld by hand, overwritten by three',
    onMover,
    () => mover.matrixWorld.makeTranslation(1.8, 2.1, 0),
    overwritten,
  );
  // A camera in the scene moves with its parent (its matrices are read after the walk updated them).
  const rig = new Group();
  scene.add(rig);
  rig.add(camera);
  await step("camera's parent moved", onMover, () => {
    rig.position.x = -1;
  });
  rig.position.x = 0;
  // A rectangle pick after a steady one is drawn ahead of its walk too: the mover moved away in between is not listed.
  const around = (p: { x: number; y: number }) =>
    pickRectThreeAsync(picker, scene, camera, p.x - 1, p.y - 1, 3, 3).then((hits) =>
      hits.map((h) => names.get(h.object) ?? h.object.uuid),
    );
  await around(onMover);
  const rectBefore = await around(onMover);
  mover.position.x = 3;
  const rectPasses = picker.picker.picks;
  const rectAfter = await around(onMover);
  const rect = { before: rectBefore, after: rectAfter, passesAfter: picker.picker.picks - rectPasses };
  mover.position.x = 0;
  // A draw range is refused (typed error naming it) even when set after the mesh was first picked; cleared, picks work.
  box.geometry.setDrawRange(0, 6);
  let drawRangeError = '';
  await weft(onBox).catch((e: Error) => (drawRangeError = `${e.name}: ${e.message}`));
  box.geometry.setDrawRange(0, Number.POSITIVE_INFINITY);
  const afterDrawRange = [reference(onBox), await weft(onBox)];
  disposeThreePicker(picker);
  renderer.dispose();
  return { steps, overwritten, drawRangeError, afterDrawRange, rect };
}

run().then(
  (result) => (window.__weftResult = result),
  (error: unknown) =>
    (window.__weftResult = {
      error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error),
    }),
);
