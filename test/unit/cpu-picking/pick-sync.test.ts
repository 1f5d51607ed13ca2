import { describe, expect, test } from 'vitest';
import { mat4, vec3 } from 'wgpu-matrix';
import { WeftError } from '../../../core/errors.js';
import { makePerspectiveCamera } from '../../../engine/camera.js';
import { createMeshFromData, type Mesh } from '../../../engine/mesh.js';
import { makeBoxData, makeSphereData } from '../../../engine/primitives/index.js';
import { computeTriangleDetail } from '../../../picking/detailed-picking.js';
import { getPickedNormal, getPickedUV } from '../../../picking/picking-info.js';
import { makePickingRay } from '../../../picking/picking-ray.js';
import {
  CpuPickError,
  createCpuPicker,
  disposeCpuPicker,
  getCpuPicker,
  pickManySync,
  pickManyWithRaysSync,
  pickSync,
  pickWithRaySync,
} from '../../../picking/cpu/index.js';
import { castReferenceRay, castReferenceRayAll, createReferenceScene } from '../../support/reference-raycast.js';
import { makeCpuScene, toReferenceMesh, toReferenceScene } from './scene-fixtures.js';

const close = (actual: readonly number[] | null, expected: readonly number[], digits = 6): void => {
  expect(actual).not.toBeNull();
  actual!.forEach((v, i) => expect(v).toBeCloseTo(expected[i], digits));
};

const codeOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WeftError);
    return (error as WeftError).code;
  }
  return 'no error';
};

/** One triangle whose corners (indices 2, 0, 1) are A0 = (0,0,0), A1 = (1,0,0), A2 = (0,1,0), with uvs and tilted normals. */
function addTriangle(
  scene: ReturnType<typeof makeCpuScene>,
  name: string,
  worldMatrix: Float32Array,
  thinInstances?: Float32Array,
): Mesh {
  return createMeshFromData(
    scene,
    name,
    {
      positions: new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 0]),
      normals: new Float32Array([1, 0, 1, 0, 1, 1, 0, 0, 1]),
      uvs: new Float32Array([0.7, 0.2, 0.4, 0.4, 0.1, 0.9]),
      indices: new Uint16Array([2, 0, 1]),
    },
    { worldMatrix, thinInstances },
  );
}

