// Ray generation: weft's makePickingRay (float64 from the camera's parameters, no inverse per ray) against three.js
// Raycaster.setFromCamera (unprojects through the cached inverse projection and the camera's world matrix), on the
// same cameras and pixels. Medians of interleaved rounds after warm-up, with a GC between rounds when exposed.
// Run: node --expose-gc --import tsx bench/rays.ts   (or npx tsx bench/rays.ts, without the GCs)
import * as THREE from 'three';
import { mat4, vec3, vec4 } from 'wgpu-matrix';
import { getCameraViewProjectionMatrix, makePerspectiveCamera } from '../engine/camera.js';
import { makePickingRay } from '../picking/picking-ray.js';
import { median } from './bench-timing.js';

const width = 1280;
const height = 720;
const raysPerRound = 200_000;
const rounds = 15;

const cameras = Array.from({ length: 8 }, (_, i) => {
  const position = [Math.sin(i) * 9, 2 + i * 0.3, Math.cos(i) * 9];
  const weft = makePerspectiveCamera({ position, target: [0, 0.5, 0], fovY: 0.8 + 0.05 * i });
  const three = new THREE.PerspectiveCamera((weft.fovY * 180) / Math.PI, width / height, weft.near, 1000);
  three.position.set(weft.position[0], weft.position[1], weft.position[2]);
  three.lookAt(weft.target[0], weft.target[1], weft.target[2]);
  three.updateMatrixWorld(true);
  three.updateProjectionMatrix();
  return { weft, three };
});

// Pixel centres in a fixed pseudo-random order, shared by both.
const xs = new Float64Array(raysPerRound);
const ys = new Float64Array(raysPerRound);
let seed = 12345;
const next = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
for (let i = 0; i < raysPerRound; i++) {
  xs[i] = Math.floor(next() * width);
  ys[i] = Math.floor(next() * height);
}

let sink = 0;
const viewport = { width, height };

function weftRound(): number {
  const start = performance.now();
  for (let i = 0; i < raysPerRound; i++) {
    const ray = makePickingRay(cameras[(i >> 10) & 7].weft, xs[i], ys[i], viewport);
    sink += ray.direction[0];
  }
  return ((performance.now() - start) * 1000) / raysPerRound;
}

/** The previous makePickingRay: a float32 view-projection inverted per ray, the near plane unprojected. */
function inverseRound(): number {
  const start = performance.now();
  for (let i = 0; i < raysPerRound; i++) {
    const camera = cameras[(i >> 10) & 7].weft;
    const inverse = mat4.inverse(getCameraViewProjectionMatrix(camera, width / height));
    const p = vec4.transformMat4([((xs[i] + 0.5) / width) * 2 - 1, 1 - ((ys[i] + 0.5) / height) * 2, 1, 1], inverse);
    const near = [p[0] / p[3], p[1] / p[3], p[2] / p[3]];
    sink += vec3.normalize(vec3.subtract(near, camera.position))[0];
  }
  return ((performance.now() - start) * 1000) / raysPerRound;
}

const raycaster = new THREE.Raycaster();
const ndc = new THREE.Vector2();
function threeRound(): number {
  const start = performance.now();
  for (let i = 0; i < raysPerRound; i++) {
    ndc.set(((xs[i] + 0.5) / width) * 2 - 1, 1 - ((ys[i] + 0.5) / height) * 2);
    raycaster.setFromCamera(ndc, cameras[(i >> 10) & 7].three);
    sink += raycaster.ray.direction.x;
  }
  return ((performance.now() - start) * 1000) / raysPerRound;
}

/** Worst angle between the two libraries' rays (both are exact up to rounding; three.js works through float64 matrices). */
function agreement(): number {
  let worst = 0;
  for (let i = 0; i < 10_000; i++) {
    const ray = makePickingRay(cameras[(i >> 10) & 7].weft, xs[i], ys[i], viewport);
    ndc.set(((xs[i] + 0.5) / width) * 2 - 1, 1 - ((ys[i] + 0.5) / height) * 2);
    raycaster.setFromCamera(ndc, cameras[(i >> 10) & 7].three);
    const d = raycaster.ray.direction;
    const cos = ray.direction[0] * d.x + ray.direction[1] * d.y + ray.direction[2] * d.z;
    worst = Math.max(worst, Math.acos(Math.min(1, cos)));
  }
  return worst;
}

const gc = (globalThis as { gc?: () => void }).gc;
for (let w = 0; w < 3; w++) {
  weftRound();
  threeRound();
  inverseRound();
}
const weft: number[] = [];
const three: number[] = [];
const inverse: number[] = [];
for (let r = 0; r < rounds; r++) {
  gc?.();
  const order = [() => weft.push(weftRound()), () => three.push(threeRound()), () => inverse.push(inverseRound())];
  for (let k = 0; k < 3; k++) order[(r + k) % 3]();
}
const w = median(weft);
const t = median(three);
const v = median(inverse);
console.log(
  `Ray generation, ${raysPerRound} pixel rays per round over 8 cameras (bursts of 1024 rays per camera), ${rounds} interleaved rounds${gc ? ', GC between rounds' : ' (no --expose-gc)'}:`,
);
console.table([
  { what: 'weft makePickingRay (µs/ray)', median: Number(w.toFixed(4)) },
  { what: 'three.js Raycaster.setFromCamera (µs/ray)', median: Number(t.toFixed(4)) },
  { what: 'previous weft ray: float32 inverse per ray (µs/ray)', median: Number(v.toFixed(4)) },
  { what: 'weft / three.js', median: Number((w / t).toFixed(2)) },
  { what: 'previous / three.js', median: Number((v / t).toFixed(2)) },
]);
console.log(`worst angle between the two rays: ${agreement().toExponential(2)} rad; (sink ${sink > 0 ? '+' : '-'})`);
