// The pick pass skips uploading its point and draw uniforms when the buffers already hold exactly those words (a
// warm pick of the same pixel through the same camera). These tests check that the skip never serves a stale answer:
// a moved camera, moved meshes and a drill-through (which rewrites the point uniforms on the GPU) are all seen.
import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  createBoxMesh,
  createScene,
  type Engine,
  makePerspectiveCamera,
  type Mesh,
  type Scene,
  setMeshWorldMatrix,
} from '../../../engine/index.js';
import { createGpuPicker, type GpuPicker, type PickingInfo, pickAllAsync, pickAsync } from '../../../picking/index.js';
import { cameraPixelRay, makeFloat64Camera, projectToPixel, rayBox } from '../../support/camera-rays.js';
import { gpuTest } from '../../support/gpu.js';

type Vec3 = [number, number, number];

/** Unit boxes by name, at the centres the test sets (it keeps its own copy of where each one is). */
interface Placed {
  mesh: Mesh;
  centre: Vec3;
}

/** The box the float64 ray of pixel (x, y) enters first, from the test's own centres; 'miss' when none. */
function expectedFront(engine: Engine, scene: Scene, boxes: Placed[], x: number, y: number): string {
  const ray = cameraPixelRay(scene.camera!, x, y, engine.width, engine.height);
  let best = { name: 'miss', t: Infinity };
  for (const { mesh, centre } of boxes) {
    const hit = rayBox(
      ray,
      [centre[0] - 0.5, centre[1] - 0.5, centre[2] - 0.5],
      [centre[0] + 0.5, centre[1] + 0.5, centre[2] + 0.5],
    );
    // Well inside a face: a pixel near an edge would test the rasteriser, not the uploads.
    if (hit && hit.margin > 0.05 && hit.t < best.t) best = { name: mesh.name, t: hit.t };
  }
  return best.name;
}

/** The pixel the camera sees a world point in (pixel indices). */
function pixelOf(engine: Engine, scene: Scene, point: Vec3): { x: number; y: number } {
  const projected = projectToPixel(makeFloat64Camera(scene.camera!, engine.width, engine.height), point)!;
  return { x: Math.floor(projected.x), y: Math.floor(projected.y) };
}

const who = (info: PickingInfo) => (info.hit ? info.pickedMesh!.name : 'miss');

/** Counts `writeBuffer` calls on the device's queue while `work` runs. */
async function countWrites(engine: Engine, work: () => Promise<unknown>): Promise<number> {
  const queue = engine.device.queue;
  const original = queue.writeBuffer;
  let writes = 0;
  queue.writeBuffer = function (this: GPUQueue, ...args: Parameters<GPUQueue['writeBuffer']>) {
    writes++;
    return original.apply(this, args);
  } as GPUQueue['writeBuffer'];
  try {
    await work();
  } finally {
    queue.writeBuffer = original;
  }
  return writes;
}

function place(scene: Scene, name: string, centre: Vec3): Placed {
  return {
    mesh: createBoxMesh(scene, name, { width: 1, height: 1, depth: 1 }, { worldMatrix: mat4.translation(centre) }),
    centre,
  };
}

function move(box: Placed, centre: Vec3): void {
  setMeshWorldMatrix(box.mesh, mat4.translation(centre));
  box.centre = centre;
}

describe('pick uniform uploads', () => {
  gpuTest('a repeated pick uploads nothing; a moved camera or mesh is still seen', async ({ engine }) => {
    const scene = createScene(engine);
    scene.camera = makePerspectiveCamera({ position: [0, 0, 6], target: [0, 0, 0], fovY: 0.9 });
    const boxes = [place(scene, 'left', [-1.2, 0, 0]), place(scene, 'right', [1.2, 0, 0])];
    const picker: GpuPicker = createGpuPicker(scene);
    const pixel = pixelOf(engine, scene, [-1.2, 0, 0.5]);
    const check = async () => {
      const expected = expectedFront(engine, scene, boxes, pixel.x, pixel.y);
      expect(who(await pickAsync(picker, pixel.x, pixel.y))).toBe(expected);
      return expected;
    };
    expect(await check()).toBe('left');
    // The same pick again: camera, pixel, candidate and its matrix are the same, so neither buffer is written.
    expect(await countWrites(engine, check)).toBe(0);
    // The camera moves a little: the point uniforms differ and are uploaded; the pixel still sees 'left' alone, so the
    // draw uniforms are the same words and are not.
    scene.camera = makePerspectiveCamera({ position: [0.3, 0, 6], target: [0.3, 0, 0], fovY: 0.9 });
    let seen = '';
    expect(await countWrites(engine, async () => (seen = await check()))).toBe(1);
    expect(seen).toBe('left');
    // Farther: the pixel's ray now passes between the boxes.
    scene.camera = makePerspectiveCamera({ position: [1.2, 0, 6], target: [1.2, 0, 0], fovY: 0.9 });
    expect(await check()).toBe('miss');
    // Back to the first camera, and the boxes swap places: 'right' now has the exact matrix 'left' had (and the same
    // ID, as the only candidate), so its draw uniforms need no upload, and the answer is 'right'.
    scene.camera = makePerspectiveCamera({ position: [0, 0, 6], target: [0, 0, 0], fovY: 0.9 });
    move(boxes[0], [1.2, 0, 0]);
    move(boxes[1], [-1.2, 0, 0]);
    expect(await check()).toBe('right');
    // A box moved in front of the other along the same ray: a second candidate, new draw uniforms.
    move(boxes[0], [-1.2, 0, 2]);
    expect(await check()).toBe('left');
  });

  gpuTest('a drill-through between two equal picks does not leave its peeled camera behind', async ({ engine }) => {
    const scene = createScene(engine);
    scene.camera = makePerspectiveCamera({ position: [0, 0, 6], target: [0, 0, 0], fovY: 0.9 });
    const boxes = [place(scene, 'front', [0, 0, 1]), place(scene, 'back', [0, 0, -1])];
    const picker = createGpuPicker(scene);
    const { x, y } = pixelOf(engine, scene, [0, 0, 1.5]);
    const expected = expectedFront(engine, scene, boxes, x, y);
    expect(expected).toBe('front');
    expect(who(await pickAsync(picker, x, y))).toBe(expected);
    // The drill's peel steps copy each layer's camera into the point uniforms on the GPU.
    const layers = await pickAllAsync(picker, x, y);
    expect(layers.map(who)).toEqual(['front', 'back']);
    expect(who(await pickAsync(picker, x, y))).toBe(expected);
  });
});
