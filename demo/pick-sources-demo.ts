// The demo's pick-source step: labels (axis-locked billboards) over the objects and a splat cloud, drawn over the
// meshes into a render target and picked at the pixels they project to.
import { vec4 } from 'wgpu-matrix';
import {
  createBillboardRenderTask,
  createBillboardSystem,
  getPickedSpriteIndex,
} from '../entities/billboards/index.js';
import {
  createForwardRenderTask,
  createRenderTarget,
  type Engine,
  getCameraViewProjectionMatrix,
  readRenderTargetPixelsAsync,
  runTasks,
  type Scene,
} from '../engine/index.js';
import { type GpuPicker, pickManyAsync } from '../picking/index.js';
import { createSplatMesh, createSplatRenderTask, getPickedSplatIndex } from '../entities/splats/index.js';

/** Label positions: above the box, sphere, torus, capsule and the bunny's head. */
const labelPositions = [
  [-2.1, 1.35, 1.2],
  [2.0, 1.45, 1.3],
  [2.2, 1.55, -1.2],
  [-2.0, 1.75, -1.3],
  [0, 2.55, 0],
];

/** A small deterministic cloud of splats hovering in front of the bunny. */
function makeCloud(count: number) {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const centers = new Float32Array(count * 3);
  const scales = new Float32Array(count * 3);
  const colors = new Float32Array(count * 3);
  const opacities = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const angle = (i / count) * Math.PI * 2;
    centers.set([Math.cos(angle) * 0.9, 0.35 + random() * 0.5, 2.4 + Math.sin(angle) * 0.5], i * 3);
    scales.set([0.12 + random() * 0.1, 0.08 + random() * 0.06, 0.1], i * 3);
    colors.set([0.4 + random() * 0.6, 0.5 + random() * 0.5, 1], i * 3);
    opacities[i] = 0.5 + random() * 0.45;
  }
  return { centers, scales, colors, opacities };
}

/** Adds the labels and the cloud, renders them over the meshes, picks where they project; returns the image and report lines. */
export async function showPickSources(
  engine: Engine,
  scene: Scene,
  picker: GpuPicker,
): Promise<{ rgba: Uint8Array; lines: string[] }> {
  const labels = createBillboardSystem(scene, 'labels', {
    positions: new Float32Array(labelPositions.flat()),
    sizes: [0.7, 0.28],
    orientation: 'axis',
    colors: new Float32Array(
      labelPositions.flatMap(
        (_, i) =>
          [
            [1, 0.85, 0.3, 1],
            [0.4, 0.9, 1, 1],
          ][i % 2],
      ),
    ),
  });
  const cloud = createSplatMesh(scene, 'cloud', makeCloud(24));
  const target = createRenderTarget(engine, {
    name: 'demo:entities',
    width: engine.width,
    height: engine.height,
    format: 'rgba8unorm',
  });
  runTasks(engine, [
    createForwardRenderTask(scene, { target }),
    createBillboardRenderTask(labels, { target }),
    createSplatRenderTask(cloud, { target }),
  ]);
  const rgba = await readRenderTargetPixelsAsync(target);
  // Aim at each label's centre and at the first splats' centres: the pick should name exactly that sprite or splat.
  const viewProjection = getCameraViewProjectionMatrix(scene.camera!, engine.width / engine.height);
  const aims = [
    ...labelPositions.map((p, i) => ({ kind: 'sprite', index: i, at: p })),
    ...[0, 6, 12, 18].map((i) => ({ kind: 'splat', index: i, at: [...cloud.centers.subarray(i * 3, i * 3 + 3)] })),
  ];
  const points = aims.map(({ at }) => {
    const clip = vec4.transformMat4([at[0], at[1], at[2], 1], viewProjection);
    return {
      x: Math.floor(((clip[0] / clip[3] + 1) / 2) * engine.width),
      y: Math.floor(((1 - clip[1] / clip[3]) / 2) * engine.height),
    };
  });
  const picks = await pickManyAsync(picker, points);
  const lines = aims.map((aim, i) => {
    const info = picks[i];
    const got =
      info.pickedEntity === labels
        ? `sprite #${getPickedSpriteIndex(info)}`
        : info.pickedEntity === cloud
          ? `splat #${getPickedSplatIndex(info)}`
          : info.hit
            ? info.pickedMesh!.name
            : 'miss';
    const wanted = `${aim.kind} #${aim.index}`;
    // A splat centre may sit behind a nearer splat of the cloud: any splat of the cloud is a right answer there.
    const ok = got === wanted || (aim.kind === 'splat' && got.startsWith('splat'));
    return `  ${`${points[i].x},${points[i].y}`.padEnd(9)} aimed at ${wanted.padEnd(10)} picked ${got.padEnd(10)} ${info.pickedPoint ? info.pickedPoint.map((c) => c.toFixed(2)).join(', ') : ''} ${ok ? '✓' : '✗'}`;
  });
  return { rgba, lines };
}
