// G-buffer strip: thumbnails of geometry-renderer attachments drawn along the bottom of the canvas, after the frame
// was presented to it (colour loaded), each texel for texel through the gbuffer-tile fragment.
import { composeShader, makeComposeCache } from '../../../composer/index.js';
import {
  type Engine,
  getEngineColorTexture,
  getRenderTargetTextures,
  type RenderTarget,
  type RenderTargetTextures,
  type Task,
} from '../../../engine/index.js';
import { createFullscreenVertexFragment, createGbufferTileFragment, tileParamsBytes } from './editor-fragments.js';
import { createNamedBindGroup, pipelineFor, type PipelineSet, releasePipelines } from './overlay-gpu.js';

/** One thumbnail: its source attachment and how to show it (0 colour, 1 signed normal, 2 view depth). */
export interface GbufferTile {
  label: string;
  source: () => RenderTarget | null;
  mode: 0 | 1 | 2;
}

/** Gap between thumbnails and to the canvas edges, framebuffer pixels. */
export const tileGap = 6;
/** View depths shown white and nearly black. */
const depthRange = [5, 14];

/** Where tile `index` of size w × h sits on an engine's framebuffer. */
export function tileRect(
  engine: Engine,
  index: number,
  width: number,
  height: number,
): [number, number, number, number] {
  return [tileGap + index * (width + tileGap), engine.height - height - tileGap, width, height];
}

/** Creates the strip task for tiles of `width` × `height` framebuffer pixels. */
export function createGbufferStripTask(
  engine: Engine,
  tiles: readonly GbufferTile[],
  width: number,
  height: number,
): Task {
  const pipelines: PipelineSet = { device: null, cache: makeComposeCache(), leases: new Map() };
  const fragments = [createFullscreenVertexFragment(), createGbufferTileFragment()];
  let device: GPUDevice | null = null;
  let sources: (RenderTargetTextures | null)[] = [];
  let params: GPUBuffer[] = [];
  let groups: (GPUBindGroup | null)[] = [];
  let pipeline: GPURenderPipeline | null = null;
  const attachment: GPURenderPassColorAttachment = {
    view: undefined as unknown as GPUTextureView,
    loadOp: 'load',
    storeOp: 'store',
  };
  const descriptor: GPURenderPassDescriptor = { label: 'editor:gbuffer-strip:pass', colorAttachments: [attachment] };
  const texturesOf = (tile: GbufferTile) => {
    const target = tile.source();
    return target && !target.disposed ? getRenderTargetTextures(target) : null;
  };
  const release = () => {
    for (const buffer of params) buffer.destroy();
    params = [];
    releasePipelines(pipelines);
  };

  return {
    name: 'editor-gbuffer-strip',
    needsRecord: () => device !== engine.device || tiles.some((tile, i) => texturesOf(tile) !== sources[i]),
    record() {
      if (device !== engine.device) release();
      device = engine.device;
      const { composed, lease } = pipelineFor(
        pipelines,
        device,
        'tile',
        () => composeShader({ fragments, vertexLayout: { kind: 'buffers', buffers: [] } }, pipelines.cache),
        {
          label: 'editor:gbuffer-tile',
          targets: [{ format: engine.colorFormat }],
          primitive: { topology: 'triangle-list' },
        },
      );
      pipeline = lease.pipeline;
      sources = tiles.map(texturesOf);
      groups = tiles.map((tile, i) => {
        params[i] ??= device!.createBuffer({
          label: `editor:gbuffer-strip:${tile.label}`,
          size: tileParamsBytes,
          usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
        });
        const [x, y] = tileRect(engine, i, width, height);
        device!.queue.writeBuffer(
          params[i],
          0,
          new Float32Array([x, y, tile.mode, 0, depthRange[0], depthRange[1], 0, 0]),
        );
        const textures = sources[i];
        if (!textures) return null;
        const view = (textures.resolves[0] ?? textures.colors[0]).createView({
          label: `editor:gbuffer-strip:${tile.label}:view`,
        });
        return createNamedBindGroup(
          device!,
          composed,
          lease,
          0,
          { tileTexture: view, tileParams: { buffer: params[i] } },
          `editor:gbuffer-strip:${tile.label}`,
        );
      });
    },
    execute(encoder) {
      attachment.view = getEngineColorTexture(engine).createView();
      const pass = encoder.beginRenderPass(descriptor);
      pass.setPipeline(pipeline!);
      for (let i = 0; i < groups.length; i++) {
        const group = groups[i];
        if (!group) continue;
        const [x, y, w, h] = tileRect(engine, i, width, height);
        pass.setViewport(x, y, w, h, 0, 1);
        pass.setScissorRect(x, y, w, h);
        pass.setBindGroup(0, group);
        pass.draw(3);
      }
      pass.end();
    },
    dispose() {
      if (device === engine.device) release();
      device = null;
    },
  };
}
