import { mat4 } from 'wgpu-matrix';
import type { Camera } from '../camera.js';
import { getCameraViewProjectionMatrix } from '../camera.js';
import { getEngineColorTexture } from '../engine.js';
import { EngineError } from '../engine-errors.js';
import type { StandardMaterial, TextureData } from '../material.js';
import { ensureMeshGpu, type Mesh, syncThinInstances } from '../mesh.js';
import { getRenderTargetTextures, type RenderTarget } from '../render-target.js';
import type { Scene } from '../scene.js';
import type { Task } from '../task.js';
import { makeStandardMaterialWgsl, type StandardShaderVariant, standardVertexLocations } from './standard-material-wgsl.js';

/** Options of `createForwardRenderTask`. */
export interface ForwardRenderTaskOptions {
  name?: string;
  /** Draw into this target instead of the engine's canvas / offscreen texture. */
  target?: RenderTarget;
  /** Overrides `scene.camera`. */
  camera?: Camera;
  /** Meshes to draw (default: every visible mesh of the scene, in scene order). */
  meshes?: () => readonly Mesh[];
}

/** The forward renderer: draws the scene with the standard material. */
export interface ForwardRenderTask extends Task {
  readonly scene: Scene;
  /** Draw calls encoded by the last `execute()`. */
  drawCount: number;
}

interface Draw {
  mesh: Mesh;
  material: StandardMaterial;
  pipeline: GPURenderPipeline;
  vertexBuffers: GPUBuffer[];
  textureGroup: GPUBindGroup;
  slot: number;
}

const drawUniformStride = 256;
const drawUniformFloats = 40; // world 16 + normalMatrix 16 + baseColor 4 + flags 4
const sceneUniformBytes = 128;
const depthFormat: GPUTextureFormat = 'depth24plus';

function variantOf(mesh: Mesh, hasTexture: boolean): StandardShaderVariant & { layoutKey: string } {
  const layoutKey = mesh.geometry.buffers.map((b) => `${b.arrayStride}:${b.attributes.map((a) => `${a.semantic}@${a.offset}/${a.format}`).join(',')}`).join('|');
  const has = (semantic: string) => mesh.geometry.buffers.some((b) => b.attributes.some((a) => a.semantic === semantic));
  return { normals: has('normal'), uvs: has('uv') && hasTexture, colors: has('color'), thinInstances: mesh.thinInstances !== null, layoutKey };
}