describe('pickSync / pickWithRaySync: PickingInfo like the GPU picker', () => {
  test('point, distance, Babylon barycentrics, uv, local and world normals (inverse-transpose), face normals, thin instance', () => {
    const scene = makeCpuScene();
    const world = mat4.multiply(
      mat4.translation([1, 2, -3]),
      mat4.multiply(mat4.rotationY(0.4), mat4.scaling([2, 1, 0.5])),
    ) as Float32Array;
    const thin = new Float32Array(32);
    thin.set(mat4.translation([50, 0, 0]), 0);
    thin.set(mat4.rotationX(0.3), 16);
    [3, 7, 11, 15].forEach((lane) => (thin[16 + lane] = 42)); // payload lanes
    const mesh = addTriangle(scene, 'tri', world, thin);
    const instanceWorld = mat4.multiply(world, mat4.rotationX(0.3));
    const local = [0.5 * 0 + 0.2 * 1 + 0.3 * 0, 0.5 * 0 + 0.2 * 0 + 0.3 * 1, 0]; // bu = 0.5, bv = 0.2
    const target = vec3.transformMat4(local, instanceWorld);
    const origin = [target[0] + 1, target[1] + 2, target[2] + 6];
    const info = pickWithRaySync(scene, { origin, direction: vec3.scale(vec3.sub(target, origin), 3) }); // any length
    expect(info.hit).toBe(true);
    expect(info.pickedMesh).toBe(mesh);
    expect([info.faceId, info.thinInstanceIndex, info.subMeshId]).toEqual([0, 1, 0]);
    expect(info.bu).toBeCloseTo(0.5, 5);
    expect(info.bv).toBeCloseTo(0.2, 5);
    close(info.pickedPoint, Array.from(target), 5);
    expect(info.distance).toBeCloseTo(vec3.distance(origin, target), 5);
    expect(getPickedUV(info)).toEqual([
      expect.closeTo(0.5 * 0.1 + 0.2 * 0.7 + 0.3 * 0.4, 6),
      expect.closeTo(0.5 * 0.9 + 0.2 * 0.2 + 0.3 * 0.4, 6),
    ]);
    const localNormal = vec3.normalize([0.2 * 1 + 0.3 * 0, 0.3 * 1, 0.5 + 0.2 + 0.3]);
    close(info.pickedNormal, Array.from(localNormal), 5);
    const normalMatrix = mat4.transpose(mat4.inverse(instanceWorld));
    close(info.pickedNormalWorld, Array.from(vec3.normalize(vec3.transformMat4Upper3x3(localNormal, normalMatrix))), 5);
    close(info.pickedFaceNormal, [0, 0, 1]);
    close(
      info.pickedFaceNormalWorld,
      Array.from(vec3.normalize(vec3.transformMat4Upper3x3([0, 0, 1], normalMatrix))),
      5,
    );
    expect(getPickedNormal(info, true)).toBe(info.pickedNormalWorld);
    // Independent check against three.js + three-mesh-bvh.
    const ref = castReferenceRay(
      createReferenceScene([{ ...toReferenceMesh(mesh), uvs: new Float32Array([0.7, 0.2, 0.4, 0.4, 0.1, 0.9]) }]),
      origin as [number, number, number],
      Array.from(vec3.sub(target, origin)) as [number, number, number],
    )!;
    close(info.pickedNormalWorld, ref.normalWorld!, 5);
    close(info.pickedFaceNormalWorld, ref.faceNormalWorld, 5);
    close(getPickedUV(info), ref.uv!, 5);
  });

  test('back faces are hit with culling: none; world face normals use the inverse-transpose, as the GPU picker does', () => {
    const scene = makeCpuScene();
    const mirrored = addTriangle(
      scene,
      'mirrored',
      mat4.multiply(mat4.scaling([-1, 1, 1]), mat4.rotationY(0.3)) as Float32Array,
    );
    const front = pickWithRaySync(scene, { origin: [-0.2, 0.2, 3], direction: [0, 0, -1] });
    const back = pickWithRaySync(scene, { origin: [-0.2, 0.2, -3], direction: [0, 0, 1] }, { culling: 'none' });
    expect(front.pickedMesh).toBe(mirrored);
    expect(back.pickedMesh).toBe(mirrored);
    close(front.pickedFaceNormal, [0, 0, 1]);
    const local = Array.from(vec3.transformMat4(front.pickedPoint!, mat4.inverse(mirrored.worldMatrix))) as [
      number,
      number,
      number,
    ];
    const gpu = computeTriangleDetail(mirrored, 0, local, mirrored.worldMatrix); // the GPU picker's own routine
    close(front.pickedFaceNormalWorld, gpu.pickedFaceNormalWorld!, 6);
    close(front.pickedNormalWorld, gpu.pickedNormalWorld!, 5);
    expect([front.bu, front.bv]).toEqual([expect.closeTo(gpu.bu, 6), expect.closeTo(gpu.bv, 6)]);
    // Under mirroring that is the image of the local front, opposite to the world-winding normal a rasteriser sees.
    const w = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 0],
    ].map((p) => vec3.transformMat4(p, mirrored.worldMatrix));
    const winding = vec3.normalize(vec3.cross(vec3.sub(w[1], w[0]), vec3.sub(w[2], w[0])));
    expect(vec3.dot(winding, front.pickedFaceNormalWorld!)).toBeCloseTo(-1, 6);
    expect(mirrored.material.doubleSided).toBe(false); // culled by the renderer, still picked
  });

  test('filter, ignore (mesh, instance, range) and pickable gate; visible does not', () => {
    const scene = makeCpuScene();
    const thin = new Float32Array(4 * 16);
    for (let i = 0; i < 4; i++) thin.set(mat4.translation([0, 0, 4 - i * 2]), i * 16); // instance 0 nearest the ray origin
    const boxes = createMeshFromData(scene, 'boxes', makeBoxData(), { thinInstances: thin });
    const wall = createMeshFromData(scene, 'wall', makeBoxData({ width: 5, height: 5, depth: 0.1 }), {
      worldMatrix: mat4.translation([0, 0, -10]),
    });
    const ray = { origin: [0.1, 0.2, 20], direction: [0, 0, -1] };
    expect(pickWithRaySync(scene, ray).thinInstanceIndex).toBe(0);
    expect(pickWithRaySync(scene, ray, { ignore: [{ mesh: boxes, thinInstances: 0 }] }).thinInstanceIndex).toBe(1);
    expect(pickWithRaySync(scene, ray, { ignore: [{ mesh: boxes, thinInstances: [0, 3] }] }).thinInstanceIndex).toBe(3);
    expect(pickWithRaySync(scene, ray, { ignore: [boxes] }).pickedMesh).toBe(wall);
    expect(pickWithRaySync(scene, ray, { filter: (m) => m.name === 'wall' }).pickedMesh).toBe(wall);
    boxes.visible = false;
    expect(pickWithRaySync(scene, ray).pickedMesh).toBe(boxes); // invisible colliders stay pickable
    expect(pickWithRaySync(scene, ray, { filter: () => true }).pickedMesh).toBe(boxes);
    boxes.pickable = false;
    expect(pickWithRaySync(scene, ray).pickedMesh).toBe(wall);
    wall.pickable = false;
    const miss = pickWithRaySync(scene, ray);
    expect([miss.hit, miss.pickedMesh, miss.faceId, miss.distance, miss.pickedPoint]).toEqual([
      false,
      null,
      -1,
      0,
      null,
    ]);
  });

  test('pickManySync returns every hit along the ray, sorted, equal to the reference', () => {
    const scene = makeCpuScene();
    const thin = new Float32Array(3 * 16);
    for (let i = 0; i < 3; i++) thin.set(mat4.translation([0.2 * i, 0, -i * 3]), i * 16);
    createMeshFromData(scene, 'spheres', makeSphereData({ radius: 1 }), { thinInstances: thin });
    createMeshFromData(scene, 'box', makeBoxData({ width: 3, height: 3, depth: 3 }), {
      worldMatrix: mat4.translation([0, 0, -3]),
    });
    const origin: [number, number, number] = [0.15, 0.1, 10];
    const direction: [number, number, number] = [0, 0.01, -1];
    const ours = pickManyWithRaysSync(scene, { origin, direction }, { culling: 'none' });
    const ref = castReferenceRayAll(toReferenceScene(scene), origin, direction);
    expect(ours.length).toBe(ref.length);
    expect(ours.length).toBeGreaterThanOrEqual(8);
    ours.forEach((h, i) => {
      expect([h.pickedMesh!.uniqueId, h.thinInstanceIndex, h.faceId]).toEqual([
        ref[i].meshId,
        ref[i].thinInstanceIndex,
        ref[i].faceId,
      ]);
      expect(h.distance).toBeCloseTo(ref[i].distance, 5);
      if (i > 0) expect(h.distance).toBeGreaterThanOrEqual(ours[i - 1].distance);
    });
    scene.camera = makePerspectiveCamera({ position: [0, 0, 10], target: [0, 0, 0] });
    const pixel = pickManySync(scene, 80, 60, { culling: 'none' });
    expect(pixel.length).toBeGreaterThanOrEqual(8);
    expect(pixel[0].ray?.pixelX).toBe(80);
  });

  test('pickSync uses the engine size by default, honours viewport / devicePixelRatio and clips at the near plane', () => {
    const scene = makeCpuScene(160, 120);
    scene.camera = makePerspectiveCamera({ position: [0, 0, 5], target: [0, 0, 0], near: 0.5, far: 100 });
    const box = createMeshFromData(scene, 'box', makeBoxData());
    const centre = pickSync(scene, 80, 60);
    expect(centre.pickedMesh).toBe(box);
    expect(centre.distance).toBeCloseTo(4.5, 3); // pixel (80, 60) is half a pixel off the optical axis
    expect(centre.ray).toEqual(makePickingRay(scene.camera, 80, 60, { width: 160, height: 120 }));
    expect(pickSync(scene, 40, 30, { devicePixelRatio: 2 }).ray!.pixelX).toBe(80);
    expect(pickSync(scene, 8, 6, { viewport: { width: 16, height: 12 } }).ray!.pixelX).toBe(8);
    const inside = createMeshFromData(
      scene,
      'straddles-near-plane',
      makeBoxData({ width: 0.2, height: 0.2, depth: 0.6 }),
      { worldMatrix: mat4.translation([0, 0, 4.9]) },
    );
    // The pick pass clips what lies closer than the near plane: the front face at z = 5.2 (behind the camera) and
    // the back face at 4.6 (distance 0.4 < near 0.5) are not seen; the box behind is.
    expect(pickSync(scene, 80, 60).pickedMesh).toBe(box);
    expect(pickWithRaySync(scene, centre.ray!, { culling: 'none' }).pickedMesh).toBe(inside); // a plain ray starts at the eye, inside the box
    expect(pickWithRaySync(scene, centre.ray!, { minDistance: 0.5 }).pickedMesh).toBe(box);
    expect(pickWithRaySync(scene, centre.ray!, { maxDistance: 0.3 }).hit).toBe(false);
  });

  test('bad input: typed errors, or misses for geometry that cannot be hit', () => {
    const scene = makeCpuScene();
    expect(pickWithRaySync(scene, { origin: [0, 0, 5], direction: [0, 0, -1] }).hit).toBe(false); // empty scene
    const flat = createMeshFromData(scene, 'zero-scale', makeBoxData(), { worldMatrix: mat4.scaling([1, 0, 1]) });
    expect(pickWithRaySync(scene, { origin: [0, 0, 5], direction: [0, 0, -1] }).hit).toBe(false); // singular transform: draws nothing
    flat.pickable = false;
    expect(codeOf(() => pickSync(scene, 1, 1))).toBe('no-camera');
    scene.camera = makePerspectiveCamera();
    expect(codeOf(() => pickSync(scene, Number.NaN, 1))).toBe('bad-coordinates');
    expect(codeOf(() => pickSync(scene, 1000, 1))).toBe('out-of-range');
    expect(codeOf(() => pickWithRaySync(scene, { origin: [0, 0, 1], direction: [0, 0, 0] }))).toBe('bad-ray');
    expect(codeOf(() => pickWithRaySync(scene, { origin: [0, Number.NaN, 1], direction: [0, 0, -1] }))).toBe('bad-ray');
    expect(codeOf(() => pickWithRaySync(scene, { origin: [0, 0, 1], direction: [0, Infinity, -1] }))).toBe('bad-ray');
    expect(codeOf(() => pickWithRaySync(scene, { origin: [0, 0], direction: [0, 0, -1] } as never))).toBe('bad-ray');
    expect(codeOf(() => pickManyWithRaysSync(scene, { origin: [0, 0, 1], direction: [1e-320, 0, 0] }))).toBe(
      'no error',
    ); // tiny but non-zero: fine
    const ray = { origin: [0, 0, 5], direction: [0, 0, -1] };
    expect(codeOf(() => pickWithRaySync(scene, ray, { filter: 3 as never }))).toBe('bad-option');
    expect(codeOf(() => pickWithRaySync(scene, ray, { ignore: [{}] as never }))).toBe('bad-ignore');
    const plain = createMeshFromData(scene, 'plain', makeBoxData());
    expect(codeOf(() => pickWithRaySync(scene, ray, { ignore: [{ mesh: plain, thinInstances: 0 }] }))).toBe(
      'bad-ignore',
    ); // no instances
    const crowd = createMeshFromData(scene, 'crowd', makeBoxData(), {
      thinInstances: new Float32Array([...mat4.translation([9, 9, 9]), ...mat4.translation([9, 9, 8])]),
      pickable: false,
    });
    expect(codeOf(() => pickWithRaySync(scene, ray, { ignore: [{ mesh: crowd, thinInstances: [1, 1] }] }))).toBe(
      'bad-ignore',
    ); // empty
    expect(codeOf(() => pickWithRaySync(scene, ray, { ignore: [{ mesh: crowd, thinInstances: [0, 3] }] }))).toBe(
      'bad-ignore',
    ); // past the end
    expect(codeOf(() => pickWithRaySync(scene, ray, { ignore: [{ mesh: crowd, thinInstances: [0, 2] }] }))).toBe(
      'no error',
    );
    expect(codeOf(() => pickWithRaySync(scene, ray, { minDistance: -1 }))).toBe('bad-range');
    expect(codeOf(() => pickWithRaySync(scene, ray, { minDistance: 2, maxDistance: 1 }))).toBe('bad-range');
    expect(() => pickWithRaySync(scene, ray, { minDistance: Number.NaN })).toThrow(CpuPickError);
    // Only degenerate triangles: nothing to hit, no error, no hang.
    plain.pickable = false;
    createMeshFromData(scene, 'degenerate', {
      positions: new Float32Array([0, 0, 0, 1, 1, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    });
    expect(pickWithRaySync(scene, { origin: [0.5, 0.5, 5], direction: [0, 0, -1] }).hit).toBe(false);
    expect(pickWithRaySync(scene, { origin: [-1, -1, 0], direction: [1, 1, 0] }).hit).toBe(false); // along the degenerate line
    expect(pickManyWithRaysSync(scene, { origin: [0, 0, 5], direction: [0, 0, -1] })).toEqual([]);
  });
});

describe('CPU picker lifetime', () => {
  test('disposeCpuPicker forgets the scene picker: the next pick uses a fresh default picker with the same answer', () => {
    const scene = makeCpuScene();
    const mesh = createMeshFromData(scene, 'box', makeBoxData({ width: 2, height: 2, depth: 2 }));
    const manual = createCpuPicker(scene, { refit: 'manual' });
    expect(getCpuPicker(scene)).toBe(manual);
    const ray = { origin: [0, 0, 10], direction: [0, 0, -1] };
    const before = pickWithRaySync(scene, ray);
    disposeCpuPicker(manual);
    const fresh = getCpuPicker(scene);
    expect(fresh).not.toBe(manual);
    expect(fresh.options.refit).toBe('auto');
    const after = pickWithRaySync(scene, ray);
    expect([after.pickedMesh, after.faceId, after.distance]).toEqual([mesh, before.faceId, before.distance]);
    expect(after.distance).toBeCloseTo(9, 12);
  });
});
