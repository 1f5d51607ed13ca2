import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  createBoxMesh,
  createMeshFromData,
  createScene,
  disposeMesh,
  type Engine,
  makePerspectiveCamera,
  makeSkeleton,
  type Mesh,
  type Scene,
  setBoneMatrix,
  setMeshWorldMatrix,
  setThinInstances,
} from '../../../engine/index.js';
import { whenEngineReadyAsync } from '../../../engine/engine.js';
import {
  createGpuPicker,
  enableDetailedPicking,
  type PickingInfo,
  pickAsync,
  pickManyAsync,
} from '../../../picking/index.js';
import { twoBoneBox } from '../../support/vat-reference.js';
import { gpuTest } from '../../support/gpu.js';
import { cameraPixelRay, makeFloat64Camera, projectToPixel } from '../../support/camera-rays.js';
import {
  castReferenceRay,
  createReferenceScene,
  type ReferenceMesh,
  type ReferenceScene,
} from '../../support/reference-raycast.js';

/** The mesh as the reference caster sees it, copied now (positions never change; matrices are copied). */
function copyForReference(mesh: Mesh): ReferenceMesh {
  return {
    id: mesh.uniqueId,
    positions: mesh.positions,
    indices: mesh.geometry.indices,
    worldMatrix: Float32Array.from(mesh.worldMatrix),
    thinInstances: mesh.thinInstances ? Float32Array.from(mesh.thinInstances) : null,
    doubleSided: true,
  };
}

function referenceOf(scene: Scene): ReferenceScene {
  return createReferenceScene(scene.meshes.filter((m) => m.pickable && !m.disposed).map(copyForReference));
}

function rowInstances(count: number, dx: number): Float32Array {
  const data = new Float32Array(count * 16);
  for (let i = 0; i < count; i++) data.set(mat4.translation([(i - (count - 1) / 2) * 1.6 + dx, 0, 0]), i * 16);
  return data;
}

function makeScene(engine: Engine) {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0, 0, 8], target: [0, 0, 0], fovY: 0.8 });
  createBoxMesh(scene, 'wall', { width: 14, height: 9, depth: 0.2 }, { worldMatrix: mat4.translation([0, 0, -2]) });
  createBoxMesh(scene, 'front', { width: 2, height: 1, depth: 1 }, { worldMatrix: mat4.translation([-1, 1.5, 0]) });
  createBoxMesh(scene, 'row', {}, { worldMatrix: mat4.translation([0, -1, 0]), thinInstances: rowInstances(3, 0) });
  return scene;
}

/** A grid of pixels covering the frame. */
function gridPoints(engine: Engine, step: number): { x: number; y: number }[] {
  const points: { x: number; y: number }[] = [];
  for (let y = step / 2; y < engine.height; y += step)
    for (let x = step / 2; x < engine.width; x += step) points.push({ x: Math.floor(x), y: Math.floor(y) });
  return points;
}

/** Each point's answer by the reference caster on the scene copied before the call: "mesh#instance" or "miss". */
function expectedAt(engine: Engine, scene: Scene, reference: ReferenceScene, points: { x: number; y: number }[]) {
  const names = new Map(scene.meshes.map((m) => [m.uniqueId, m.name]));
  return points.map((p) => {
    const ray = cameraPixelRay(scene.camera!, p.x, p.y, engine.width, engine.height);
    const hit = castReferenceRay(reference, ray.origin, ray.direction);
    return hit ? `${names.get(hit.meshId)}${hit.thinInstanceIndex >= 0 ? `#${hit.thinInstanceIndex}` : ''}` : 'miss';
  });
}

const who = (info: PickingInfo) =>
  info.hit ? `${info.pickedMesh!.name}${info.thinInstanceIndex >= 0 ? `#${info.thinInstanceIndex}` : ''}` : 'miss';

/** The pixels whose reference answer is unambiguous (not on an edge: the 4 neighbours at ±0.5 agree). */
function stable(engine: Engine, scene: Scene, reference: ReferenceScene, points: { x: number; y: number }[]) {
  const around = (dx: number, dy: number) =>
    expectedAt(
      engine,
      scene,
      reference,
      points.map((p) => ({ x: p.x + dx, y: p.y + dy })),
    );
  const centre = expectedAt(engine, scene, reference, points);
  const shifted = [around(0.4, 0), around(-0.4, 0), around(0, 0.4), around(0, -0.4)];
  return centre.map((c, i) => shifted.every((s) => s[i] === c));
}

