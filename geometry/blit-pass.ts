import type { ComposeCache } from '../composer/compose-shader.js';
import { composeShader } from '../composer/compose-shader.js';
import { blitSpec } from './geometry-shader.js';
import type { PipelineLease } from '../composer/pipeline-cache.js';
import {
  acquirePipelineLease,
  createPipelineLeaseSet,
  disposePipelineLeaseSet,
  type PipelineLeaseSet,
} from '../composer/pipeline-leases.js';
import type { Fragment } from '../fragments/fragment-types.js';
import { setUniforms } from '../composer/uniform-layout-writer.js';

/** Per-channel remap of a float blit: `out = (texel, red replicated?) * scale + bias`, rgb × source alpha when `maskByAlpha`. */
interface BlitRemapValues {
  scale: readonly [number, number, number, number];
  bias: readonly [number, number, number, number];
  replicateRed?: boolean;
  maskByAlpha?: boolean;
}

/**
 * A named remap (`normal`: n × 0.5 + 0.5 with background black; `depth`: r as grey; `identity`) or explicit values.
 * @internal
 */
export type BlitRemap = 'identity' | 'normal' | 'depth' | BlitRemapValues;

/** @internal The values of a named remap. */
export function resolveBlitRemap(remap: BlitRemap | undefined): BlitRemapValues {
  if (remap === undefined || remap === 'identity') return { scale: [1, 1, 1, 1], bias: [0, 0, 0, 0] };
  if (remap === 'normal') return { scale: [0.5, 0.5, 0.5, 0], bias: [0.5, 0.5, 0.5, 1], maskByAlpha: true };
  if (remap === 'depth') return { scale: [1, 1, 1, 0], bias: [0, 0, 0, 1], replicateRed: true };
  return remap;
}

/** Everything a blit pass needs; built in record(), encoded by execute() without creating anything. */
interface BlitPassOptions {
  label: string;
  cache: ComposeCache;
  fragments: readonly Fragment[];
  sourceView: GPUTextureView;
  sourceSize: readonly [number, number];
  sourceMultisampled: boolean;
  uint: boolean;
  lod: number;
  targetView: GPUTextureView;
  targetFormat: GPUTextureFormat;
  targetSamples: 1 | 4;
  resolveView?: GPUTextureView;
  /** Pixel viewport in the target; the attachment is then loaded, not cleared. */
  viewport: readonly [number, number, number, number] | null;
  remap: BlitRemapValues;
  flipY: boolean;
  /** Multisampled sources: read sample 0 instead of averaging (depth-like data, ids). */
  firstSample: boolean;
}

/** @internal A recorded blit: pipeline lease, uniforms, bind group and a reusable pass descriptor. */
export interface BlitPass {
  /** Holds the blit's one pipeline. */
  pipelines: PipelineLeaseSet;
  lease: PipelineLease;
  uniforms: GPUBuffer;
  group: GPUBindGroup;
  descriptor: GPURenderPassDescriptor;
  viewport: readonly [number, number, number, number] | null;
}

/** @internal Record-time: composes the blit variant, acquires its pipeline and writes its uniforms once. */
export function createBlitPass(device: GPUDevice, options: BlitPassOptions): BlitPass {
  const pipelines = createPipelineLeaseSet(device);
  const compose = () =>
    composeShader(
      blitSpec({ multisampled: options.sourceMultisampled, uint: options.uint }, { fragments: options.fragments }),
      options.cache,
    );
  const { composed, lease } = acquirePipelineLease(pipelines, 'blit', compose, {
    label: `${options.label}:pipeline`,
    targets: [{ format: options.targetFormat }],
    primitive: { topology: 'triangle-list' },
    multisample: { count: options.targetSamples },
  });
  const layout = composed.bufferLayouts.blit;
  const uniforms = device.createBuffer({
    label: `${options.label}:uniforms`,
    size: layout.minBindingSize,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  // Written once per record, by field name: the offsets come from the blit shader's own layout.
  const data = new ArrayBuffer(layout.minBindingSize);
  setUniforms(layout, data, {
    scale: options.remap.scale,
    bias: options.remap.bias,
    source: [options.sourceSize[0], options.sourceSize[1], options.lod, 0],
    flags: [
      options.flipY ? 1 : 0,
      options.remap.replicateRed ? 1 : 0,
      options.remap.maskByAlpha ? 1 : 0,
      options.firstSample ? 1 : 0,
    ],
  });
  device.queue.writeBuffer(uniforms, 0, data);
  const bindings = composed.bindGroups[0].bindings;
  const group = device.createBindGroup({
    label: `${options.label}:group`,
    layout: lease.bindGroupLayouts[0],
    entries: bindings.map((b) => ({
      binding: b.binding,
      resource: b.name === 'blit' ? { buffer: uniforms } : options.sourceView,
    })),
  });
  const load = options.viewport !== null;
  const descriptor: GPURenderPassDescriptor = {
    label: `${options.label}:pass`,
    colorAttachments: [
      {
        view: options.targetView,
        resolveTarget: options.resolveView,
        loadOp: load ? 'load' : 'clear',
        storeOp: 'store',
        clearValue: { r: 0, g: 0, b: 0, a: 0 },
      },
    ],
  };
  return { pipelines, lease, uniforms, group, descriptor, viewport: options.viewport };
}

/** @internal Execute-time: one pass, one triangle. */
export function encodeBlitPass(encoder: GPUCommandEncoder, blit: BlitPass): void {
  const pass = encoder.beginRenderPass(blit.descriptor);
  pass.setPipeline(blit.lease.pipeline);
  pass.setBindGroup(0, blit.group);
  if (blit.viewport) pass.setViewport(blit.viewport[0], blit.viewport[1], blit.viewport[2], blit.viewport[3], 0, 1);
  pass.draw(3);
  pass.end();
}

/** @internal Gives back the pipeline lease and destroys the uniforms. */
export function disposeBlitPass(blit: BlitPass): void {
  disposePipelineLeaseSet(blit.pipelines);
  blit.uniforms.destroy();
}
