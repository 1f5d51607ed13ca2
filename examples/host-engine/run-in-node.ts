// Runs the host-engine example on Dawn in Node: npx tsx examples/host-engine/run-in-node.ts
import { create, globals } from 'webgpu';
import { describeComposedShader } from '../../composer/index.js';
import { renderHostExample } from './render-with-weft.js';

Object.assign(globalThis, globals);
const gpu = create([]);
const adapter = await gpu.requestAdapter();
if (!adapter) throw new Error('no WebGPU adapter (install Mesa lavapipe, see DESIGN.md §7)');
const device = await adapter.requestDevice();
const size = 64;
const { pixels, composed } = await renderHostExample(
  device,
  {
    tint: [0.8, 0.4, 0.2],
    edge: 0,
    lightDirection: [0, 0, 1],
    lightColor: [0.5, 0.5, 0.5],
    ambientColor: [0.1, 0.1, 0.1],
  },
  size,
);
console.log(describeComposedShader(composed));
const at = (x: number, y: number) => Array.from(pixels.subarray((y * size + x) * 4, (y * size + x) * 4 + 4));
console.log('left stripe', at(size / 4, size / 2), 'right stripe', at((3 * size) / 4, size / 2));
device.destroy();
process.exit(0);
