// createThreeMaterial in a three.js WebGPURenderer: the band surface of the host-engine tests, drawn by three's own
// vertex pipeline on a Mesh placed by its matrix, on an InstancedMesh placed by its instance matrix, and on a
// SkinnedMesh placed by its bone — each compared pixel by pixel with weft's own rendering of the same pose, camera and
// material (plain WebGPU on the same device). Uniform updates and a second material of the same surface are counted:
// they must create no shader module and no pipeline.
import {
  Bone,
  BufferAttribute,
  BufferGeometry,
  Color,
  Float32BufferAttribute,
  InstancedMesh,
  LinearSRGBColorSpace,
  Matrix4,
  Mesh,
  PerspectiveCamera,
  REVISION,
  Scene,
  Skeleton,
  SkinnedMesh,
  Uint16BufferAttribute,
} from 'three';
import { RenderTarget, UnsignedByteType, WebGPURenderer } from 'three/webgpu';
import { composeShader } from '../../../../composer/index.js';
import { makeLambertLightingFragment } from '../../../../fragments/index.js';
import { createThreeMaterial, disposeThreeMaterial, setThreeMaterialUniforms } from '../../../../hosts/three/index.js';
import { hostMaterialSpec, makeBandSurfaceFragment } from '../../../support/host-material.js';
import { hostTorusMesh, renderHostMaterialAsync } from '../../../support/host-render.js';
import { hostUniformValues, makeHostView } from '../../../support/host-view.js';
import { requestDeviceAsync } from '../host-result.js';

async function run() {
  const device = await requestDeviceAsync();
  const view = makeHostView(128);
  const size = view.size;
  const torus = hostTorusMesh();
  const weft = await renderHostMaterialAsync(device, composeShader(hostMaterialSpec('module')), torus, view);
  const values = hostUniformValues(view);

  const renderer = new WebGPURenderer({ canvas: document.querySelector('canvas')!, device, reversedDepthBuffer: true });
  await renderer.init();
  const counts = { modules: 0, pipelines: 0 };
  const createShaderModule = device.createShaderModule.bind(device);
  device.createShaderModule = (d) => (counts.modules++, createShaderModule(d));
  const createRenderPipeline = device.createRenderPipeline.bind(device);
  device.createRenderPipeline = (d) => (counts.pipelines++, createRenderPipeline(d));
  const createRenderPipelineAsync = device.createRenderPipelineAsync.bind(device);
  device.createRenderPipelineAsync = (d) => (counts.pipelines++, createRenderPipelineAsync(d));

  const spec = {
    fragments: [makeLambertLightingFragment(), makeBandSurfaceFragment()],
    uniforms: { scene: values.scene, bandParams: values.bandParams },
  };
  const weftMaterial = createThreeMaterial(spec);
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(torus.positions, 3));
  geometry.setAttribute('normal', new BufferAttribute(torus.normals, 3));
  geometry.setIndex(new BufferAttribute(torus.indices, 1));
  const world = new Matrix4().fromArray(view.world);
  const camera = new PerspectiveCamera(45, 1, 0.1, 50);
  camera.position.set(view.eye[0], view.eye[1], view.eye[2]);
  camera.lookAt(0, 0, 0);
  const target = new RenderTarget(size, size, { type: UnsignedByteType, depthBuffer: true });
  const [r, g, b] = view.clearColor;
  renderer.setClearColor(new Color().setRGB(r, g, b, LinearSRGBColorSpace), 1);
  renderer.setRenderTarget(target);

  const draw = async (object: Mesh) => {
    const scene = new Scene();
    scene.add(object);
    renderer.render(scene, camera);
    return [
      ...new Uint8Array(
        (await renderer.readRenderTargetPixelsAsync(target, 0, 0, size, size)) as unknown as ArrayBuffer,
      ),
    ];
  };
  // 1. A Mesh placed by its own matrix (three's object transform).
  const mesh = new Mesh(geometry, weftMaterial.material);
  mesh.matrixAutoUpdate = false;
  mesh.matrix.copy(world);
  const moved = await draw(mesh);
  const afterFirst = { ...counts };
  // 2. An InstancedMesh at the identity whose one instance carries the pose.
  const instanced = new InstancedMesh(geometry, weftMaterial.material, 1);
  instanced.setMatrixAt(0, world);
  const instancedPixels = await draw(instanced);
  // 3. A SkinnedMesh whose vertices all follow one bone, posed by that bone.
  const skinnedGeometry = geometry.clone();
  const count = torus.positions.length / 3;
  skinnedGeometry.setAttribute('skinIndex', new Uint16BufferAttribute(new Uint16Array(count * 4), 4));
  const weights = new Float32Array(count * 4);
  for (let v = 0; v < count; v++) weights[v * 4] = 1;
  skinnedGeometry.setAttribute('skinWeight', new Float32BufferAttribute(weights, 4));
  const skinned = new SkinnedMesh(skinnedGeometry, weftMaterial.material);
  const bone = new Bone();
  skinned.add(bone);
  skinned.bind(new Skeleton([bone]));
  bone.matrixAutoUpdate = false;
  bone.matrix.copy(world);
  const skinnedPixels = await draw(skinned);
  const afterKinds = { ...counts };
  // Uniform updates by name: a new tint, drawn again; nothing compiles.
  setThreeMaterialUniforms(weftMaterial, { bandParams: { tint: [0.1, 0.8, 0.3, 1] } });
  const retinted = await draw(mesh);
  setThreeMaterialUniforms(weftMaterial, { bandParams: { tint: values.bandParams.tint } });
  const afterUpdates = { ...counts };
  // A second material of the same surface: the same code, compiled once.
  const second = createThreeMaterial(spec);
  const secondMesh = new Mesh(geometry, second.material);
  secondMesh.matrixAutoUpdate = false;
  secondMesh.matrix.copy(world);
  const again = await draw(secondMesh);
  const afterSecond = { ...counts };
  const errors: string[] = [];
  for (const bad of [
    () => setThreeMaterialUniforms(weftMaterial, { bandParams: { tnt: [1, 0, 0, 1] } }),
    () => setThreeMaterialUniforms(weftMaterial, { bandParms: { tint: [1, 0, 0, 1] } }),
    () => setThreeMaterialUniforms(weftMaterial, { bandParams: { tint: [1, 0, 0] } }),
  ])
    try {
      bad();
    } catch (error) {
      errors.push(`${(error as Error).name}: ${(error as Error).message}`);
    }
  disposeThreeMaterial(weftMaterial);
  disposeThreeMaterial(second);
  target.dispose();
  renderer.dispose();
  return {
    size,
    weft: [...weft],
    moved,
    instanced: instancedPixels,
    skinned: skinnedPixels,
    retinted,
    again,
    counts: { afterFirst, afterKinds, afterUpdates, afterSecond },
    errors,
    three: REVISION,
  };
}

run().then(
  (result) => (window.__weftResult = result),
  (error: unknown) =>
    (window.__weftResult = {
      error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error),
    }),
);
