// createBabylonMaterial in a Babylon.js WebGPUEngine: the band surface of the host-engine tests, drawn by Babylon.js's
// own vertex code on a mesh placed by its world matrix (moved between two frames), by a thin instance matrix, by a
// bone and by a morph target — each compared pixel by pixel with weft's own rendering of the same pose, camera and
// material (plain WebGPU). Winding: weft's torus is wound like glTF (counter-clockwise fronts, right-handed), so it is
// marked as Babylon.js's glTF loader marks its meshes; a MeshBuilder torus keeps Babylon.js's own orientation. Both
// must show their outside, and each with the other's orientation must not (the controls). Shader modules and render
// pipelines are counted: uniform updates and a second material of the same surface must create none.
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { WebGPUEngine } from '@babylonjs/core/Engines/webgpuEngine.js';
import { Bone } from '@babylonjs/core/Bones/bone.js';
import { Skeleton } from '@babylonjs/core/Bones/skeleton.js';
import { Material } from '@babylonjs/core/Materials/material.js';
import { Color4 } from '@babylonjs/core/Maths/math.color.js';
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreateTorus } from '@babylonjs/core/Meshes/Builders/torusBuilder.js';
import { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData.js';
import '@babylonjs/core/Meshes/thinInstanceMesh.js';
import { MorphTarget } from '@babylonjs/core/Morph/morphTarget.js';
import { MorphTargetManager } from '@babylonjs/core/Morph/morphTargetManager.js';
import { Scene } from '@babylonjs/core/scene.js';
import { composeShader } from '../../../../composer/index.js';
import { makeLambertLightingFragment } from '../../../../fragments/index.js';
import {
  createBabylonMaterial,
  disposeBabylonMaterial,
  setBabylonMaterialUniforms,
} from '../../../../hosts/babylon/index.js';
import { hostMaterialSpec, makeBandSurfaceFragment } from '../../../support/host-material.js';
import { type HostMesh, hostTorusMesh, renderHostMaterialAsync } from '../../../support/host-render.js';
import { hostUniformValues, makeHostView } from '../../../support/host-view.js';
import { requestDeviceAsync } from '../host-result.js';

/** Positions and normals times a column-major matrix whose 3x3 is a rotation (so it is its own normal matrix). */
function transformed(data: Float32Array, m: number[], w: number): Float32Array {
  const out = new Float32Array(data.length);
  for (let i = 0; i < data.length; i += 3)
    for (let r = 0; r < 3; r++)
      out[i + r] = m[r] * data[i] + m[4 + r] * data[i + 1] + m[8 + r] * data[i + 2] + w * m[12 + r];
  return out;
}

/** The MeshBuilder torus as weft draws meshes: counter-clockwise fronts outside (reversed when Babylon's are not). */
function weftWound(
  positions: Float32Array,
  normals: Float32Array,
  indices: Uint32Array,
): { mesh: HostMesh; reversed: boolean } {
  let agree = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t] * 3, indices[t + 1] * 3, indices[t + 2] * 3];
    const e1 = [0, 1, 2].map((k) => positions[b + k] - positions[a + k]);
    const e2 = [0, 1, 2].map((k) => positions[c + k] - positions[a + k]);
    const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    agree += Math.sign(n[0] * normals[a] + n[1] * normals[a + 1] + n[2] * normals[a + 2]);
  }
  const reversed = agree < 0;
  const wound = Uint32Array.from(indices);
  if (reversed) for (let t = 0; t < wound.length; t += 3) [wound[t + 1], wound[t + 2]] = [wound[t + 2], wound[t + 1]];
  return {
    mesh: { positions: Float32Array.from(positions), normals: Float32Array.from(normals), indices: wound },
    reversed,
  };
}

interface Counts {
  modules: number;
  pipelines: number;
}