describe('snapshot safety while a discard rule compiles (issue #16 finding 4)', () => {
  gpuTest(
    '20 cold rules: the pick draws the scene as it was at the call, not after the compile',
    async ({ engine }) => {
      const scene = makeScene(engine);
      const picker = createGpuPicker(scene);
      const points = gridPoints(engine, 4);
      let wrong = 0;
      const failures: string[] = [];
      for (let k = 0; k < 20; k++) {
        const reference = referenceOf(scene);
        const expected = expectedAt(engine, scene, reference, points);
        const usable = stable(engine, scene, reference, points);
        const rule = {
          key: 'cold',
          wgsl: `fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.worldPos.y > ${100 + k}.0;\n}`,
        };
        const pending = pickManyAsync(picker, points, { discard: rule });
        // Mutate synchronously, before the compile finishes.
        const front = scene.meshes.find((m) => m.name === 'front')!;
        const row = scene.meshes.find((m) => m.name === 'row')!;
        setMeshWorldMatrix(front, mat4.translation([k % 2 ? -1.5 : 1.5, (k % 3) - 1, 0]));
        setThinInstances(row, rowInstances(2 + (k % 3), k % 2 ? 0.8 : -0.8));
        const added = createBoxMesh(
          scene,
          `added${k}`,
          { width: 3, height: 3, depth: 0.5 },
          { worldMatrix: mat4.translation([k % 2 ? 2 : -2, 0, 1]) },
        );
        const old = scene.meshes.find((m) => m.name.startsWith('added') && m !== added);
        if (old) disposeMesh(old);
        const answers = (await pending).map(who);
        answers.forEach((a, i) => {
          if (!usable[i] || a === expected[i]) return;
          wrong++;
          if (failures.length < 5)
            failures.push(`rule ${k} point (${points[i].x}, ${points[i].y}): ${a} != ${expected[i]}`);
        });
      }
      expect(failures).toEqual([]);
      expect(wrong).toBe(0);
    },
  );
});

/** Mutations of every kind a pick reads, made synchronously after a call. */
function mutate(scene: Scene, k: number): void {
  const front = scene.meshes.find((m) => m.name === 'front')!;
  const row = scene.meshes.find((m) => m.name === 'row')!;
  setMeshWorldMatrix(front, mat4.translation([k % 2 ? -1.5 : 1.5, (k % 3) - 1, 0]));
  setThinInstances(row, rowInstances(2 + (k % 3), k % 2 ? 0.8 : -0.8));
  createBoxMesh(scene, `added${k}`, { width: 3, height: 3, depth: 0.5 }, { worldMatrix: mat4.translation([2, 0, 1]) });
  disposeMesh(scene.meshes.find((m) => m.name === 'wall')!);
}

