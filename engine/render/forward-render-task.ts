import { mat4 } from 'wgpu-matrix';
import { type ComposeCache, makeComposeCache } from '../../composer/compose-shader.js';
import { acquireRenderPipeline, type PipelineLease, releaseRenderPipeline } from '../../composer/pipeline-cache.js';
import { composeStandardMaterial } from './standard-variants.js';
import { meshVertexLayout, standardVariantOf } from '../mesh-layout.js';
import type { Fragment } from '../../fragments/fragment-types.js';
import { createStandardMaterialFragments } from '../../fragments/standard-material.js';
import type { Camera } from '../camera.js';
import { getCameraViewProjectionMatrix } from '../camera.js';
import { getEngineColorTexture } from '../engine.js';
import { EngineError } from '../engine-errors.js';
import type { StandardMaterial, TextureData } from '../material.js';
import { ensureMeshGpu, type Mesh, syncThinInstances } from '../mesh.js';
import {
  deformationComposeParts,
  ensureMeshDeformation,
  meshDeformationGroup,
  meshDeformationVariant,
  syncMeshDeformation,
} from '../mesh-deformation.js';
import { getRenderTargetTextures, type RenderTarget } from '../render-target.js';
import type { Scene } from '../scene.js';
import type { Task } from '../task.js';
import { disposeFrameIdReader, type FrameIdHit, makeFrameIdRanges } from '../frame-ids.js';
import { createForwardObjectIdFragment } from '../../fragments/forward-object-id.js';
import {
  ensureObjectIdTexture,
  type ForwardObjectIds,
  forwardObjectIdFormat,
  makeForwardObjectIds,
  readObjectIdTexel,
} from './forward-object-ids.js';

/** Options of `createForwardRenderTask`. */
export interface ForwardRenderTaskOptions {
  name?: string;
  /** Draw into this target instead of the engine's canvas / offscreen texture. */
  target?: RenderTarget;
  /** Overrides `scene.camera`. */
  camera?: Camera;
  /** Meshes to draw (default: every visible mesh of the scene, in scene order). */
  meshes?: () => readonly Mesh[];
  /** Also render object IDs (frame id + primitive index, rg32uint) for `readForwardFrameIdAsync`; single-sample only. */
  objectIds?: boolean;
}

/** The forward renderer: draws the scene with the standard material. */
export interface ForwardRenderTask extends Task {
  readonly scene: Scene;
  /** Draw calls encoded by the last `execute()`. */
  drawCount: number;
  /** The object-ID attachment and its frame ranges, when created with `objectIds: true`. */
  readonly objectIds: ForwardObjectIds | null;
}

interface Draw {
  mesh: Mesh;
  material: StandardMaterial;
  lease: PipelineLease;
  vertexBuffers: GPUBuffer[];
  textureGroup: GPUBindGroup;
  /** Bones and morph data (group 3) of a deformed mesh. */
  deformGroup: GPUBindGroup | null;
  slot: number;
}

