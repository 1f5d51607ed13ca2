// Draws the host material with plain WebGPU (Dawn in Node, Chromium in the pages): the composed module as weft emits
// it, or a library wrapped by a minimal host entry point (what a host engine writes). Every GPU object is destroyed.
import { type ComposedShader, setUniforms } from '../../composer/index.js';
import { makeTorusData } from '../../engine/primitives/torus.js';
import { type HostView, hostUniformValues } from './host-view.js';

/** Indexed triangles with per-vertex normals. */
export interface HostMesh {
  positions: Float32Array<ArrayBuffer>;
  normals: Float32Array<ArrayBuffer>;
  indices: Uint16Array<ArrayBuffer> | Uint32Array<ArrayBuffer>;
}

/** The torus every host test draws (weft's primitive data: positions, smooth normals, uint16 indices). */
export function hostTorusMesh(): HostMesh {
  const data = makeTorusData({ radius: 0.8, tube: 0.35, radialSegments: 24, tubularSegments: 48 });
  return {
    positions: data.positions as Float32Array<ArrayBuffer>,
    normals: data.normals as Float32Array<ArrayBuffer>,
    indices: data.indices as Uint16Array<ArrayBuffer>,
  };
}

/** The linked (unqualified) name of a binding's type: wesl keeps fragment names when nothing collides. */
export function linkedTypeName(wgslType: string): string {
  return wgslType.split('::').pop()!;
}

/**
 * A minimal host around a library: its own `@group/@binding` uniforms (named `host_<binding>`, placed where the
 * compose's `bindGroups` say), entry points that fill weft's plain I/O structs and call `weftVertex`/`weftFragment`.
 */
export function wrapLibrary(composed: ComposedShader): string {
  if (!composed.stageResources) throw new Error('wrapLibrary takes a library (output: "library")');
  const all = composed.bindGroups.flatMap((g) => g.bindings);
  const declarations = all.map(
    (b) => `@group(${b.group}) @binding(${b.binding}) var<uniform> host_${b.name}: ${linkedTypeName(b.wgslType)};`,
  );
  const args = (names: readonly string[]) => names.map((n) => `, host_${n}`).join('');
  const inputs = composed.vertexInputs.map((v) => `@location(${v.location}) ${v.semantic}: ${v.wgslType}`);
  const varyings = composed.varyings.map((v) => `  @location(${v.location}) ${v.name}: ${v.wgslType},`);
  const lines = [
    ...declarations,
    'struct HostVarying {',
    '  @builtin(position) position: vec4f,',
    ...varyings,
    '}',
    `@vertex fn hostVertex(@builtin(vertex_index) vertexIndex: u32, @builtin(instance_index) instanceIndex: u32${inputs.map((i) => `, ${i}`).join('')}) -> HostVarying {`,
    '  var input: VertexInput;',
    '  input.vertexIndex = vertexIndex;',
    '  input.instanceIndex = instanceIndex;',
    ...composed.vertexInputs.map((v) => `  input.${v.semantic} = ${v.semantic};`),
    `  let output = ${composed.vertexEntryPoint}(input${args(composed.stageResources.vertex)});`,
    '  var hostOut: HostVarying;',
    '  hostOut.position = output.position;',
    ...composed.varyings.map((v) => `  hostOut.${v.name} = output.${v.name};`),
    '  return hostOut;',
    '}',
  ];
  if (composed.fragmentEntryPoint)
    lines.push(
      '@fragment fn hostFragment(hostIn: HostVarying) -> @location(0) vec4f {',
      '  var input: FragmentInput;',
      '  input.position = hostIn.position;',
      ...composed.varyings.map((v) => `  input.${v.name} = hostIn.${v.name};`),
      `  return ${composed.fragmentEntryPoint}(input${args(composed.stageResources.fragment)}).color;`,
      '}',
    );
  return `${lines.join('\n')}\n${composed.code}`;
}

