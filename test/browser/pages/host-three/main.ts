// A weft-composed material inside a three.js WebGPURenderer scene, next to weft's own rendering of the same mesh,
// camera and material on the same device. three.js owns its entry points and bindings, so weft's shader enters as a
// library (output: 'library'): TSL wgslFn functions call weftVertex / weftFragment with three's uniform nodes, one
// per struct field, generated from the library's bufferLayouts (names and WGSL types; no offsets or field order by hand).
import { Color, LinearSRGBColorSpace, Matrix4, REVISION, Vector3, Vector4 } from 'three';
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
import { type HostResource, hostArgName, hostResources, hostStructMakers } from '../../../support/host-glue.js';
import { hostUniformValues, makeHostView } from '../../../support/host-view.js';
import { type HostPageResult, publish, requestDeviceAsync } from '../host-result.js';

/** Every fed field of every resource (both stages), once: `weft_<binding>_<field>` with its WGSL type. */
function allResources(vertex: HostResource[], fragment: HostResource[]): HostResource[] {
  const seen = new Map<string, HostResource>();
  for (const r of [...vertex, ...fragment]) seen.set(r.binding, r);
  return [...seen.values()];
}

/** `name: type` parameters and `name` arguments of the fed fields, in order. */
const params = (resources: HostResource[]) =>
  resources.flatMap((r) => r.fields.map(({ field }) => `, ${hostArgName(r, field)}: ${field.type.wgsl}`)).join('');
const makeCalls = (resources: HostResource[]) =>
  resources
    .map((r) => `, hostMake_${r.binding}(${r.fields.map(({ field }) => hostArgName(r, field)).join(', ')})`)
    .join('');
const argNames = (resources: HostResource[]) =>
  resources.flatMap((r) => r.fields.map(({ field }) => `, ${hostArgName(r, field)}`)).join('');

/** A TSL uniform node holding a field's value, by the field's WGSL type (from the layout). */
function uniformNode(type: string, value: number | number[]) {
  const v = typeof value === 'number' ? [value] : value;
  if (type === 'mat4x4f') return uniform(new Matrix4().fromArray(v));
  if (type === 'vec4f') return uniform(new Vector4(v[0], v[1], v[2], v[3]));
  if (type === 'vec3f') return uniform(new Vector3(v[0], v[1], v[2]));
  if (type === 'f32') return uniform(v[0]);
  throw new Error(`no TSL uniform for a ${type} field in this page`);
}

async function run(): Promise<HostPageResult> {
  const device = await requestDeviceAsync();
  const view = makeHostView(128);
  const size = view.size;
  const torus = hostTorusMesh();
  // weft's own rendering: the composed module, drawn with plain WebGPU.
  const weft = await renderHostMaterialAsync(device, composeShader(hostMaterialSpec('module')), torus, view);

  const library = composeShader(hostMaterialSpec('library'));
  // The glue comes from the library's layouts: one argument per field the host feeds, named and typed by the layout.
  const values = hostUniformValues(view);
  const vertexResources = hostResources(library, 'vertex', values);
  const fragmentResources = hostResources(library, 'fragment', values);
  const resources = allResources(vertexResources, fragmentResources);
  const glue = `${hostStructMakers(resources)}
fn hostVertexOutput(position: vec3f, normal: vec3f${params(vertexResources)}) -> VertexOutput {
  var input: VertexInput;
  input.position = position;
  input.normal = normal;
  return weftVertex(input${makeCalls(vertexResources)});
}`;
  const renderer = new WebGPURenderer({ canvas: document.querySelector('canvas')!, device, reversedDepthBuffer: true });
  await renderer.init();
  const lib = code(`${library.code}\n${glue}`);
  const nodes = Object.fromEntries(
    resources.flatMap((r) =>
      r.fields.map(({ field, value }) => [hostArgName(r, field), uniformNode(field.type.wgsl, value)]),
    ),
  );
  const pick = (list: HostResource[]) =>
    Object.fromEntries(
      list.flatMap((r) => r.fields.map(({ field }) => [hostArgName(r, field), nodes[hostArgName(r, field)]])),
    );
  const attributes = { position: attribute('position', 'vec3'), normal: attribute('normal', 'vec3') };
  const stage = (name: string, field: string, type: string) =>
    wgslFn(
      `fn ${name}(position: vec3f, normal: vec3f${params(vertexResources)}) -> ${type} {
  return hostVertexOutput(position, normal${argNames(vertexResources)}).${field};
}`,
      [lib],
    )({ ...attributes, ...pick(vertexResources) });
  const surface = wgslFn(
    `fn weftSurface(worldPosition: vec3f, worldNormal: vec3f${params(fragmentResources)}) -> vec4f {
  var input: FragmentInput;
  input.worldPosition = worldPosition;
  input.worldNormal = worldNormal;
  return weftFragment(input${makeCalls(fragmentResources)}).color;
}`,
    [lib],
  );
  const material = new NodeMaterial();
  material.vertexNode = stage('weftClipPosition', 'position', 'vec4f');
  material.fragmentNode = surface({
    worldPosition: varying(stage('weftWorldPosition', 'worldPosition', 'vec3f')),
    worldNormal: varying(stage('weftWorldNormal', 'worldNormal', 'vec3f')),
    ...pick(fragmentResources),
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