const drawUniformStride = 256;
const drawUniformFloats = 40; // world 16 + normalMatrix 16 + baseColor 4 + flags 4
const sceneUniformBytes = 128;
const defaultDepthFormat: GPUTextureFormat = 'depth24plus';

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
  let fragments: readonly Fragment[] = createStandardMaterialFragments();
  const composeCache: ComposeCache = makeComposeCache();
  const objectIds = options.objectIds ? makeForwardObjectIds(`weft:${name}`) : null;
  if (objectIds && options.target && options.target.samples !== 1) {
    throw new EngineError(
      'createForwardRenderTask',
      'object-ids-msaa',
      `task "${name}": objectIds needs a single-sample target; render target "${options.target.name}" has ${options.target.samples} samples`,
    );
  }
  if (objectIds) fragments = [...fragments, createForwardObjectIdFragment()];
  const objectConditions = objectIds
    ? { objectIds: true, objectPrimitive: engine.features.has('primitive-index') }
    : undefined;
  const textures = new Map<
    TextureData | null,
    { texture: GPUTexture; layout: GPUBindGroupLayout; group: GPUBindGroup }
  >();
  const sceneData = new Float32Array(sceneUniformBytes / 4);
  const views = new WeakMap<GPUTexture, GPUTextureView>();
  const viewOf = (texture: GPUTexture) => {
    let view = views.get(texture);
    if (!view) views.set(texture, (view = texture.createView()));
    return view;
  };
  const scratch = mat4.create();

  const colorFormat = () => (options.target ? options.target.colorFormats[0] : engine.colorFormat);
  const samples = () => (options.target ? options.target.samples : 1);
  // A target brings its own depth (depth24plus or depth32float); the canvas/offscreen frame uses depth24plus.
  const depthFormat = () => options.target?.depthFormat ?? defaultDepthFormat;
  const targetSize = () =>
    options.target ? [options.target.width, options.target.height] : [engine.width, engine.height];
  const sizeKey = () => targetSize().join('x');
  const listMeshes = () => (options.meshes ? options.meshes() : scene.meshes);

  function releaseDraws(list: Draw[], device: GPUDevice | null): void {
    if (device) for (const draw of list) releaseRenderPipeline(device, draw.lease);
  }

  function releaseDeviceObjects(): void {
    releaseDraws(draws, recordedDevice);
    draws = [];
    sceneBuffer?.destroy();
    drawBuffer?.destroy();
    depthTexture?.destroy();
    for (const entry of textures.values()) entry.texture.destroy();
    textures.clear();
    sceneBuffer = drawBuffer = null;
    depthTexture = null;
  }

  function textureGroup(device: GPUDevice, layout: GPUBindGroupLayout, data: TextureData | null): GPUBindGroup {
    const known = textures.get(data);
    if (known && known.layout === layout) return known.group;
    const pixels = data ?? { width: 1, height: 1, data: new Uint8Array([255, 255, 255, 255]) };
    const texture =
      known?.texture ??
      device.createTexture({
        label: `weft:${name}:texture`,
        size: [pixels.width, pixels.height],
        format: 'rgba8unorm',
        usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
      });
    if (!known)
      device.queue.writeTexture({ texture }, pixels.data, { bytesPerRow: pixels.width * 4 }, [
        pixels.width,
        pixels.height,
      ]);
    const sampler = device.createSampler({
      label: `weft:${name}:sampler`,
      magFilter: 'linear',
      minFilter: 'linear',
      addressModeU: 'repeat',
      addressModeV: 'repeat',
    });
    const group = device.createBindGroup({
      label: `weft:${name}:texture-group`,
      layout,
      entries: [
        { binding: 0, resource: sampler },
        { binding: 1, resource: texture.createView() },
      ],
    });
    textures.set(data, { texture, layout, group });
    return group;
  }

  // One fragment list per deformation kind, reused so the compose cache recognises it without re-hashing.
  const fragmentsByDeformation = new Map<string, readonly Fragment[]>();

  function acquireDraw(device: GPUDevice, mesh: Mesh, slot: number): Draw {
    const deformation = deformationComposeParts(meshDeformationVariant(mesh));
    let meshFragments = fragmentsByDeformation.get(deformation.key);
    if (!meshFragments)
      fragmentsByDeformation.set(deformation.key, (meshFragments = [...fragments, ...deformation.fragments]));
    const composed = composeStandardMaterial(standardVariantOf(mesh), {
      cache: composeCache,
      fragments: meshFragments,
      vertexLayout: { kind: 'buffers', buffers: meshVertexLayout(mesh) },
      deviceFeatures: engine.features,
      conditions: { ...objectConditions, ...deformation.conditions },
    });
    const lease = acquireRenderPipeline(device, composed, {
      label: `weft:${name}:standard`,
      targets: objectIds ? [{ format: colorFormat() }, { format: forwardObjectIdFormat }] : [{ format: colorFormat() }],
      primitive: { topology: 'triangle-list', cullMode: mesh.material.doubleSided ? 'none' : 'back', frontFace: 'ccw' },
      depthStencil: { format: depthFormat(), depthWriteEnabled: true, depthCompare: 'greater' },
      multisample: { count: samples() },
    });
    const gpu = ensureMeshGpu(mesh, device);
    const sources = [...gpu.vertexBuffers, ...(gpu.instanceBuffer ? [gpu.instanceBuffer] : [])];
    const vertexBuffers = composed.vertexBufferSources.map((i) => sources[i]);
    const deformed = ensureMeshDeformation(mesh, device);
    const deformGroup =
      deformed && composed.bindGroups[3]
        ? meshDeformationGroup(deformed, lease.bindGroupLayouts[3], composed.bindGroups[3].bindings)
        : null;
    return {
      mesh,
      material: mesh.material,
      lease,
      vertexBuffers,
      textureGroup: textureGroup(device, lease.bindGroupLayouts[2], mesh.material.texture),
      deformGroup,
      slot,
    };
  }

  function record(): void {
    const { device } = engine;
    if (recordedDevice !== device) {
      // A replaced device took every object with it: start from nothing.
      if (recordedDevice) releaseDeviceObjects();
      recordedDevice = device;
    }
    const meshes = listMeshes().filter((m) => !m.disposed);
    // Acquire the new list before releasing the old one, so shared pipelines and modules are never dropped and
    // re-created; if anything fails, the candidate's leases are given back and the old list stays.
    const nextDraws: Draw[] = [];
    try {
      meshes.forEach((mesh, slot) => nextDraws.push(acquireDraw(device, mesh, slot)));
    } catch (error) {
      releaseDraws(nextDraws, device);
      throw error;
    }
    releaseDraws(draws, device);
    sceneBuffer ??= device.createBuffer({
      label: `weft:${name}:scene-uniforms`,
      size: sceneUniformBytes,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    const neededBytes = Math.max(1, nextDraws.length) * drawUniformStride;
    if (!drawBuffer || drawBuffer.size < neededBytes) {
      drawBuffer?.destroy();
      drawBuffer = device.createBuffer({
        label: `weft:${name}:draw-uniforms`,
        size: neededBytes,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      });
      drawData = new Float32Array(neededBytes / 4);
    }
    if (nextDraws.length) {
      const [sceneLayout, drawLayout] = nextDraws[0].lease.bindGroupLayouts;
      sceneGroup = device.createBindGroup({
        label: `weft:${name}:scene-group`,
        layout: sceneLayout,
        entries: [{ binding: 0, resource: { buffer: sceneBuffer } }],
      });
      drawGroup = device.createBindGroup({
        label: `weft:${name}:draw-group`,
        layout: drawLayout,
        entries: [{ binding: 0, resource: { buffer: drawBuffer, size: drawUniformFloats * 4 } }],
      });
    }
    const [width, height] = targetSize();
    if (!options.target && (!depthTexture || depthTexture.width !== width || depthTexture.height !== height)) {
      depthTexture?.destroy();
      depthTexture = device.createTexture({
        label: `weft:${name}:depth`,
        size: [width, height],
        format: defaultDepthFormat,
        usage: GPUTextureUsage.RENDER_ATTACHMENT,
      });
    }
    draws = nextDraws;
    if (objectIds) {
      ensureObjectIdTexture(objectIds, device, width, height, `weft:${name}`);
      objectIds.recordedRanges = makeFrameIdRanges(draws);
    }
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
      if (objectIds) flags[base + 37] = objectIds.recordedRanges![draw.slot].first;
      syncThinInstances(draw.mesh);
      syncMeshDeformation(draw.mesh);
    }
    if (draws.length)
      engine.device.queue.writeBuffer(drawBuffer!, 0, drawData, 0, (draws.length * drawUniformStride) / 4);
  }

  const task: ForwardRenderTask = {
    name,
    scene,
    drawCount: 0,
    objectIds,
    needsRecord() {
      if (
        recordedDevice !== engine.device ||
        recordedStructure !== scene.structureVersion ||
        recordedSize !== sizeKey()
      )
        return true;
      if (options.meshes) return true;
      for (const draw of draws) if (draw.material !== draw.mesh.material || draw.mesh.disposed) return true;
      return false;
    },
    record,
    execute(encoder) {
      const camera = options.camera ?? scene.camera;
      if (!camera)
        throw new EngineError(
          'ForwardRenderTask.execute',
          'no-camera',
          `task "${name}" has no camera: set scene.camera or options.camera`,
        );
      const [width, height] = targetSize();
      writeUniforms(camera, width / height);
      let colorView: GPUTextureView;
      let resolveTarget: GPUTextureView | undefined;
      let depthView: GPUTextureView;
      if (options.target) {
        const textures = getRenderTargetTextures(options.target);
        colorView = viewOf(textures.colors[0]);
        resolveTarget = textures.resolves[0] ? viewOf(textures.resolves[0]) : undefined;
        if (!textures.depth)
          throw new EngineError(
            'ForwardRenderTask.execute',
            'no-depth',
            `render target "${options.target.name}" has no depth attachment; the forward pass needs one`,
          );
        depthView = viewOf(textures.depth);
      } else {
        // A canvas hands out a new texture every frame (one view each); offscreen and depth textures keep theirs.
        colorView = viewOf(getEngineColorTexture(engine));
        depthView = viewOf(depthTexture!);
      }
      const [r, g, b, a] = scene.clearColor;
      const pass = encoder.beginRenderPass({
        label: `weft:${name}:pass`,
        colorAttachments: [
          { view: colorView, resolveTarget, loadOp: 'clear', storeOp: 'store', clearValue: { r, g, b, a } },
          ...(objectIds
            ? [
                {
                  view: objectIds.view!,
                  loadOp: 'clear' as const,
                  storeOp: 'store' as const,
                  clearValue: { r: 0, g: 0, b: 0, a: 0 },
                },
              ]
            : []),
        ],
        depthStencilAttachment: { view: depthView, depthLoadOp: 'clear', depthClearValue: 0, depthStoreOp: 'store' },
      });
      let drawCount = 0;
      if (draws.length) pass.setBindGroup(0, sceneGroup!);
      for (const draw of draws) {
        if (!draw.mesh.visible || (draw.mesh.thinInstances && draw.mesh.thinInstanceCount === 0)) continue;
        pass.setPipeline(draw.lease.pipeline);
        pass.setBindGroup(1, drawGroup!, [draw.slot * drawUniformStride]);
        pass.setBindGroup(2, draw.textureGroup);
        if (draw.deformGroup) pass.setBindGroup(3, draw.deformGroup);
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
      if (objectIds) objectIds.frameRanges = objectIds.recordedRanges;
    },
    dispose() {
      objectIds?.texture?.destroy();
      if (objectIds) disposeFrameIdReader(objectIds.reader);
      if (recordedDevice === engine.device) releaseDeviceObjects();
      draws = [];
      recordedDevice = null;
    },
  };
  return task;
}

/** What the task's last executed frame drew at framebuffer pixel (x, y): mesh, thin instance, triangle. No extra pass. */
export function readForwardFrameIdAsync(task: ForwardRenderTask, x: number, y: number): Promise<FrameIdHit> {
  if (!task.objectIds)
    return Promise.reject(
      new EngineError(
        'readForwardFrameIdAsync',
        'no-object-ids',
        `task "${task.name}" was created without objectIds: true`,
      ),
    );
  return readObjectIdTexel(task.objectIds, task.scene.engine.device, task.name, x, y);
}
