// weft-gpu/babylon in Chromium against Babylon.js's own CPU pick (and three-mesh-bvh for the skinned and morphed
// meshes) on seeded random scenes, every pixel; then multi-point and box picks, concurrency, clip planes, typed
// errors and a device loss. Publishes the tallies for test/browser/babylon-picker.test.ts.
import { WebGPUEngine } from '@babylonjs/core/Engines/webgpuEngine.js';
import type { PickingInfo } from '@babylonjs/core/Collisions/pickingInfo.js';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { Plane } from '@babylonjs/core/Maths/math.plane.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import { CreateLines } from '@babylonjs/core/Meshes/Builders/linesBuilder.js';
import {
  BabylonPickError,
  boxPickBabylonAsync,
  createBabylonPickerAsync,
  disposeBabylonPicker,
  getBabylonPickerOwnedBytes,
  multiPickBabylonAsync,
  pickBabylonAsync,
} from '../../../../hosts/babylon/index.js';
import { PickError } from '../../../../picking/index.js';
import { beforeFirstFrame } from './before-first-frame.js';
import { sharedGeometry } from './shared-geometry.js';
import { babylonReference, deformedReference, drawnSoups, interiorPixels, makeFrame, pixelRay } from './reference.js';
import { buildScene, type SceneVariant } from './scene.js';

const variants: SceneVariant[] = [
  {
    name: 'right-handed, perspective, reverse depth',
    rightHanded: true,
    orthographic: false,
    reverseDepth: true,
    seed: 35,
  },
  {
    name: 'left-handed, orthographic, standard depth',
    rightHanded: false,
    orthographic: true,
    reverseDepth: false,
    seed: 36,
  },
];

export interface Tally {
  variant: string;
  pixels: number;
  interior: number;
  hits: number;
  deformedHits: number;
  identity: number;
  face: number;
  point: number;
  barycentric: number;
  normalCompared: number;
  normal: number;
  maxPoint: number;
  maxBarycentric: number;
  maxNormalDegrees: number;
  hiddenPicked: number;
  failures: string[];
}

const keyOf = (mesh: AbstractMesh | null | undefined, thin: number) =>
  mesh ? `${mesh.name}${thin >= 0 ? `#${thin}` : ''}` : '-';

