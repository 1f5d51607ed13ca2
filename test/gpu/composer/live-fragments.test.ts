// swapLiveFragmentsAsync on Dawn: a swap replaces only the pipelines whose shader holds the fragment (what they draw
// changes, the lease objects stay), a bad edit changes nothing, and later composes of the old fragment get the new one.
import { describe, expect } from 'vitest';
import {
  acquireRenderPipeline,
  ComposeError,
  composeShader,
  enableLiveFragments,
  type Fragment,
  getComposerCounters,
  type PipelineLease,
  releaseRenderPipeline,
  ShaderCompileError,
  swapLiveFragmentsAsync,
  WeftError,
} from '../../../index.js';
import { gpuTest } from '../../support/gpu.js';

const fullscreen: Fragment = {
  id: 'fullscreen',
  source: `import io::{ VertexInput, VertexOutput };
fn fullscreen(input: VertexInput) -> VertexOutput {
  var output: VertexOutput;
  let corner = vec2f(f32((input.vertexIndex << 1u) & 2u), f32(input.vertexIndex & 2u));
  output.position = vec4f(corner * 2.0 - 1.0, 0.0, 1.0);
  return output;
}`,
  fills: [{ slot: 'vertexStage', fn: 'fullscreen' }],
};

const colour = (id: string, rgb: string, extra = ''): Fragment => ({
  id,
  source: `import io::{ FragmentInput, FragmentOutput };
fn paint(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  output.color = vec4f(${rgb}, 1.0);${extra}
  return output;
}`,
  outputs: [{ name: 'color', type: 'vec4f' }],
  fills: [{ slot: 'fragmentStage', fn: 'paint' }],
});

const targets = [{ format: 'rgba8unorm' as const }];

/** Draws one pixel with the lease's current pipeline and reads it back. */
async function drawPixelAsync(device: GPUDevice, lease: PipelineLease): Promise<number[]> {
  const texture = device.createTexture({
    size: [1, 1],
    format: 'rgba8unorm',
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });
  const buffer = device.createBuffer({ size: 256, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ view: texture.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }],
  });
  pass.setPipeline(lease.pipeline);
  pass.draw(3);
  pass.end();
  encoder.copyTextureToBuffer({ texture }, { buffer, bytesPerRow: 256 }, [1, 1]);
  device.queue.submit([encoder.finish()]);
  await buffer.mapAsync(GPUMapMode.READ);
  const pixel = [...new Uint8Array(buffer.getMappedRange(), 0, 4)];
  buffer.destroy();
  texture.destroy();
  return pixel;
}

describe('live fragment swaps', () => {
  gpuTest('refuses before enableLiveFragments, then swaps only what uses the fragment', async ({ engine }) => {
    const { device } = engine;
    await expect(swapLiveFragmentsAsync(() => undefined)).rejects.toMatchObject({ code: 'not-enabled' });
    enableLiveFragments();
    const red = colour('band', '1.0, 0.0, 0.0');
    const blue = colour('other', '0.0, 0.0, 1.0');
    const a = composeShader({ fragments: [fullscreen, red] });
    const b = composeShader({ fragments: [fullscreen, blue] });
    const leaseA = acquireRenderPipeline(device, a, { targets });
    const leaseA2 = acquireRenderPipeline(device, a, { targets, primitive: { frontFace: 'cw' } });
    const leaseB = acquireRenderPipeline(device, b, { targets });
    const pipelineB = leaseB.pipeline;
    const before = getComposerCounters(device);
    expect(await drawPixelAsync(device, leaseA)).toEqual([255, 0, 0, 255]);

    const green = colour('band', '0.0, 1.0, 0.0');
    const swap = await swapLiveFragmentsAsync((f) => (f.id === 'band' ? green : undefined));
    expect(swap).toMatchObject({ fragmentIds: ['band'], variants: 1, pipelines: 2 });
    expect(await drawPixelAsync(device, leaseA)).toEqual([0, 255, 0, 255]);
    expect(await drawPixelAsync(device, leaseA2)).toEqual([0, 255, 0, 255]);
    expect(leaseB.pipeline).toBe(pipelineB);
    const after = getComposerCounters(device);
    expect(after.modulesCompiled - before.modulesCompiled).toBe(1);
    expect(after.liveModules).toBe(before.liveModules);
    expect(after.livePipelines).toBe(before.livePipelines);

    // A later compose of the old fragment object composes the new one.
    expect(composeShader({ fragments: [fullscreen, red] }).code).toContain('vec4f(0.0, 1.0, 0.0, 1.0)');
    // The next swap sees the newest version.
    const seen: string[] = [];
    await swapLiveFragmentsAsync((f) => {
      if (f.id === 'band') seen.push(f.source);
      return undefined;
    });
    expect(seen).toEqual([green.source]);
    for (const lease of [leaseA, leaseA2, leaseB]) releaseRenderPipeline(device, lease);
    expect(getComposerCounters(device)).toMatchObject({ livePipelines: 0, liveModules: 0 });
  });

  gpuTest('a compose error, a compile error or a layout change swaps nothing', async ({ engine }) => {
    const { device } = engine;
    enableLiveFragments();
    const red = colour('band', '1.0, 0.0, 0.0');
    const lease = acquireRenderPipeline(device, composeShader({ fragments: [fullscreen, red] }), { targets });
    const pipeline = lease.pipeline;
    const before = getComposerCounters(device);
    const swapTo = (next: Fragment) => swapLiveFragmentsAsync((f) => (f.id === 'band' ? next : undefined));

    const unknown = await swapTo(colour('band', '1.0, 0.0, 0.0', '\n  output.color += missing;')).catch((e) => e);
    expect(unknown).toBeInstanceOf(ComposeError);
    expect((unknown as ComposeError).messages[0]).toMatchObject({ fragmentId: 'band', line: 5 });

    const typed = await swapTo(colour('band', '1.0, 0.0, 0.0', '\n  let wrong: f32 = vec2f(1.0);')).catch((e) => e);
    expect(typed).toBeInstanceOf(ShaderCompileError);
    expect((typed as ShaderCompileError).messages.find((m) => m.type === 'error')).toMatchObject({
      fragmentId: 'band',
      line: 5,
    });

    const wider = {
      ...colour('band', '1.0, 0.0, 0.0'),
      outputs: [{ name: 'color', type: 'vec4f', format: 'rgba16float' }],
    };
    const changed = await swapTo(wider as Fragment).catch((e) => e);
    expect(changed).toBeInstanceOf(WeftError);
    expect(changed).toMatchObject({ code: 'layout-changed' });

    expect(lease.pipeline).toBe(pipeline);
    expect(await drawPixelAsync(device, lease)).toEqual([255, 0, 0, 255]);
    expect(getComposerCounters(device)).toMatchObject({
      liveModules: before.liveModules,
      livePipelines: before.livePipelines,
    });
    // Nothing was recorded as replaced: the old fragment still composes as itself.
    expect(composeShader({ fragments: [fullscreen, red] }).code).toContain('vec4f(1.0, 0.0, 0.0, 1.0)');
    releaseRenderPipeline(device, lease);
  });
});