/** Compiles `code` and throws with the device's messages when it does not compile. */
export async function compileChecked(device: GPUDevice, label: string, code: string): Promise<GPUShaderModule> {
  const module = device.createShaderModule({ label, code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length)
    throw new Error(`${label}: ${errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join('; ')}`);
  return module;
}

/**
 * Renders the mesh with the composed shader into a `size`² rgba8unorm target (reverse-Z depth32float, cleared to 0,
 * compare greater, back faces culled, counter-clockwise front) and returns its pixels, rows top to bottom.
 */
export async function renderHostMaterialAsync(
  device: GPUDevice,
  composed: ComposedShader,
  mesh: HostMesh,
  view: HostView,
): Promise<Uint8Array> {
  const size = view.size;
  const library = composed.output === 'library';
  const module = await compileChecked(
    device,
    `host-test:${library ? 'library' : 'module'}`,
    library ? wrapLibrary(composed) : composed.code,
  );
  const destroy: { destroy(): void }[] = [];
  const buffer = (label: string, data: ArrayBufferView<ArrayBuffer>, usage: number) => {
    const b = device.createBuffer({
      label,
      size: Math.ceil(data.byteLength / 4) * 4,
      usage: usage | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(b, 0, data);
    destroy.push(b);
    return b;
  };
  // Every uniform written through its layout (a library's layouts are its stage resources'), sized by it.
  const values = hostUniformValues(view);
  const uniforms: Record<string, GPUBuffer> = {};
  for (const { name } of composed.bindGroups.flatMap((g) => g.bindings)) {
    const layout = composed.bufferLayouts[name];
    const data = new ArrayBuffer(layout.minBindingSize);
    setUniforms(layout, data, values[name]);
    uniforms[name] = buffer(`host-test:${name}`, new Uint8Array(data), GPUBufferUsage.UNIFORM);
  }
  const layouts = composed.bindGroups.map((g) =>
    device.createBindGroupLayout({ label: `host-test:group${g.group}`, entries: g.entries }),
  );
  const pipeline = device.createRenderPipeline({
    label: 'host-test:pipeline',
    layout: device.createPipelineLayout({ label: 'host-test:layout', bindGroupLayouts: layouts }),
    vertex: {
      module,
      entryPoint: library ? 'hostVertex' : composed.vertexEntryPoint,
      buffers: composed.vertexBuffers as GPUVertexBufferLayout[],
    },
    fragment: {
      module,
      entryPoint: library ? 'hostFragment' : composed.fragmentEntryPoint!,
      targets: [{ format: 'rgba8unorm' }],
    },
    primitive: { topology: 'triangle-list', cullMode: 'back', frontFace: 'ccw' },
    depthStencil: { format: 'depth32float', depthWriteEnabled: true, depthCompare: 'greater' },
  });
  const groups = composed.bindGroups.map((g) =>
    device.createBindGroup({
      label: `host-test:bind-group${g.group}`,
      layout: layouts[g.group],
      entries: g.bindings.map((b) => ({
        binding: b.binding,
        resource: { buffer: uniforms[b.name], size: uniforms[b.name].size },
      })),
    }),
  );
  const sources = [mesh.positions, mesh.normals];
  const vertexBuffers = composed.vertexBufferSources.map((s, i) =>
    buffer(`host-test:vertices${i}`, sources[s], GPUBufferUsage.VERTEX),
  );
  const indices = buffer('host-test:indices', mesh.indices, GPUBufferUsage.INDEX);
  const usage = GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC;
  const color = device.createTexture({ label: 'host-test:color', size: [size, size], format: 'rgba8unorm', usage });
  const depth = device.createTexture({ label: 'host-test:depth', size: [size, size], format: 'depth32float', usage });
  const bytesPerRow = Math.ceil((size * 4) / 256) * 256;
  const readback = device.createBuffer({
    label: 'host-test:readback',
    size: bytesPerRow * size,
    usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
  });
  destroy.push(color, depth, readback);
  const [r, g, b, a] = view.clearColor;
  const encoder = device.createCommandEncoder({ label: 'host-test:encoder' });
  const pass = encoder.beginRenderPass({
    label: 'host-test:pass',
    colorAttachments: [{ view: color.createView(), loadOp: 'clear', storeOp: 'store', clearValue: { r, g, b, a } }],
    depthStencilAttachment: {
      view: depth.createView(),
      depthClearValue: 0,
      depthLoadOp: 'clear',
      depthStoreOp: 'store',
    },
  });
  pass.setPipeline(pipeline);
  groups.forEach((group, i) => {
    const dynamic = composed.bindGroups[i].entries.filter((e) => e.buffer?.hasDynamicOffset).length;
    pass.setBindGroup(i, group, new Array(dynamic).fill(0));
  });
  vertexBuffers.forEach((vb, i) => pass.setVertexBuffer(i, vb));
  pass.setIndexBuffer(indices, mesh.indices instanceof Uint16Array ? 'uint16' : 'uint32');
  pass.drawIndexed(mesh.indices.length);
  pass.end();
  encoder.copyTextureToBuffer({ texture: color }, { buffer: readback, bytesPerRow }, [size, size]);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const mapped = new Uint8Array(readback.getMappedRange());
  const pixels = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) pixels.set(mapped.subarray(y * bytesPerRow, y * bytesPerRow + size * 4), y * size * 4);
  readback.unmap();
  for (const d of destroy) d.destroy();
  return pixels;
}

/** Per-pixel comparison: how many pixels differ by more than `tolerance` (0..255) in any channel, edges excluded. */
export function comparePixels(
  a: Uint8Array,
  b: Uint8Array,
  size: number,
  tolerance: number,
): {
  pixels: number;
  compared: number;
  within: number;
  maxDiff: number;
  edgeExcluded: number;
  /** Over every pixel, edges included. */
  allWithin: number;
  allMaxDiff: number;
} {
  // An edge pixel: its own or a 4-neighbour's coverage (differs from the clear colour in either image) changes.
  const covered = (img: Uint8Array, i: number) =>
    img[i * 4] !== a[0] || img[i * 4 + 1] !== a[1] || img[i * 4 + 2] !== a[2];
  const isEdge = (x: number, y: number) => {
    const c = covered(a, y * size + x) || covered(b, y * size + x);
    for (const [dx, dy] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ]) {
      const nx = x + dx;
      const ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
      const n = ny * size + nx;
      if ((covered(a, n) || covered(b, n)) !== c || covered(a, n) !== covered(b, n)) return true;
    }
    return covered(a, y * size + x) !== covered(b, y * size + x);
  };
  let compared = 0;
  let within = 0;
  let maxDiff = 0;
  let edgeExcluded = 0;
  let allWithin = 0;
  let allMaxDiff = 0;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const d = Math.max(Math.abs(a[i] - b[i]), Math.abs(a[i + 1] - b[i + 1]), Math.abs(a[i + 2] - b[i + 2]));
      if (d <= tolerance) allWithin++;
      allMaxDiff = Math.max(allMaxDiff, d);
      if (isEdge(x, y)) {
        edgeExcluded++;
        continue;
      }
      compared++;
      if (d <= tolerance) within++;
      maxDiff = Math.max(maxDiff, d);
    }
  return { pixels: size * size, compared, within, maxDiff, edgeExcluded, allWithin, allMaxDiff };
}
