// A weft-composed material inside a Babylon.js WebGPUEngine scene, next to weft's own rendering of the same mesh,
// camera and material. Babylon.js writes the entry points, vertex inputs, varyings and bindings of a WGSL
// ShaderMaterial itself (its `attribute` / `varying` / `uniform` declarations), so weft's shader enters as a library
// (output: 'library') whose weftVertex / weftFragment the Babylon.js `main` functions call with its uniforms.
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { WebGPUEngine } from '@babylonjs/core/Engines/webgpuEngine.js';
import { Material } from '@babylonjs/core/Materials/material.js';
import { ShaderLanguage } from '@babylonjs/core/Materials/shaderLanguage.js';
import { ShaderMaterial } from '@babylonjs/core/Materials/shaderMaterial.js';
import { Color4 } from '@babylonjs/core/Maths/math.color.js';
import { Matrix, Vector3, Vector4 } from '@babylonjs/core/Maths/math.vector.js';
import { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData.js';
import { Scene } from '@babylonjs/core/scene.js';
import { composeShader } from '../../../../composer/index.js';
import { hostMaterialSpec } from '../../../support/host-material.js';
import { hostTorusMesh, renderHostMaterialAsync } from '../../../support/host-render.js';
import { type HostResource, hostArgName, hostResources, wgslLongForm } from '../../../support/host-glue.js';
import { hostUniformValues, makeHostView } from '../../../support/host-view.js';
import { type HostPageResult, publish, requestDeviceAsync } from '../host-result.js';

// Babylon.js's WGSL dialect: it turns `attribute` / `varying` / `uniform` declarations into vertex inputs, varyings
// and a uniform buffer. The uniforms are generated from the library's layouts: one per struct field the host feeds.
const attributes = `attribute position : vec3<f32>;
attribute normal : vec3<f32>;
`;
const varyings = `varying vWorldPosition : vec3<f32>;
varying vWorldNormal : vec3<f32>;
`;

/** `uniform weft_<binding>_<field> : <type>;` for every fed field (Babylon.js reads the long type form). */
const uniformLines = (resources: HostResource[]) =>
  resources
    .flatMap((r) =>
      r.fields.map(({ field }) => `uniform ${hostArgName(r, field)} : ${wgslLongForm(field.type.wgsl)};\n`),
    )
    .join('');

/** Fills one local struct per resource from Babylon.js's uniforms, field by field; returns the lines and arguments. */
function fillStructs(resources: HostResource[]): { lines: string; args: string } {
  const lines = resources
    .map(
      (r) =>
        `  var host_${r.binding}: ${r.struct};\n${r.fields
          .map(({ field }) => `  host_${r.binding}.${field.name} = uniforms.${hostArgName(r, field)};\n`)
          .join('')}`,
    )
    .join('');
  return { lines, args: resources.map((r) => `, host_${r.binding}`).join('') };
}

function vertexMain(resources: HostResource[]): string {
  const { lines, args } = fillStructs(resources);
  return `
@vertex
fn main(input : VertexInputs) -> FragmentInputs {
  var weftInput: VertexInput;
  weftInput.position = vertexInputs.position;
  weftInput.normal = vertexInputs.normal;
${lines}  let weftOutput = weftVertex(weftInput${args});
  vertexOutputs.position = weftOutput.position;
  vertexOutputs.vWorldPosition = weftOutput.worldPosition;
  vertexOutputs.vWorldNormal = weftOutput.worldNormal;
}
`;
}

function fragmentMain(resources: HostResource[]): string {
  const { lines, args } = fillStructs(resources);
  return `
@fragment
fn main(input : FragmentInputs) -> FragmentOutputs {
  var weftInput: FragmentInput;
  weftInput.position = fragmentInputs.position;
  weftInput.worldPosition = fragmentInputs.vWorldPosition;
  weftInput.worldNormal = fragmentInputs.vWorldNormal;
${lines}  fragmentOutputs.color = weftFragment(weftInput${args}).color;
}
`;
}

async function run(): Promise<HostPageResult> {
  const view = makeHostView(128);
  const size = view.size;
  const torus = hostTorusMesh();
  // weft's own rendering: the composed module with plain WebGPU (on a device of its own: Babylon.js keeps its
  // GPUDevice in a private field).
  const device = await requestDeviceAsync();
  const weft = await renderHostMaterialAsync(device, composeShader(hostMaterialSpec('module')), torus, view);
  device.destroy();

  const canvas = document.querySelector('canvas')!;
  const engine = new WebGPUEngine(canvas, { antialias: false, adaptToDeviceRatio: false });
  await engine.initAsync();
  engine.useReverseDepthBuffer = true;
  const scene = new Scene(engine);
  scene.useRightHandedSystem = true;
  const [r, g, b, a] = view.clearColor;
  scene.clearColor = new Color4(r, g, b, a);
  // Babylon.js needs an active camera to render; weft's vertex stage uses the test's own view-projection.
  const camera = new FreeCamera('camera', new Vector3(view.eye[0], view.eye[1], view.eye[2]), scene);
  camera.setTarget(Vector3.Zero());
  camera.fov = Math.PI / 4;
  camera.minZ = 0.1;
  camera.maxZ = 50;

  const library = composeShader(hostMaterialSpec('library'));
  const values = hostUniformValues(view);
  const vertexResources = hostResources(library, 'vertex', values);
  const fragmentResources = hostResources(library, 'fragment', values);
  const fed = new Map<string, { type: string; value: number | number[] }>();
  for (const r of [...vertexResources, ...fragmentResources])
    for (const { field, value } of r.fields) fed.set(hostArgName(r, field), { type: field.type.wgsl, value });
  const material = new ShaderMaterial(
    'weft-band',
    scene,
    {
      vertexSource: `${attributes}${uniformLines(vertexResources)}${varyings}\n${library.code}\n${vertexMain(vertexResources)}`,
      fragmentSource: `${varyings}${uniformLines(fragmentResources)}\n${library.code}\n${fragmentMain(fragmentResources)}`,
    },
    { attributes: ['position', 'normal'], uniforms: [...fed.keys()], shaderLanguage: ShaderLanguage.WGSL },
  );
  // Each value by the field's WGSL type; column-major matrices load as-is (Babylon.js keeps translation in 12..14).
  for (const [name, { type, value }] of fed) {
    const v = typeof value === 'number' ? [value] : value;
    if (type === 'mat4x4f') material.setMatrix(name, Matrix.FromArray(v));
    else if (type === 'vec4f') material.setVector4(name, new Vector4(v[0], v[1], v[2], v[3]));
    else if (type === 'vec3f') material.setVector3(name, new Vector3(v[0], v[1], v[2]));
    else if (type === 'f32') material.setFloat(name, v[0]);
    else throw new Error(`no Babylon.js setter for a ${type} field in this page`);
  }
  // weft culls back faces with counter-clockwise fronts (right-handed); say so to Babylon.js (left-handed by default).
  material.backFaceCulling = true;
  material.sideOrientation = Material.CounterClockWiseSideOrientation;

  const mesh = new Mesh('torus', scene);
  const data = new VertexData();
  data.positions = torus.positions;
  data.normals = torus.normals;
  data.indices = torus.indices;
  data.applyToMesh(mesh);
  mesh.material = material;
  mesh.alwaysSelectAsActiveMesh = true;

  await scene.whenReadyAsync();
  engine.beginFrame();
  scene.render();
  const read = new Uint8Array((await engine.readPixels(0, 0, size, size)).buffer);
  engine.endFrame();
  // The canvas texture is in the preferred canvas format; bgra8unorm reads back as B, G, R, A.
  const bgra = navigator.gpu.getPreferredCanvasFormat() === 'bgra8unorm';
  const host = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) {
    host[i * 4] = read[i * 4 + (bgra ? 2 : 0)];
    host[i * 4 + 1] = read[i * 4 + 1];
    host[i * 4 + 2] = read[i * 4 + (bgra ? 0 : 2)];
    host[i * 4 + 3] = read[i * 4 + 3];
  }
  // Babylon.js's own camera (right-handed scene, reverse depth) against the test's float64 view-projection.
  const babylonViewProjection = Array.from(camera.getTransformationMatrix().asArray());
  const cameraDrift = Math.max(...babylonViewProjection.map((v, i) => Math.abs(v - view.viewProjection[i])));
  const notes = [
    `canvas format ${navigator.gpu.getPreferredCanvasFormat()}`,
    `Babylon.js camera view-projection vs the test's: max |difference| ${cameraDrift.toExponential(2)}`,
  ];
  scene.dispose();
  engine.dispose();
  return { size, weft: [...weft], host: [...host], versions: { babylon: WebGPUEngine.Version }, notes, cameraDrift };
}

publish(run);
