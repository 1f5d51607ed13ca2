// The view every host-engine test renders, built in float64 from the camera's parameters (the reference; no weft or
// engine helper), and the values of its uniforms by field name (the composed layouts place them).

/** Column-major 4×4, float64. */
export type Mat4 = number[];

function multiply(a: Mat4, b: Mat4): Mat4 {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return out;
}

function sub(a: number[], b: number[]): number[] {
  return a.map((v, i) => v - b[i]);
}
function normalize(v: number[]): number[] {
  const l = Math.hypot(...v);
  return v.map((x) => x / l);
}
function cross(a: number[], b: number[]): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function dot(a: number[], b: number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** Right-handed look-at (camera looks down its −Z). */
export function lookAt(eye: number[], target: number[], up: number[]): Mat4 {
  const z = normalize(sub(eye, target));
  const x = normalize(cross(up, z));
  const y = cross(z, x);
  return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -dot(x, eye), -dot(y, eye), -dot(z, eye), 1];
}

/** Right-handed, reverse-Z perspective (near → depth 1, far → depth 0), WebGPU clip z in [0, 1]. */
export function perspectiveReverseZ(fovY: number, aspect: number, near: number, far: number): Mat4 {
  const f = 1 / Math.tan(fovY / 2);
  return [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, near / (far - near), -1, 0, 0, (near * far) / (far - near), 0];
}

function rotationX(a: number): Mat4 {
  const c = Math.cos(a);
  const s = Math.sin(a);
  return [1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1];
}
function rotationY(a: number): Mat4 {
  const c = Math.cos(a);
  const s = Math.sin(a);
  return [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1];
}

/** What the host tests draw: a torus (depth matters) tilted in front of a camera, one directional light. */
export interface HostView {
  size: number;
  eye: number[];
  viewProjection: Mat4;
  world: Mat4;
  /** The world matrix is a rotation, so its inverse transpose is itself. */
  normalMatrix: Mat4;
  lightDirection: number[];
  lightColor: number[];
  ambientColor: number[];
  tint: number[];
  bandColor: number[];
  /** x: bands per world unit along y, y: phase. */
  band: number[];
  clearColor: number[];
}

export function makeHostView(size = 128): HostView {
  const eye = [0, 1.4, 3.4];
  const view = lookAt(eye, [0, 0, 0], [0, 1, 0]);
  const projection = perspectiveReverseZ(Math.PI / 4, 1, 0.1, 50);
  const world = multiply(rotationY(0.35), rotationX(1.05));
  return {
    size,
    eye,
    viewProjection: multiply(projection, view),
    world,
    normalMatrix: world,
    lightDirection: normalize([0.4, 0.8, 0.45]),
    lightColor: [0.8, 0.8, 0.75],
    ambientColor: [0.15, 0.15, 0.2],
    tint: [0.85, 0.35, 0.2, 1],
    bandColor: [0.2, 0.55, 0.9, 1],
    band: [5, 0.3, 0, 0],
    clearColor: [0.05, 0.05, 0.08, 1],
  };
}

/** Field values of each binding, by binding and field name: written through the composed shader's `bufferLayouts`. */
export type HostUniformValues = Record<string, Record<string, number | number[]>>;

/**
 * What the host feeds each uniform (`SceneUniforms`, `DrawUniforms`, `BandParams`), by field name: no offsets, the
 * layouts place them. `draw.flags` is left out: zero is "lit", and a field not named stays zero.
 */
export function hostUniformValues(v: HostView): HostUniformValues {
  return {
    scene: {
      viewProjection: v.viewProjection,
      cameraPosition: [...v.eye, 1],
      lightDirection: [...v.lightDirection, 0],
      lightColor: [...v.lightColor, 0],
      ambientColor: [...v.ambientColor, 0],
    },
    draw: { world: v.world, normalMatrix: v.normalMatrix, baseColor: [1, 1, 1, 1] },
    bandParams: { tint: v.tint, bandColor: v.bandColor, band: v.band },
  };
}
