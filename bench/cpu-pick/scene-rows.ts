// The 10 000-object scene: weft's default options (refit 'auto') vs three-mesh-bvh's ObjectBVH over Meshes with
// acceleratedRaycast, when nothing moved and when one object moves before every pick.
import { type Intersection, Mesh as ThreeMesh, MeshBasicMaterial, Raycaster, Vector2 } from 'three';
import { acceleratedRaycast, MeshBVH, ObjectBVH } from 'three-mesh-bvh';
import { mat4 } from 'wgpu-matrix';
import type { Engine } from '../../engine/engine.js';
import { createMeshFromData, type Mesh, setMeshWorldMatrix } from '../../engine/mesh.js';
import type { MeshData } from '../../engine/mesh-data.js';
import { makeBoxData, makeCapsuleData, makeSphereData, makeTorusData } from '../../engine/primitives/index.js';
import { createScene } from '../../engine/scene.js';
import type { PickingInfo } from '../../picking/index.js';
import { pickSync, pickWithRaySync } from '../../picking/cpu/index.js';
import { agree, describeAgreement, faceKey, makeAgreement, requireAgreement } from './agreement.js';
import { cameraRays, makeCameraPair, randomRays, type Rays, seeded, threeGeometry } from './data.js';
import { type BenchConfig, fmt, interleaved, type Row } from './harness.js';

const perSecond = (n: number, ms: number) => `${fmt((n / ms) * 1000)} /s`;

