/**
 * A host engine using weft's composer with plain WebGPU: no `engine/` import. It composes its own fragment (a
 * striped, Lambert-lit surface with its own uniform) with weft's standard vertex stage and lighting fragments,
 * builds the pipeline from the composed layouts and draws one quad.
 */
import {
  composeShader,
  type ComposedShader,
  formatShaderMessage,
  type LayoutValue,
  mapCompilationInfo,
  setUniforms,
} from '../../composer/index.js';
import { makeLambertLightingFragment, makeStandardVertexFragments, type Fragment } from '../../fragments/index.js';

/** The host's own fragment: fills the fragment stage, declares a material uniform the composer places. */
export function createStripedSurfaceFragment(): Fragment {
  return {
    id: 'host-striped-surface',
    source: `import bindings::{ hostParams, scene };
import io::{ FragmentInput, FragmentOutput };
import package::lambert_lighting::lambert;

struct HostParams {
  tint: vec4f,
  // x: world x where the bright stripe starts
  edge: vec4f,
}

fn stripedSurface(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let stripe = select(0.5, 1.0, input.worldPosition.x > hostParams.edge.x);
  let albedo = hostParams.tint.rgb * stripe;
  let lit = lambert(albedo, normalize(input.worldNormal), scene.lightDirection.xyz, scene.lightColor.rgb, scene.ambientColor.rgb);
  output.color = vec4f(lit, 1.0);
  return output;
}
`,
    dependencies: ['lambert-lighting', 'scene-uniforms'],
    bindings: [{ name: 'hostParams', kind: 'uniform', type: 'HostParams', role: 'material', visibility: ['fragment'] }],
    outputs: [{ name: 'color', type: 'vec4f', format: 'rgba8unorm' }],
    fills: [{ slot: 'fragmentStage', fn: 'stripedSurface' }],
  };
}

/** What the example draws with (all lit values are linear, written to rgba8unorm). */
export interface HostScene {
  tint: [number, number, number];
  edge: number;
  lightDirection: [number, number, number];
  lightColor: [number, number, number];
  ambientColor: [number, number, number];
}

/** Composes the host's shader: weft's standard vertex stage (with normals) + Lambert + the striped surface, one interleaved buffer. */
export function composeHostShader(): ComposedShader {
  return composeShader({
    fragments: [...makeStandardVertexFragments(), makeLambertLightingFragment(), createStripedSurfaceFragment()],
    conditions: { normals: true },
    vertexLayout: {
      kind: 'buffers',
      buffers: [
        {
          arrayStride: 24,
          attributes: [
            { semantic: 'position', offset: 0, format: 'float32x3' },
            { semantic: 'normal', offset: 12, format: 'float32x3' },
          ],
        },
      ],
    },
  });
}

/** Where the composer put a named binding. */
function slotOf(composed: ComposedShader, name: string): { group: number; binding: number } {
  for (const group of composed.bindGroups)
    for (const b of group.bindings) if (b.name === name) return { group: b.group, binding: b.binding };
  throw new Error(`binding ${name} is not in the composed shader`);
}

