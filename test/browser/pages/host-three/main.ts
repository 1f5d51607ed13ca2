// A weft-composed material inside a three.js WebGPURenderer scene, next to weft's own rendering of the same mesh,
// camera and material on the same device. three.js owns its entry points and bindings, so weft's shader enters as a
// library (output: 'library'): TSL wgslFn functions call weftVertex / weftFragment with three's uniform nodes.
import { Color, LinearSRGBColorSpace, Matrix4, REVISION, Vector4 } from 'three';
import { attribute, code, uniform, varying, wgslFn } from 'three/tsl';
import {
  BufferAttribute,
  BufferGeometry,
  Mesh,
  NodeMaterial,
  PerspectiveCamera,
  RenderTarget,
  Scene,
  UnsignedByteType,
  WebGPURenderer,
} from 'three/webgpu';
import { composeShader } from '../../../../composer/index.js';
import { hostMaterialSpec } from '../../../support/host-material.js';
import { hostTorusMesh, renderHostMaterialAsync } from '../../../support/host-render.js';
import { makeHostView } from '../../../support/host-view.js';
import { type HostPageResult, publish, requestDeviceAsync } from '../host-result.js';

const glue = `
fn hostScene(viewProjection: mat4x4f, cameraPosition: vec4f, lightDirection: vec4f, lightColor: vec4f, ambientColor: vec4f) -> SceneUniforms {
  return SceneUniforms(viewProjection, cameraPosition, lightDirection, lightColor, ambientColor);
}
fn hostDraw(world: mat4x4f, normalMatrix: mat4x4f) -> DrawUniforms {
  return DrawUniforms(world, normalMatrix, vec4f(1.0), vec4u(0u));
}
fn hostVertexOutput(position: vec3f, normal: vec3f, viewProjection: mat4x4f, world: mat4x4f, normalMatrix: mat4x4f) -> VertexOutput {
  var input: VertexInput;
  input.position = position;
  input.normal = normal;
  let zero = vec4f(0.0);
  return weftVertex(input, hostScene(viewProjection, zero, zero, zero, zero), hostDraw(world, normalMatrix));
}
`;

async function run(): Promise<HostPageResult> {
  const device = await requestDeviceAsync();
  const view = makeHostView(128);
  const size = view.size;
  const torus = hostTorusMesh();
  // weft's own rendering: the composed module, drawn with plain WebGPU.
  const weft = await renderHostMaterialAsync(device, composeShader(hostMaterialSpec('module')), torus, view);

  const library = composeShader(hostMaterialSpec('library'));
  const renderer = new WebGPURenderer({ canvas: document.querySelector('canvas')!, device, reversedDepthBuffer: true });
  await renderer.init();
  const lib = code(`${library.code}\n${glue}`);
  const args = {
    viewProjection: uniform(new Matrix4().fromArray(view.viewProjection)),
    world: uniform(new Matrix4().fromArray(view.world)),
    normalMatrix: uniform(new Matrix4().fromArray(view.normalMatrix)),
  };
  const attributes = { position: attribute('position', 'vec3'), normal: attribute('normal', 'vec3') };
  const stage = (name: string, field: string, type: string) =>
    wgslFn(
      `fn ${name}(position: vec3f, normal: vec3f, viewProjection: mat4x4f, world: mat4x4f, normalMatrix: mat4x4f) -> ${type} {
  return hostVertexOutput(position, normal, viewProjection, world, normalMatrix).${field};
}`,
      [lib],
    )({ ...attributes, ...args });
  const surface = wgslFn(
    `fn weftSurface(worldPosition: vec3f, worldNormal: vec3f, cameraPosition: vec4f, lightDirection: vec4f, lightColor: vec4f, ambientColor: vec4f, tint: vec4f, bandColor: vec4f, band: vec4f, world: mat4x4f, normalMatrix: mat4x4f, viewProjection: mat4x4f) -> vec4f {
  var input: FragmentInput;
  input.worldPosition = worldPosition;
  input.worldNormal = worldNormal;
  let scene = hostScene(viewProjection, cameraPosition, lightDirection, lightColor, ambientColor);
  return weftFragment(input, scene, hostDraw(world, normalMatrix), BandParams(tint, bandColor, band)).color;
}`,
    [lib],
  );
  const v4 = (v: number[]) => uniform(new Vector4(v[0], v[1], v[2], v[3] ?? 0));
  const material = new NodeMaterial();
  material.vertexNode = stage('weftClipPosition', 'position', 'vec4f');
  material.fragmentNode = surface({
    worldPosition: varying(stage('weftWorldPosition', 'worldPosition', 'vec3f')),
    worldNormal: varying(stage('weftWorldNormal', 'worldNormal', 'vec3f')),
    cameraPosition: v4([...view.eye, 1]),
    lightDirection: v4(view.lightDirection),
    lightColor: v4(view.lightColor),
    ambientColor: v4(view.ambientColor),
    tint: v4(view.tint),
    bandColor: v4(view.bandColor),
    band: v4(view.band),
    ...args,
  });

  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(torus.positions, 3));
  geometry.setAttribute('normal', new BufferAttribute(torus.normals, 3));
  geometry.setIndex(new BufferAttribute(torus.indices, 1));
  const mesh = new Mesh(geometry, material);
  // weft's vertex stage places the mesh with its own matrices; three's camera only has to draw it.
  mesh.frustumCulled = false;
  const scene = new Scene();
  scene.add(mesh);
  const camera = new PerspectiveCamera(45, 1, 0.1, 50);
  camera.position.set(view.eye[0], view.eye[1], view.eye[2]);
  camera.lookAt(0, 0, 0);
  const target = new RenderTarget(size, size, { type: UnsignedByteType, depthBuffer: true });
  const [r, g, b] = view.clearColor;
  renderer.setClearColor(new Color().setRGB(r, g, b, LinearSRGBColorSpace), 1);
  renderer.setRenderTarget(target);
  renderer.render(scene, camera);
  const host = new Uint8Array(
    (await renderer.readRenderTargetPixelsAsync(target, 0, 0, size, size)) as unknown as ArrayBuffer,
  );
  // three.js's own camera, after a render with reversedDepthBuffer, against the test's float64 view-projection.
  const threeViewProjection = camera.projectionMatrix.clone().multiply(camera.matrixWorldInverse).toArray();
  const cameraDrift = Math.max(...threeViewProjection.map((v, i) => Math.abs(v - view.viewProjection[i])));
  const notes = [
    `three.js device is the page's device: ${(renderer.backend as unknown as { device: GPUDevice }).device === device}`,
    `three.js camera view-projection vs the test's: max |difference| ${cameraDrift.toExponential(2)}`,
  ];
  target.dispose();
  geometry.dispose();
  material.dispose();
  renderer.dispose();
  return { size, weft: [...weft], host: [...host], versions: { three: `0.${REVISION}.0` }, notes, cameraDrift };
}

publish(run);