export function benchScene(count: number, config: BenchConfig, rows: Row[]): void {
  const rand = seeded(3);
  const shapes: MeshData[] = [
    makeSphereData({ segments: 16, rings: 8 }),
    makeBoxData(),
    makeTorusData({ radialSegments: 8, tubularSegments: 16 }),
    makeCapsuleData({ segments: 12, capRings: 4 }),
  ];
  // three.js shares a geometry (and its MeshBVH) between the meshes of one shape; weft shares the BVH of equal data.
  const geometries = shapes.map((s) => {
    const g = threeGeometry(s.positions!, s.indices!);
    g.boundsTree = new MeshBVH(g);
    return g;
  });
  const camera = makeCameraPair([0, 0, 0], 180, 128, 96);
  const scene = createScene({ width: camera.width, height: camera.height } as Engine);
  (scene as { camera: unknown }).camera = camera.weft;
  const material = new MeshBasicMaterial();
  const weftMeshes: Mesh[] = [];
  const threeMeshes: ThreeMesh[] = [];
  const movedMatrices = new Float32Array(count * 16);
  const spread = 200;
  let triangles = 0;
  for (let i = 0; i < count; i++) {
    const world = mat4.translation([(rand() - 0.5) * spread, (rand() - 0.5) * spread * 0.3, (rand() - 0.5) * spread]);
    mat4.rotate(world, [rand(), rand(), rand()], rand() * 6, world);
    mat4.uniformScale(world, 0.5 + rand() * 1.5, world);
    movedMatrices.set(mat4.multiply(mat4.translation([0.3, 0, 0]), world), i * 16);
    const mesh = createMeshFromData(scene, `object${i}`, shapes[i % 4], { worldMatrix: world });
    triangles += mesh.geometry.triangleCount;
    weftMeshes.push(mesh);
    const object = new ThreeMesh(geometries[i % 4], material);
    object.raycast = acceleratedRaycast;
    object.matrixAutoUpdate = false;
    object.matrix.fromArray(world);
    object.updateMatrixWorld(true);
    object.userData.index = i;
    threeMeshes.push(object);
  }
  const objects = new ObjectBVH(threeMeshes);
  const weftIndex = new Map(weftMeshes.map((m, i) => [m, i]));
  const raycaster = new Raycaster();
  raycaster.firstHitOnly = true;
  const out: Intersection[] = [];
  const weftKey = (info: PickingInfo) => {
    const i = weftIndex.get(info.pickedMesh!)!;
    return `${i}:${faceKey(shapes[i % 4].indices!, info.faceId)}`;
  };
  const threeKey = (hit: Intersection) => {
    const i = hit.object.userData.index as number;
    return `${i}:${faceKey(geometries[i % 4].index!.array, hit.faceIndex!)}`;
  };
  const weftRay = { origin: [0, 0, 0], direction: [0, 0, 1] };
  const weftPick = (rays: Rays, i: number) => {
    weftRay.origin[0] = rays[i];
    weftRay.origin[1] = rays[i + 1];
    weftRay.origin[2] = rays[i + 2];
    weftRay.direction[0] = rays[i + 3];
    weftRay.direction[1] = rays[i + 4];
    weftRay.direction[2] = rays[i + 5];
    return pickWithRaySync(scene, weftRay);
  };
  const threePick = (rays: Rays, i: number) => {
    raycaster.ray.origin.set(rays[i], rays[i + 1], rays[i + 2]);
    raycaster.ray.direction.set(rays[i + 3], rays[i + 4], rays[i + 5]);
    out.length = 0;
    objects.raycast(raycaster, out);
    return out[0];
  };
  /** Checks every `step`-th ray. */
  const check = (rays: Rays, step: number) => {
    const a = makeAgreement();
    for (let i = 0; i < rays.length; i += 6 * step) {
      const info = weftPick(rays, i);
      const theirs = threePick(rays, i);
      agree(
        a,
        info.hit ? info.distance : Infinity,
        info.hit ? weftKey(info) : '',
        theirs ? theirs.distance : Infinity,
        theirs ? threeKey(theirs) : '',
      );
    }
    return a;
  };
  const subject = `${fmt(count)} objects (${fmt(triangles)} tris)`;
  const raySets = [
    { kind: 'camera rays', rays: cameraRays(camera) },
    { kind: 'random rays', rays: randomRays([0, 0, 0], spread, 8192, 11) },
  ];
  for (const { kind, rays } of raySets) {
    const n = rays.length / 6;
    const a = check(rays, 1);
    requireAgreement(`scene, ${kind}`, a);
    const [w, t] = interleaved(config, [
      () => {
        for (let i = 0; i < rays.length; i += 6) weftPick(rays, i);
      },
      () => {
        for (let i = 0; i < rays.length; i += 6) threePick(rays, i);
      },
    ]);
    rows.push({
      subject: rows.some((r) => r.subject === subject) ? '' : subject,
      measure: `default options, nothing moved, ${kind}`,
      weft: perSecond(n, w),
      three: perSecond(n, t),
      ratio: t / w,
      target: { kind: 'min', value: 2 },
      notes: `pickWithRaySync (refit 'auto') vs ObjectBVH.raycast (firstHitOnly); ${describeAgreement(a)}`,
    });
  }

  const { width, height } = camera;
  const ndc = new Vector2();
  const [pw, pt] = interleaved(config, [
    () => {
      for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pickSync(scene, x, y);
    },
    () => {
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          ndc.set(((x + 0.5) / width) * 2 - 1, 1 - ((y + 0.5) / height) * 2);
          raycaster.setFromCamera(ndc, camera.three);
          out.length = 0;
          objects.raycast(raycaster, out);
        }
      }
    },
  ]);
  rows.push({
    subject: '',
    measure: `default options, pick from a pixel (${width}×${height})`,
    weft: perSecond(width * height, pw),
    three: perSecond(width * height, pt),
    ratio: pt / pw,
    target: { kind: 'min', value: 2 },
    notes: 'pickSync(x, y) vs setFromCamera + ObjectBVH.raycast (answers checked on the same rays above)',
  });

  // One object moves (0.3 along x) before every pick: weft setMeshWorldMatrix, then the pick refits what moved;
  // three.js sets the object's matrix, updateMatrixWorld(true) (matrixAutoUpdate is off), then ObjectBVH.refit() (it has no partial refit) and raycasts.
  const rays = raySets[0].rays;
  const perSample = 128;
  const moves = [0, 0];
  const stride = 7919; // prime: successive moves visit objects all over the scene
  const [mw, mt] = interleaved(config, [
    () => {
      for (let k = 0; k < perSample; k++, moves[0]++) {
        const j = (moves[0] * stride) % count;
        setMeshWorldMatrix(weftMeshes[j], movedMatrices.subarray(j * 16, j * 16 + 16));
        weftPick(rays, ((moves[0] * 61) % (rays.length / 6)) * 6);
      }
    },
    () => {
      for (let k = 0; k < perSample; k++, moves[1]++) {
        const j = (moves[1] * stride) % count;
        const object = threeMeshes[j];
        object.matrix.fromArray(movedMatrices, j * 16);
        object.updateMatrixWorld(true);
        objects.refit();
        threePick(rays, ((moves[1] * 61) % (rays.length / 6)) * 6);
      }
    },
  ]);
  const after = check(rays, 6);
  requireAgreement('scene after moves', after);
  rows.push({
    subject: '',
    measure: 'default options, 1 object moved per pick',
    weft: perSecond(perSample, mw),
    three: perSecond(perSample, mt),
    ratio: mt / mw,
    target: { kind: 'min', value: 2 },
    notes: `setMeshWorldMatrix + pickWithRaySync vs matrix + updateMatrixWorld(true) + ObjectBVH.refit() + raycast; after: ${describeAgreement(after)}`,
  });
}
