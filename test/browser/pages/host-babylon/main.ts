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
import { makeHostView } from '../../../support/host-view.js';
import { type HostPageResult, publish, requestDeviceAsync } from '../host-result.js';

// Babylon.js's WGSL dialect: it turns these declarations into vertex inputs, varyings and a uniform buffer.
const vertexHeader = `attribute position : vec3<f32>;
attribute normal : vec3<f32>;
uniform weftViewProjection : mat4x4<f32>;
uniform weftWorld : mat4x4<f32>;
uniform weftNormalMatrix : mat4x4<f32>;
varying vWorldPosition : vec3<f32>;
varying vWorldNormal : vec3<f32>;
`;
const vertexMain = `
@vertex
fn main(input : VertexInputs) -> FragmentInputs {
  var weftInput: VertexInput;
  weftInput.position = vertexInputs.position;
  weftInput.normal = vertexInputs.normal;
  var scene: SceneUniforms;
  scene.viewProjection = uniforms.weftViewProjection;
  let draw = DrawUniforms(uniforms.weftWorld, uniforms.weftNormalMatrix, vec4f(1.0), vec4u(0u));
  let weftOutput = weftVertex(weftInput, scene, draw);
  vertexOutputs.position = weftOutput.position;
  vertexOutputs.vWorldPosition = weftOutput.worldPosition;
  vertexOutputs.vWorldNormal = weftOutput.worldNormal;
}
`;
const fragmentHeader = `varying vWorldPosition : vec3<f32>;
varying vWorldNormal : vec3<f32>;
uniform weftViewProjection : mat4x4<f32>;
uniform weftWorld : mat4x4<f32>;
uniform weftNormalMatrix : mat4x4<f32>;
uniform weftCameraPosition : vec4<f32>;
uniform weftLightDirection : vec4<f32>;
uniform weftLightColor : vec4<f32>;
uniform weftAmbientColor : vec4<f32>;
uniform weftTint : vec4<f32>;
uniform weftBandColor : vec4<f32>;
uniform weftBand : vec4<f32>;
`;
const fragmentMain = `
@fragment
fn main(input : FragmentInputs) -> FragmentOutputs {
  var weftInput: FragmentInput;
  weftInput.position = fragmentInputs.position;
  weftInput.worldPosition = fragmentInputs.vWorldPosition;
  weftInput.worldNormal = fragmentInputs.vWorldNormal;
  let scene = SceneUniforms(uniforms.weftViewProjection, uniforms.weftCameraPosition, uniforms.weftLightDirection,
                            uniforms.weftLightColor, uniforms.weftAmbientColor);
  let draw = DrawUniforms(uniforms.weftWorld, uniforms.weftNormalMatrix, vec4f(1.0), vec4u(0u));
  let band = BandParams(uniforms.weftTint, uniforms.weftBandColor, uniforms.weftBand);
  fragmentOutputs.color = weftFragment(weftInput, scene, draw, band).color;
}
`;

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
  const material = new ShaderMaterial(
    'weft-band',
    scene,
    {
      vertexSource: `${vertexHeader}\n${library.code}\n${vertexMain}`,
      fragmentSource: `${fragmentHeader}\n${library.code}\n${fragmentMain}`,
    },
    {
      attributes: ['position', 'normal'],
      uniforms: [
        'weftViewProjection',
        'weftWorld',
        'weftNormalMatrix',
        'weftCameraPosition',
        'weftLightDirection',
        'weftLightColor',
        'weftAmbientColor',
        'weftTint',
        'weftBandColor',
        'weftBand',
      ],
      shaderLanguage: ShaderLanguage.WGSL,
    },
  );
  // Column-major arrays load as-is: Babylon.js stores a matrix with its translation in elements 12..14.
  material.setMatrix('weftViewProjection', Matrix.FromArray(view.viewProjection));
  material.setMatrix('weftWorld', Matrix.FromArray(view.world));
  material.setMatrix('weftNormalMatrix', Matrix.FromArray(view.normalMatrix));
  const v4 = (v: number[]) => new Vector4(v[0], v[1], v[2], v[3] ?? 0);
  material.setVector4('weftCameraPosition', v4([...view.eye, 1]));
  material.setVector4('weftLightDirection', v4(view.lightDirection));
  material.setVector4('weftLightColor', v4(view.lightColor));
  material.setVector4('weftAmbientColor', v4(view.ambientColor));
  material.setVector4('weftTint', v4(view.tint));
  material.setVector4('weftBandColor', v4(view.bandColor));
  material.setVector4('weftBand', v4(view.band));
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