async function accuracy(engine: WebGPUEngine, variant: SceneVariant, checks: Record<string, unknown>): Promise<Tally> {
  const test = buildScene(engine, variant);
  const { scene } = test;
  await scene.whenReadyAsync();
  engine.beginFrame();
  scene.render();
  engine.endFrame();
  const width = engine.getRenderWidth();
  const height = engine.getRenderHeight();
  const frame = makeFrame(test.camera, width, height, variant.rightHanded, variant.orthographic);
  const { deformed, cast } = deformedReference(test);
  const inside = interiorPixels(frame, drawnSoups(test, deformed));
  const rigid = new Set<AbstractMesh>([...test.rigid, ...test.rigid.flatMap((m) => m.instances)]);
  const hidden = new Set(test.hidden.map((m) => m.name));

  const before = countAllocations(engine);
  const picker = await createBabylonPickerAsync(engine, scene);
  const points = Array.from({ length: width * height }, (_, i) => ({ x: i % width, y: Math.floor(i / width) }));
  const infos: PickingInfo[] = [];
  for (let at = 0; at < points.length; at += 1024)
    infos.push(...(await multiPickBabylonAsync(picker, points.slice(at, at + 1024))));
  checks[`${variant.name}: bytes allocated by the picker (GPU buffers + textures)`] = before.bytes();
  checks[`${variant.name}: picker-owned mesh-data bytes`] = getBabylonPickerOwnedBytes(picker);
  checks[`${variant.name}: detail method`] = picker.gpuPicker.detailMethod;

  const tally: Tally = {
    variant: variant.name,
    pixels: points.length,
    interior: 0,
    hits: 0,
    deformedHits: 0,
    identity: 0,
    face: 0,
    point: 0,
    barycentric: 0,
    normalCompared: 0,
    normal: 0,
    maxPoint: 0,
    maxBarycentric: 0,
    maxNormalDegrees: 0,
    hiddenPicked: 0,
    failures: [],
  };
  const ids = new Set<string>();
  for (let i = 0; i < points.length; i++) {
    const got = infos[i];
    if (got.hit) ids.add(keyOf(got.pickedMesh, got.thinInstanceIndex));
    if (got.pickedMesh && hidden.has(got.pickedMesh.name)) tally.hiddenPicked++;
    if (!inside[i]) continue;
    tally.interior++;
    const { origin, direction } = pixelRay(frame, points[i].x, points[i].y);
    const rb = babylonReference(test, rigid, variant.rightHanded, origin, direction);
    const rt = cast(origin, direction);
    const useThree = !!rt && (!rb || rt.distance < rb.distance);
    const ref = useThree
      ? {
          mesh: rt!.mesh as AbstractMesh,
          thin: -1,
          faceId: rt!.faceId,
          point: rt!.point,
          distance: rt!.distance,
          bu: rt!.bu,
          bv: rt!.bv,
        }
      : rb
        ? {
            mesh: rb.pickedMesh!,
            thin: rb.thinInstanceIndex ?? -1,
            faceId: rb.faceId,
            point: [rb.pickedPoint!.x, rb.pickedPoint!.y, rb.pickedPoint!.z],
            distance: rb.distance,
            bu: rb.bu,
            bv: rb.bv,
          }
        : null;
    if (ref) tally.hits++;
    if (useThree) tally.deformedHits++;
    const want = keyOf(ref?.mesh, ref?.thin ?? -1);
    const have = got.hit ? keyOf(got.pickedMesh, got.thinInstanceIndex) : '-';
    const fail = (what: string) =>
      tally.failures.length < 20 && tally.failures.push(`pixel (${points[i].x}, ${points[i].y}): ${what}`);
    if (want !== have) {
      fail(`identity ${have}, reference ${want}${useThree ? ' (three-mesh-bvh)' : ''}`);
      continue;
    }
    tally.identity++;
    if (!ref) {
      tally.face++;
      continue;
    }
    if (got.faceId !== ref.faceId) {
      fail(`${have} face ${got.faceId}, reference ${ref.faceId}`);
      continue;
    }
    tally.face++;
    const p = got.pickedPoint!;
    const pointError = Math.hypot(p.x - ref.point[0], p.y - ref.point[1], p.z - ref.point[2]) / ref.distance;
    tally.maxPoint = Math.max(tally.maxPoint, pointError);
    if (pointError <= 1e-5 && Math.abs(got.distance - ref.distance) <= 1e-5 * ref.distance) tally.point++;
    else
      fail(
        `${have} point error ${pointError.toExponential(2)} × distance, distance ${got.distance} vs ${ref.distance}`,
      );
    const baryError = Math.max(Math.abs(got.bu - ref.bu), Math.abs(got.bv - ref.bv));
    tally.maxBarycentric = Math.max(tally.maxBarycentric, baryError);
    if (baryError <= 1e-4) tally.barycentric++;
    else fail(`${have} bu/bv (${got.bu}, ${got.bv}), reference (${ref.bu}, ${ref.bv})`);
    if (!useThree && rb) {
      const a = got.getNormal(true, true);
      const b = rb.getNormal(true, true);
      if (a && b) {
        tally.normalCompared++;
        const degrees = (Math.acos(Math.min(1, a.x * b.x + a.y * b.y + a.z * b.z)) * 180) / Math.PI;
        tally.maxNormalDegrees = Math.max(tally.maxNormalDegrees, degrees);
        if (degrees <= 0.01) tally.normal++;
        else fail(`${have} normal ${degrees.toFixed(4)}° off`);
      }
    }
  }

  // The box over the whole frame sees exactly what the pixels saw.
  const box = await boxPickBabylonAsync(picker, 0, 0, width, height);
  const boxKeys = box.meshes.map((m, k) => keyOf(m, box.thinInstanceIndexes[k])).sort();
  checks[`${variant.name}: box pick of the frame = the pixels' meshes`] = JSON.stringify(boxKeys) ===
    JSON.stringify([...ids].sort()) || { box: boxKeys, pixels: [...ids].sort() };
  checks[`${variant.name}: meshes seen`] = ids.size;

  // Several calls in flight at once all resolve, each with the answer it has alone.
  const sample = [5, 777, 2000, 3333, 5000, 6000].map((i) => points[i % points.length]);
  const together = await Promise.all([
    ...sample.map((q) => pickBabylonAsync(picker, q.x, q.y)),
    multiPickBabylonAsync(picker, sample),
    boxPickBabylonAsync(picker, 10, 10, 40, 30),
  ]);
  const alone = sample.map((q) => infos[q.y * width + q.x]);
  checks[`${variant.name}: concurrent picks agree`] = sample.every((_, k) => {
    const single = together[k] as PickingInfo;
    const many = (together[sample.length] as PickingInfo[])[k];
    return (
      single.pickedMesh === alone[k].pickedMesh &&
      many.pickedMesh === alone[k].pickedMesh &&
      single.faceId === alone[k].faceId
    );
  });

  // A pick that follows a steady one is drawn ahead of its walk (hosts/pick-ahead.ts): a mesh moved in between must
  // not be answered (the walk finds the move and the pick is drawn again), and with nothing moved the early pass stands.
  const movable = points.find((q) => {
    const mesh = infos[q.y * width + q.x].pickedMesh;
    return mesh && mesh !== test.skinned && mesh !== test.morphed && !mesh.parent;
  });
  if (movable) {
    const steady = await pickBabylonAsync(picker, movable.x, movable.y);
    const mesh = steady.pickedMesh!;
    let passes = picker.gpuPicker.picks;
    const still = await pickBabylonAsync(picker, movable.x, movable.y);
    const stillPasses = picker.gpuPicker.picks - passes;
    const was = mesh.position.clone();
    mesh.position.x += 1000;
    passes = picker.gpuPicker.picks;
    const moved = await pickBabylonAsync(picker, movable.x, movable.y);
    const movedPasses = picker.gpuPicker.picks - passes;
    mesh.position.copyFrom(was);
    // The same with a box around the pixel: steady twice, then the mesh moved away.
    const [x1, y1] = [Math.max(0, movable.x - 1), Math.max(0, movable.y - 1)];
    const [x2, y2] = [Math.min(width, movable.x + 2), Math.min(height, movable.y + 2)];
    const boxAround = () => boxPickBabylonAsync(picker, x1, y1, x2, y2);
    await boxAround();
    const boxStill = await boxAround();
    mesh.position.x += 1000;
    passes = picker.gpuPicker.picks;
    const boxMoved = await boxAround();
    const boxMovedPasses = picker.gpuPicker.picks - passes;
    mesh.position.copyFrom(was);
    checks[`${variant.name}: pick ahead of the walk`] = {
      stillSame: still.pickedMesh === mesh && still.faceId === steady.faceId,
      stillPasses,
      movedMeshAnswered: moved.pickedMesh === mesh,
      movedPasses,
      boxStillHasMesh: boxStill.meshes.includes(mesh),
      boxMovedHasMesh: boxMoved.meshes.includes(mesh),
      boxMovedPasses,
    };
  } else checks[`${variant.name}: pick ahead of the walk`] = 'no movable mesh under a pixel';

  // Clip planes: what the plane cuts away is never picked, and what is behind it is; set on the scene, or on the
  // materials of the meshes (each mesh's own, which the walk finds while it lists the mesh).
  if (variant.rightHanded) {
    const deformedMeshes = new Set<AbstractMesh>([test.skinned, test.morphed]);
    const clipChecks = async (label: string) => {
      const clipped = await multiPickBabylonAsync(picker, points, { predicate: (m) => !deformedMeshes.has(m) });
      let agree = 0;
      let compared = 0;
      const clipFailures: string[] = [];
      for (let i = 0; i < points.length; i++) {
        if (!inside[i]) continue;
        const p = clipped[i].pickedPoint;
        compared++;
        if (!p || p.x <= 0.3 + 1e-4) agree++;
        else if (clipFailures.length < 5)
          clipFailures.push(`pixel ${i}: ${keyOf(clipped[i].pickedMesh, clipped[i].thinInstanceIndex)} at x = ${p.x}`);
      }
      checks[`${label}: no picked point on the clipped side`] = agree === compared || clipFailures;
      const behind = clipped.filter(
        (info, i) =>
          info.hit && infos[i].hit && infos[i].pickedPoint!.x > 0.3 && info.pickedMesh !== infos[i].pickedMesh,
      ).length;
      checks[`${label}: pixels where a surface behind the plane is picked instead`] = behind;
    };
    scene.clipPlane = new Plane(1, 0, 0, -0.3); // drops x > 0.3
    await clipChecks('clip plane');
    scene.clipPlane = null;
    const planeMaterials = new Set<StandardMaterial>();
    for (const mesh of scene.meshes)
      if (!deformedMeshes.has(mesh) && mesh.material instanceof StandardMaterial) planeMaterials.add(mesh.material);
    for (const material of planeMaterials) material.clipPlane = new Plane(1, 0, 0, -0.3);
    await clipChecks('material clip planes');
    for (const material of planeMaterials) material.clipPlane = null;
    // Planes gone: the picks are the unclipped ones again.
    const unclipped = await multiPickBabylonAsync(picker, points, { predicate: (m) => !deformedMeshes.has(m) });
    checks['clip planes removed: picks as before'] = unclipped.every(
      (info, i) => !inside[i] || deformedMeshes.has(infos[i].pickedMesh!) || info.pickedMesh === infos[i].pickedMesh,
    );
  }

  // Typed errors name the mesh and leave the picker working.
  const lines = CreateLines('guide', { points: [new Vector3(0, 0, 0), new Vector3(1, 1, 0)] }, scene);
  lines.isPickable = true;
  checks['lines mesh: typed error'] = await pickBabylonAsync(picker, 10, 10).then(
    () => 'resolved',
    (e) => (e instanceof BabylonPickError ? `${e.code}: ${e.message}` : String(e)),
  );
  lines.dispose();
  checks['bad option: typed error'] = await pickBabylonAsync(picker, 10, 10, { nope: 1 } as never).then(
    () => 'resolved',
    (e) => (e instanceof BabylonPickError ? e.code : String(e)),
  );
  checks['outside the frame: weft PickError'] = await pickBabylonAsync(picker, width + 5, 10).then(
    () => 'resolved',
    (e) => (e instanceof PickError ? e.code : String(e)),
  );
  const again = await pickBabylonAsync(picker, sample[1].x, sample[1].y);
  checks[`${variant.name}: picks after errors`] = again.pickedMesh === alone[1].pickedMesh;
  disposeBabylonPicker(picker);
  checks['after dispose: typed error'] = await pickBabylonAsync(picker, 1, 1).then(
    () => 'resolved',
    (e) => (e instanceof BabylonPickError ? e.code : String(e)),
  );
  scene.dispose();
  return tally;
}