async function run() {
  const view = makeHostView(128);
  const size = view.size;
  const torus = hostTorusMesh();
  const builderTorus = (scene: Scene) =>
    CreateTorus('builder-torus', { diameter: 1.6, thickness: 0.7, tessellation: 48 }, scene);

  const canvas = document.querySelector('canvas')!;
  const engine = new WebGPUEngine(canvas, { antialias: false, adaptToDeviceRatio: false });
  await engine.initAsync();
  engine.useReverseDepthBuffer = true;
  const scene = new Scene(engine);
  scene.useRightHandedSystem = true;
  const [r, g, b, a] = view.clearColor;
  scene.clearColor = new Color4(r, g, b, a);
  const camera = new FreeCamera('camera', new Vector3(view.eye[0], view.eye[1], view.eye[2]), scene);
  camera.setTarget(Vector3.Zero());
  camera.fov = Math.PI / 4;
  camera.minZ = 0.1;
  camera.maxZ = 50;

  const values = hostUniformValues(view);
  const spec = {
    fragments: [makeLambertLightingFragment(), makeBandSurfaceFragment()],
    uniforms: { scene: values.scene, bandParams: values.bandParams },
  };
  // Babylon.js compiles a material when a mesh first needs it: creating it compiles nothing yet.
  const weftMaterial = createBabylonMaterial(scene, spec);
  // weft's own renderings (the references), on a device of their own: the band torus, and the MeshBuilder torus.
  const builder = builderTorus(scene);
  builder.material = weftMaterial.material;
  builder.setEnabled(false);
  const builderData = weftWound(
    Float32Array.from(builder.getVerticesData('position')!),
    Float32Array.from(builder.getVerticesData('normal')!),
    Uint32Array.from(builder.getIndices()!),
  );
  const device = await requestDeviceAsync();
  const module = composeShader(hostMaterialSpec('module'));
  const weft = await renderHostMaterialAsync(device, module, torus, view);
  const weftBuilder = await renderHostMaterialAsync(device, module, builderData.mesh, view);
  device.destroy();

  const counts: Counts = { modules: 0, pipelines: 0 };
  const proto = GPUDevice.prototype;
  const createShaderModule = proto.createShaderModule;
  proto.createShaderModule = function (this: GPUDevice, d) {
    counts.modules++;
    return createShaderModule.call(this, d);
  };
  const createRenderPipeline = proto.createRenderPipeline;
  proto.createRenderPipeline = function (this: GPUDevice, d) {
    counts.pipelines++;
    return createRenderPipeline.call(this, d);
  };
  const createRenderPipelineAsync = proto.createRenderPipelineAsync;
  proto.createRenderPipelineAsync = function (this: GPUDevice, d) {
    counts.pipelines++;
    return createRenderPipelineAsync.call(this, d);
  };

  const world = Matrix.FromArray(view.world);
  const meshes: Mesh[] = [builder];
  /** A mesh of weft's torus, wound like glTF and marked as Babylon.js's glTF loader marks them in a right-handed scene. */
  const gltfStyle = (name: string, extra?: (data: VertexData) => void) => {
    const mesh = new Mesh(name, scene);
    const data = new VertexData();
    data.positions = torus.positions;
    data.normals = torus.normals;
    data.indices = torus.indices;
    extra?.(data);
    data.applyToMesh(mesh);
    mesh.sideOrientation = Material.CounterClockWiseSideOrientation;
    mesh.material = weftMaterial.material;
    meshes.push(mesh);
    return mesh;
  };
  const bgra = navigator.gpu.getPreferredCanvasFormat() === 'bgra8unorm';
  const draw = async (shown: Mesh) => {
    for (const mesh of meshes) mesh.setEnabled(mesh === shown);
    await scene.whenReadyAsync();
    engine.beginFrame();
    scene.render();
    const read = new Uint8Array((await engine.readPixels(0, 0, size, size)).buffer);
    engine.endFrame();
    const pixels: number[] = new Array(size * size * 4);
    for (let i = 0; i < size * size; i++) {
      pixels[i * 4] = read[i * 4 + (bgra ? 2 : 0)];
      pixels[i * 4 + 1] = read[i * 4 + 1];
      pixels[i * 4 + 2] = read[i * 4 + (bgra ? 0 : 2)];
      pixels[i * 4 + 3] = read[i * 4 + 3];
    }
    return pixels;
  };

  // 1. A moving mesh: drawn somewhere else first, then moved to the pose by its own position and rotation.
  const moving = gltfStyle('moving');
  moving.position.set(0.6, -0.3, 0);
  await draw(moving);
  const afterFirst = { ...counts };
  const scaling = new Vector3();
  const rotation = new Quaternion();
  const translation = new Vector3();
  world.decompose(scaling, rotation, translation);
  moving.rotationQuaternion = rotation;
  moving.position.copyFrom(translation);
  const moved = await draw(moving);
  // 2. A thin instance carries the pose (the mesh stays at the identity).
  const thin = gltfStyle('thin');
  thin.thinInstanceSetBuffer('matrix', Float32Array.from(view.world), 16);
  const thinInstanced = await draw(thin);
  // 3. Every vertex follows one bone, posed by the pose (bind pose: the identity).
  const count = torus.positions.length / 3;
  const weights = new Float32Array(count * 4);
  for (let v = 0; v < count; v++) weights[v * 4] = 1;
  const skinned = gltfStyle('skinned', (data) => {
    data.matricesIndices = new Float32Array(count * 4);
    data.matricesWeights = weights;
  });
  const skeleton = new Skeleton('skeleton', 'skeleton', scene);
  new Bone('bone', skeleton, null, world.clone(), Matrix.Identity(), Matrix.Identity());
  skinned.skeleton = skeleton;
  const skinnedPixels = await draw(skinned);
  // 4. A morph target at full influence holds the posed torus (the mesh stays at the identity).
  const morphed = gltfStyle('morphed');
  const manager = new MorphTargetManager(scene);
  const target = new MorphTarget('pose', 1, scene);
  target.setPositions(transformed(torus.positions, view.world, 1));
  target.setNormals(transformed(torus.normals, view.world, 0));
  manager.addTarget(target);
  morphed.morphTargetManager = manager;
  const morphedPixels = await draw(morphed);
  // 5. Winding: a MeshBuilder torus with Babylon.js's own orientation, posed by its world matrix.
  builder.rotationQuaternion = rotation;
  const builderPixels = await draw(builder);
  // Controls: each torus with the other's orientation shows its inside.
  const defaultOrientation = builder.sideOrientation;
  builder.sideOrientation = Material.CounterClockWiseSideOrientation;
  const builderFlipped = await draw(builder);
  builder.sideOrientation = defaultOrientation;
  moving.sideOrientation = defaultOrientation;
  const gltfFlipped = await draw(moving);
  moving.sideOrientation = Material.CounterClockWiseSideOrientation;
  const afterKinds = { ...counts };
  // Uniform updates by name: a new tint, drawn again; nothing compiles.
  setBabylonMaterialUniforms(weftMaterial, { bandParams: { tint: [0.1, 0.8, 0.3, 1] } });
  const retinted = await draw(moving);
  setBabylonMaterialUniforms(weftMaterial, { bandParams: { tint: values.bandParams.tint } });
  const restored = await draw(moving);
  const afterUpdates = { ...counts };
  // A second material of the same surface: the same code, compiled once.
  const second = createBabylonMaterial(scene, { ...spec, name: 'weft-second' });
  moving.material = second.material;
  const again = await draw(moving);
  const afterSecond = { ...counts };
  const errors: string[] = [];
  for (const bad of [
    () => setBabylonMaterialUniforms(weftMaterial, { bandParams: { tnt: [1, 0, 0, 1] } }),
    () => setBabylonMaterialUniforms(weftMaterial, { bandParms: { tint: [1, 0, 0, 1] } }),
    () => setBabylonMaterialUniforms(weftMaterial, { bandParams: { tint: [1, 0, 0] } }),
    () => setBabylonMaterialUniforms(weftMaterial, { draw: { flags: [0.5, 0, 0, 0] } }),
  ])
    try {
      bad();
    } catch (error) {
      errors.push(`${(error as Error).name}: ${(error as Error).message}`);
    }
  const sideOrientations = {
    material: weftMaterial.material.sideOrientation,
    backFaceCulling: weftMaterial.material.backFaceCulling,
    builderMesh: defaultOrientation,
    builderReversedForWeft: builderData.reversed,
  };
  disposeBabylonMaterial(weftMaterial);
  disposeBabylonMaterial(second);
  scene.dispose();
  engine.dispose();
  return {
    size,
    weft: [...weft],
    weftBuilder: [...weftBuilder],
    moved,
    thinInstanced,
    skinned: skinnedPixels,
    morphed: morphedPixels,
    builder: builderPixels,
    builderFlipped,
    gltfFlipped,
    retinted,
    restored,
    again,
    counts: { afterFirst, afterKinds, afterUpdates, afterSecond },
    errors,
    sideOrientations,
    babylon: WebGPUEngine.Version,
  };
}

run().then(
  (result) => (window.__weftResult = result),
  (error: unknown) =>
    (window.__weftResult = {
      error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error),
    }),
);