/** A uniform buffer for binding `name`, sized by its layout and filled by field name (no offset written by hand). */
function uniformBuffer(device: GPUDevice, composed: ComposedShader, name: string, values: LayoutValue): GPUBuffer {
  const layout = composed.bufferLayouts[name];
  const data = new ArrayBuffer(layout.minBindingSize);
  setUniforms(layout, data, values);
  const buffer = device.createBuffer({
    label: `host:${name}`,
    size: data.byteLength,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(buffer, 0, data);
  return buffer;
}

/**
 * Renders a quad covering the viewport (identity view-projection, world = clip, normal +z) with the composed shader
 * and returns the rgba8 pixels, rows top to bottom. Every GPU object it makes is destroyed before it returns.
 */
export async function renderHostExample(
  device: GPUDevice,
  scene: HostScene,
  size = 64,
): Promise<{ pixels: Uint8Array; composed: ComposedShader }> {
  const composed = composeHostShader();
  const module = device.createShaderModule({ label: 'host:shader', code: composed.code });
  const info = await module.getCompilationInfo();
  const errors = mapCompilationInfo(composed.code, composed.sourceMap, info).filter((m) => m.type === 'error');
  if (errors.length) throw new Error(errors.map(formatShaderMessage).join('\n'));

  const bindGroupLayouts = composed.bindGroups.map((g) =>
    device.createBindGroupLayout({ label: `host:group${g.group}`, entries: g.entries }),
  );
  const pipeline = device.createRenderPipeline({
    label: 'host:pipeline',
    layout: device.createPipelineLayout({ label: 'host:layout', bindGroupLayouts }),
    vertex: {
      module,
      entryPoint: composed.vertexEntryPoint,
      buffers: composed.vertexBuffers as GPUVertexBufferLayout[],
    },
    fragment: {
      module,
      entryPoint: composed.fragmentEntryPoint!,
      targets: composed.targets.map((t) => ({ format: t.format! })),
    },
    primitive: { topology: 'triangle-list' },
  });

  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const buffers = {
    scene: uniformBuffer(device, composed, 'scene', {
      viewProjection: identity,
      cameraPosition: [0, 0, 1, 1],
      lightDirection: [...scene.lightDirection, 0],
      lightColor: [...scene.lightColor, 0],
      ambientColor: [...scene.ambientColor, 0],
    }),
    draw: uniformBuffer(device, composed, 'draw', {
      world: identity,
      normalMatrix: identity,
      baseColor: [1, 1, 1, 1],
      flags: [0, 0, 0, 0],
    }),
    hostParams: uniformBuffer(device, composed, 'hostParams', {
      tint: [...scene.tint, 1],
      edge: [scene.edge, 0, 0, 0],
    }),
  };
  const groups = composed.bindGroups.map((g) =>
    device.createBindGroup({
      label: `host:bind-group${g.group}`,
      layout: bindGroupLayouts[g.group],
      entries: g.bindings.map((b) => ({
        binding: b.binding,
        resource: {
          buffer: buffers[b.name as keyof typeof buffers],
          size: composed.bufferLayouts[b.name].minBindingSize,
        },
      })),
    }),
  );
  // Two triangles covering clip space at depth 0.5, each vertex: position xyz, normal xyz.
  const quad = new Float32Array([
    -1, -1, 0.5, 0, 0, 1, 1, -1, 0.5, 0, 0, 1, 1, 1, 0.5, 0, 0, 1, -1, -1, 0.5, 0, 0, 1, 1, 1, 0.5, 0, 0, 1, -1, 1, 0.5,
    0, 0, 1,
  ]);
  const vertices = device.createBuffer({
    label: 'host:vertices',
    size: quad.byteLength,
    usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(vertices, 0, quad);
  const target = device.createTexture({
    label: 'host:target',
    size: [size, size],
    format: 'rgba8unorm',
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });
  const bytesPerRow = Math.ceil((size * 4) / 256) * 256;
  const readback = device.createBuffer({
    label: 'host:readback',
    size: bytesPerRow * size,
    usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
  });

  const encoder = device.createCommandEncoder({ label: 'host:encoder' });
  const pass = encoder.beginRenderPass({
    label: 'host:pass',
    colorAttachments: [
      { view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: { r: 0, g: 0, b: 0, a: 1 } },
    ],
  });
  pass.setPipeline(pipeline);
  groups.forEach((group, index) =>
    pass.setBindGroup(index, group, index === slotOf(composed, 'draw').group ? [0] : []),
  );
  // The composer dropped no buffer here: slot 0 is fed by the host's buffer vertexBufferSources[0] (= 0).
  pass.setVertexBuffer(0, vertices);
  pass.draw(6);
  pass.end();
  encoder.copyTextureToBuffer({ texture: target }, { buffer: readback, bytesPerRow }, [size, size]);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const mapped = new Uint8Array(readback.getMappedRange());
  const pixels = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) pixels.set(mapped.subarray(y * bytesPerRow, y * bytesPerRow + size * 4), y * size * 4);
  readback.unmap();
  for (const buffer of [...Object.values(buffers), vertices, readback]) buffer.destroy();
  target.destroy();
  return { pixels, composed };
}