describe('snapshot safety across a device loss (issue #16 finding 5)', () => {
  gpuTest('a pick redrawn after a device loss draws the scene as it was at the call', async ({ engine }) => {
    const scene = makeScene(engine);
    const picker = createGpuPicker(scene);
    const points = gridPoints(engine, 4);
    await pickManyAsync(picker, points); // warm
    const reference = referenceOf(scene);
    const expected = expectedAt(engine, scene, reference, points);
    const usable = stable(engine, scene, reference, points);
    const lost = engine.device;
    const pending = pickManyAsync(picker, points);
    lost.destroy();
    mutate(scene, 1);
    const answers = (await pending).map(who);
    await whenEngineReadyAsync(engine);
    expect(engine.device).not.toBe(lost);
    const wrong = answers
      .map((a, i) => (usable[i] && a !== expected[i] ? `(${points[i].x}, ${points[i].y}): ${a} != ${expected[i]}` : ''))
      .filter(Boolean);
    expect(wrong).toEqual([]);
    // The next pick sees the scene as it is now.
    const now = expectedAt(engine, scene, referenceOf(scene), points);
    const nowUsable = stable(engine, scene, referenceOf(scene), points);
    const next = (await pickManyAsync(picker, points)).map(who);
    expect(next.filter((a, i) => nowUsable[i] && a !== now[i])).toEqual([]);
  });

  gpuTest("a skinned mesh's picked face normal uses the pose at the call, not at readback", async ({ engine }) => {
    const scene = createScene(engine);
    scene.camera = makePerspectiveCamera({ position: [0, 0, 7], target: [0, 0, 0] });
    const data = twoBoneBox();
    const skeleton = makeSkeleton(2);
    const picker = createGpuPicker(scene);
    expect(enableDetailedPicking(picker)).toBe(true);
    createMeshFromData(scene, 'skinned', data, { skeleton });
    for (let k = 0; k < 10; k++) {
      const pose = mat4.multiply(mat4.rotationY(0.3 + k * 0.05), mat4.rotationX(0.2 - k * 0.04));
      setBoneMatrix(skeleton, 0, pose);
      setBoneMatrix(skeleton, 1, pose);
      const bones = Float64Array.from(skeleton.matrices);
      // Odd poses with a cold rule: the pass itself is drawn after the compile, from the captured pose.
      const discard = {
        key: 'skin',
        wgsl: `fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.worldPos.y > ${50 + k}.0;\n}`,
      };
      const pending = pickAsync(picker, 32 + (k % 3), 30 + (k % 4), k % 2 ? { discard } : {});
      // Another pose right after the call, before the readback.
      setBoneMatrix(skeleton, 0, mat4.rotationZ(1.2));
      setBoneMatrix(skeleton, 1, mat4.rotationZ(-1.2));
      const info = await pending;
      expect(info.hit).toBe(true);
      // Float64 linear-blend skinning of the picked triangle with the pose copied before the call.
      const corners = [0, 1, 2].map((c) => {
        const v = data.indices![info.faceId * 3 + c];
        const p = [data.positions![v * 3], data.positions![v * 3 + 1], data.positions![v * 3 + 2], 1];
        const out = [0, 0, 0];
        for (let j = 0; j < 4; j++) {
          const w = data.weights![v * 4 + j];
          const m = bones.subarray(data.joints![v * 4 + j] * 16, data.joints![v * 4 + j] * 16 + 16);
          for (let r = 0; r < 3; r++) out[r] += w * (m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
        }
        return out;
      });
      const e1 = corners[1].map((x, i) => x - corners[0][i]);
      const e2 = corners[2].map((x, i) => x - corners[0][i]);
      const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      const length = Math.hypot(n[0], n[1], n[2]);
      const expected = n.map((x) => x / length);
      info.pickedFaceNormal!.forEach((x, i) => expect(Math.abs(x - expected[i]), `pose ${k}`).toBeLessThan(1e-4));
      // The hit point lies on that triangle as posed at the call (the mesh's world matrix is the identity).
      const offset = info.pickedPoint!.map((x, i) => x - corners[0][i]);
      expect(Math.abs(offset[0] * expected[0] + offset[1] * expected[1] + offset[2] * expected[2])).toBeLessThan(1e-3);
      setBoneMatrix(skeleton, 0, mat4.identity());
    }
  });
});

describe('rule storage is captured at the call (issue #16 finding 4)', () => {
  gpuTest('storage contents edited in place during a cold compile do not reach the pass', async ({ engine }) => {
    const scene = makeScene(engine);
    const picker = createGpuPicker(scene);
    const front = scene.meshes.find((m) => m.name === 'front')!;
    const flags = new Float32Array([0]);
    const point = { x: 0, y: 0 };
    // The pixel over the front box's centre (projected in float64 from the camera's parameters).
    const centre = projectToPixel(makeFloat64Camera(scene.camera!, engine.width, engine.height), [
      front.worldMatrix[12],
      front.worldMatrix[13],
      front.worldMatrix[14],
    ])!;
    point.x = Math.floor(centre.x);
    point.y = Math.floor(centre.y);
    for (let k = 0; k < 3; k++) {
      flags[0] = k % 2;
      const discard = {
        key: 'flags',
        wgsl: `fn pickDiscard(input: PickDiscardInput) -> bool {\n  return flags[0] > 0.5 && input.worldPos.z > -1.0 + ${k}.0 * 0.0001;\n}`,
        storage: [{ name: 'flags', type: 'array<f32>', data: (mesh: Mesh) => (mesh === front ? flags : null) }],
      };
      const pending = pickManyAsync(picker, [point], { discard });
      flags[0] = 1 - flags[0];
      expect(who((await pending)[0]), `rule ${k}`).toBe(k % 2 ? 'wall' : 'front');
    }
  });
});
