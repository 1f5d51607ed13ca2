// The scenes and points of the snapping benchmark (bench/snapping.ts) and its profile (bench/snapping-profile.ts).
import { mat4 } from 'wgpu-matrix';
import { createBoxMesh, createScene, type Engine, makePerspectiveCamera, type Scene } from '../engine/index.js';

/** Points near box corners and edges and on faces of the grid, visited in turn by both cases. */
export const snapBenchPoints = [
  { x: 320, y: 240 },
  { x: 301, y: 222 },
  { x: 347, y: 263 },
  { x: 280, y: 250 },
];

/** `count` boxes on a square grid 1.1 apart, each a mesh of its own, seen obliquely so that edges and corners show. */
export function makeSnapGrid(engine: Engine, count: number): Scene {
  const scene = createScene(engine);
  const side = Math.ceil(Math.sqrt(count));
  const extent = side * 1.1;
  scene.camera = makePerspectiveCamera({
    position: [extent * 0.35 + 2, extent * 0.6 + 2, extent * 0.7 + 2],
    target: [0, 0, 0],
    fovY: 0.9,
  });
  for (let i = 0; i < count; i++) {
    const x = ((i % side) - (side - 1) / 2) * 1.1;
    const z = (Math.floor(i / side) - (side - 1) / 2) * 1.1;
    createBoxMesh(
      scene,
      `box${i}`,
      { width: 0.8, height: 0.8, depth: 0.8 },
      { worldMatrix: mat4.multiply(mat4.translation([x, 0.4, z]), mat4.rotationY(0.3 + (i % 7) * 0.1)) },
    );
  }
  return scene;
}