/** Counts the bytes of GPU buffers and textures made on the engine's device from now on. */
function countAllocations(engine: WebGPUEngine): { bytes(): number } {
  const device = (engine as unknown as { _device: GPUDevice })._device;
  let total = 0;
  const createBuffer = device.createBuffer.bind(device);
  const createTexture = device.createTexture.bind(device);
  device.createBuffer = (descriptor) => {
    total += descriptor.size;
    return createBuffer(descriptor);
  };
  device.createTexture = (descriptor) => {
    const size = descriptor.size as GPUExtent3DDict | number[];
    const [w, h, d] = Array.isArray(size) ? size : [size.width, size.height, size.depthOrArrayLayers];
    // Counted at 16 bytes per texel (the widest pick target format): an upper bound.
    total += w * (h ?? 1) * (d ?? 1) * 16;
    return createTexture(descriptor);
  };
  return {
    bytes: () => {
      device.createBuffer = createBuffer;
      device.createTexture = createTexture;
      return total;
    },
  };
}

async function run() {
  const canvas = document.querySelector('canvas')!;
  const engine = new WebGPUEngine(canvas, { antialias: false, adaptToDeviceRatio: false });
  await engine.initAsync();
  const device = (engine as unknown as { _device: GPUDevice })._device;
  device.addEventListener('uncapturederror', (event) =>
    (window.__weftErrors ??= []).push((event as GPUUncapturedErrorEvent).error.message),
  );
  const checks: Record<string, unknown> = {};
  const tallies: Tally[] = [];
  await beforeFirstFrame(engine, checks);
  await sharedGeometry(engine, checks);
  for (const variant of variants) tallies.push(await accuracy(engine, variant, checks));
  // A lost device: picks are refused with a typed error that says what to do.
  const test = buildScene(engine, variants[0]);
  const picker = await createBabylonPickerAsync(engine, test.scene);
  await pickBabylonAsync(picker, 40, 30);
  device.destroy();
  await device.lost;
  checks['device lost: typed error'] = await pickBabylonAsync(picker, 40, 30).then(
    () => 'resolved',
    (e) => (e instanceof BabylonPickError ? `${e.code}: ${e.message}` : String(e)),
  );
  return { babylon: WebGPUEngine.Version, tallies, checks };
}

run().then(
  (result) => (window.__weftResult = result),
  (error: unknown) =>
    (window.__weftResult = {
      error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error),
    }),
);