/** Creates the forward render task (GPU objects are made in `record()`). */
export function createForwardRenderTask(scene: Scene, options: ForwardRenderTaskOptions = {}): ForwardRenderTask {
  const engine = scene.engine;
  const name = options.name ?? 'forward';
  let recordedDevice: GPUDevice | null = null;
  let recordedStructure = -1;
  let recordedSize = '';
  let draws: Draw[] = [];
  let sceneBuffer: GPUBuffer | null = null;
  let drawBuffer: GPUBuffer | null = null;
  let sceneGroup: GPUBindGroup | null = null;
  let drawGroup: GPUBindGroup | null = null;
  let drawData = new Float32Array(0);
  let depthTexture: GPUTexture | null = null;
  const pipelines = new Map<string, GPURenderPipeline>();
  const textures = new Map<TextureData | null, { texture: GPUTexture; group: GPUBindGroup }>();
  const sceneData = new Float32Array(sceneUniformBytes / 4);
  const scratch = mat4.create();

  const colorFormat = () => (options.target ? options.target.colorFormats[0] : engine.colorFormat);
  const samples = () => (options.target ? options.target.samples : 1);
  const targetSize = () => (options.target ? [options.target.width, options.target.height] : [engine.width, engine.height]);
  const sizeKey = () => targetSize().join('x');
  const listMeshes = () => (options.meshes ? options.meshes() : scene.meshes);

  function releaseDeviceObjects(): void {
    sceneBuffer?.destroy();
    drawBuffer?.destroy();
    depthTexture?.destroy();
    for (const entry of textures.values()) entry.texture.destroy();
    textures.clear();
    pipelines.clear();
    sceneBuffer = drawBuffer = null;
    depthTexture = null;
  }

  function textureEntry(device: GPUDevice, layout: GPUBindGroupLayout, data: TextureData | null) {
    let entry = textures.get(data);
    if (entry) return entry;
    const pixels = data ?? { width: 1, height: 1, data: new Uint8Array([255, 255, 255, 255]) };
    const texture = device.createTexture({ label: `weft:${name}:texture`, size: [pixels.width, pixels.height], format: 'rgba8unorm', usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
    device.queue.writeTexture({ texture }, pixels.data, { bytesPerRow: pixels.width * 4 }, [pixels.width, pixels.height]);
    const sampler = device.createSampler({ label: `weft:${name}:sampler`, magFilter: 'linear', minFilter: 'linear', addressModeU: 'repeat', addressModeV: 'repeat' });
    const group = device.createBindGroup({ label: `weft:${name}:texture-group`, layout, entries: [{ binding: 0, resource: texture.createView() }, { binding: 1, resource: sampler }] });
    entry = { texture, group };
    textures.set(data, entry);
    return entry;
  }

  function pipelineFor(device: GPUDevice, layout: GPUPipelineLayout, mesh: Mesh, material: StandardMaterial): GPURenderPipeline {
    const variant = variantOf(mesh, material.texture !== null);
    const key = `${variant.layoutKey}|n${+variant.normals}u${+variant.uvs}c${+variant.colors}i${+variant.thinInstances}|${material.doubleSided ? 'none' : 'back'}|${colorFormat()}x${samples()}`;
    let pipeline = pipelines.get(key);
    if (pipeline) return pipeline;
    const code = makeStandardMaterialWgsl(variant);
    const module = device.createShaderModule({ label: `weft:${name}:standard`, code });
    const locations: Record<string, number> = { position: standardVertexLocations.position, normal: standardVertexLocations.normal, uv: standardVertexLocations.uv, color: standardVertexLocations.color };
    const wanted = (semantic: string) => semantic === 'position' || (semantic === 'normal' && variant.normals) || (semantic === 'uv' && variant.uvs) || (semantic === 'color' && variant.colors);
    const buffers: GPUVertexBufferLayout[] = mesh.geometry.buffers
      .map((b) => ({ arrayStride: b.arrayStride, attributes: b.attributes.filter((a) => wanted(a.semantic)).map((a) => ({ shaderLocation: locations[a.semantic], offset: a.offset, format: a.format })) }))
      .filter((b) => b.attributes.length > 0);
    if (variant.thinInstances) {
      buffers.push({ arrayStride: 64, stepMode: 'instance', attributes: [0, 1, 2, 3].map((i) => ({ shaderLocation: standardVertexLocations.instance0 + i, offset: i * 16, format: 'float32x4' as const })) });
    }
    pipeline = device.createRenderPipeline({
      label: `weft:${name}:standard:${pipelines.size}`,
      layout,
      vertex: { module, entryPoint: 'vertexMain', buffers },
      fragment: { module, entryPoint: 'fragmentMain', targets: [{ format: colorFormat() }] },
      primitive: { topology: 'triangle-list', cullMode: material.doubleSided ? 'none' : 'back', frontFace: 'ccw' },
      depthStencil: { format: depthFormat, depthWriteEnabled: true, depthCompare: 'greater' },
      multisample: { count: samples() },
    });
    pipelines.set(key, pipeline);
    return pipeline;
  }

  function record(): void {
    const { device } = engine;
    if (recordedDevice !== device) {
      if (recordedDevice) releaseDeviceObjects();
      recordedDevice = device;
    }
    const sceneLayout = device.createBindGroupLayout({ label: `weft:${name}:scene-layout`, entries: [{ binding: 0, visibility: GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT, buffer: { type: 'uniform' } }] });
    const drawLayout = device.createBindGroupLayout({ label: `weft:${name}:draw-layout`, entries: [{ binding: 0, visibility: GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: drawUniformFloats * 4 } }] });
    const textureLayout = device.createBindGroupLayout({ label: `weft:${name}:texture-layout`, entries: [{ binding: 0, visibility: GPUShaderStage.FRAGMENT, texture: {} }, { binding: 1, visibility: GPUShaderStage.FRAGMENT, sampler: {} }] });
    const pipelineLayout = device.createPipelineLayout({ label: `weft:${name}:layout`, bindGroupLayouts: [sceneLayout, drawLayout, textureLayout] });
    const meshes = listMeshes().filter((m) => !m.disposed);
    const nextDraws: Draw[] = meshes.map((mesh, slot) => {
      const gpu = ensureMeshGpu(mesh, device);
      const pipeline = pipelineFor(device, pipelineLayout, mesh, mesh.material);
      const variant = variantOf(mesh, mesh.material.texture !== null);
      const wanted = (semantic: string) => semantic === 'position' || (semantic === 'normal' && variant.normals) || (semantic === 'uv' && variant.uvs) || (semantic === 'color' && variant.colors);
      const vertexBuffers = mesh.geometry.buffers.flatMap((b, i) => (b.attributes.some((a) => wanted(a.semantic)) ? [gpu.vertexBuffers[i]] : []));
      if (gpu.instanceBuffer) vertexBuffers.push(gpu.instanceBuffer);
      return { mesh, material: mesh.material, pipeline, vertexBuffers, textureGroup: textureEntry(device, textureLayout, mesh.material.texture).group, slot };
    });
    sceneBuffer ??= device.createBuffer({ label: `weft:${name}:scene-uniforms`, size: sceneUniformBytes, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    const neededBytes = Math.max(1, nextDraws.length) * drawUniformStride;
    if (!drawBuffer || drawBuffer.size < neededBytes) {
      drawBuffer?.destroy();
      drawBuffer = device.createBuffer({ label: `weft:${name}:draw-uniforms`, size: neededBytes, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
      drawData = new Float32Array(neededBytes / 4);
    }
    sceneGroup = device.createBindGroup({ label: `weft:${name}:scene-group`, layout: sceneLayout, entries: [{ binding: 0, resource: { buffer: sceneBuffer } }] });
    drawGroup = device.createBindGroup({ label: `weft:${name}:draw-group`, layout: drawLayout, entries: [{ binding: 0, resource: { buffer: drawBuffer, size: drawUniformFloats * 4 } }] });
    const [width, height] = targetSize();
    if (!options.target && (!depthTexture || depthTexture.width !== width || depthTexture.height !== height)) {
      depthTexture?.destroy();
      depthTexture = device.createTexture({ label: `weft:${name}:depth`, size: [width, height], format: depthFormat, usage: GPUTextureUsage.RENDER_ATTACHMENT });
    }
    draws = nextDraws;
    recordedStructure = scene.structureVersion;
    recordedSize = sizeKey();
  }

  function writeUniforms(camera: Camera, aspect: number): void {
    getCameraViewProjectionMatrix(camera, aspect, sceneData.subarray(0, 16));
    sceneData.set(camera.position, 16);
    sceneData.set(scene.lightDirection, 20);
    sceneData.set(scene.lightColor, 24);
    sceneData.set(scene.ambientColor, 28);
    engine.device.queue.writeBuffer(sceneBuffer!, 0, sceneData);
    const flags = new Uint32Array(drawData.buffer);
    for (const draw of draws) {
      const base = (draw.slot * drawUniformStride) / 4;
      drawData.set(draw.mesh.worldMatrix, base);
      mat4.transpose(mat4.inverse(draw.mesh.worldMatrix, scratch), scratch);
      drawData.set(scratch, base + 16);
      drawData.set(draw.material.baseColor, base + 32);
      flags[base + 36] = draw.material.unlit ? 1 : 0;
      syncThinInstances(draw.mesh);
    }
    if (draws.length) engine.device.queue.writeBuffer(drawBuffer!, 0, drawData, 0, (draws.length * drawUniformStride) / 4);
  }

  const task: ForwardRenderTask = {
    name,
    scene,
    drawCount: 0,
    needsRecord() {
      if (recordedDevice !== engine.device || recordedStructure !== scene.structureVersion || recordedSize !== sizeKey()) return true;
      if (options.meshes) return true;
      for (const draw of draws) if (draw.material !== draw.mesh.material || draw.mesh.disposed) return true;
      return false;
    },
    record,
    execute(encoder) {
      const camera = options.camera ?? scene.camera;
      if (!camera) throw new EngineError('ForwardRenderTask.execute', 'no-camera', `task "${name}" has no camera: set scene.camera or options.camera`);
      const [width, height] = targetSize();
      writeUniforms(camera, width / height);
      let colorView: GPUTextureView;
      let resolveTarget: GPUTextureView | undefined;
      let depthView: GPUTextureView;
      if (options.target) {
        const textures = getRenderTargetTextures(options.target);
        colorView = textures.colors[0].createView();
        resolveTarget = textures.resolves[0]?.createView();
        if (!textures.depth) throw new EngineError('ForwardRenderTask.execute', 'no-depth', `render target "${options.target.name}" has no depth attachment; the forward pass needs one`);
        depthView = textures.depth.createView();
      } else {
        colorView = getEngineColorTexture(engine).createView();
        depthView = depthTexture!.createView();
      }
      const [r, g, b, a] = scene.clearColor;
      const pass = encoder.beginRenderPass({
        label: `weft:${name}:pass`,
        colorAttachments: [{ view: colorView, resolveTarget, loadOp: 'clear', storeOp: 'store', clearValue: { r, g, b, a } }],
        depthStencilAttachment: { view: depthView, depthLoadOp: 'clear', depthClearValue: 0, depthStoreOp: 'store' },
      });
      pass.setBindGroup(0, sceneGroup!);
      let drawCount = 0;
      for (const draw of draws) {
        if (!draw.mesh.visible || (draw.mesh.thinInstances && draw.mesh.thinInstanceCount === 0)) continue;
        pass.setPipeline(draw.pipeline);
        pass.setBindGroup(1, drawGroup!, [draw.slot * drawUniformStride]);
        pass.setBindGroup(2, draw.textureGroup);
        draw.vertexBuffers.forEach((buffer, i) => pass.setVertexBuffer(i, buffer));
        const instances = Math.max(1, draw.mesh.thinInstanceCount);
        const gpu = draw.mesh.gpu!;
        if (gpu.indexBuffer) {
          pass.setIndexBuffer(gpu.indexBuffer, draw.mesh.geometry.indices instanceof Uint16Array ? 'uint16' : 'uint32');
          pass.drawIndexed(draw.mesh.geometry.indices!.length, instances);
        } else {
          pass.draw(draw.mesh.geometry.vertexCount, instances);
        }
        drawCount++;
      }
      pass.end();
      task.drawCount = drawCount;
    },
    dispose() {
      releaseDeviceObjects();
      draws = [];
      recordedDevice = null;
    },
  };
  return task;
}
