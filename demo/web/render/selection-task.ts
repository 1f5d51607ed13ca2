// Selection overlay task: the selected (and hovered) meshes again, from a non-indexed copy of their triangles,
// with the selection fragment on weft's standard vertex stage; depth-tested against the scene, blended on top.
import { composeShader, makeComposeCache, thinInstanceVertexBuffer } from '../../../index.js';
import {
  type PerspectiveCamera,
  ensureMeshGpu,
  type Mesh,
  type RenderTarget,
  type Scene,
  type Task,
} from '../../../engine/index.js';
import { makeStandardVertexFragments } from '../../../fragments/index.js';
import type { SelectionItem } from '../editor/selection-items.js';
import { createSelectionFragment, selectionStyleBytes } from './editor-fragments.js';
import { overlayBlend } from './grid-task.js';
import {
  createNamedBindGroup,
  createOverlayUniforms,
  destroyOverlayUniforms,
  drawStride,
  makeTargetViews,
  type OverlayUniforms,
  pipelineFor,
  type PipelineSet,
  refreshTargetViews,
  releasePipelines,
  setDrawUniforms,
  standardResources,
  uploadDraws,
  writeSceneUniforms,
} from './overlay-gpu.js';

/** What the overlay shows; `version` changes whenever the selection or the hover does. */
export interface HighlightSource {
  version: number;
  selected: Iterable<SelectionItem>;
  hover: SelectionItem | null;
}

/** Fill colour + opacity, wire colour + opacity, line width (px) and the density fade's start and end extents (px). */
export interface SelectionStyle {
  fill: [number, number, number, number];
  wire: [number, number, number, number];
  lineWidth: number;
  fadeFrom: number;
  fadeTo: number;
}

/** The styles of selected and hovered objects. */
export const selectionStyles: Readonly<Record<'selected' | 'hover', SelectionStyle>> = {
  selected: { fill: [1, 0.55, 0.12, 0.3], wire: [1, 0.72, 0.25, 1], lineWidth: 1.5, fadeFrom: 4, fadeTo: 14 },
  hover: { fill: [0.6, 0.85, 1, 0.22], wire: [0.7, 0.9, 1, 0.5], lineWidth: 1, fadeFrom: 4, fadeTo: 14 },
};

interface Draw {
  item: SelectionItem;
  style: 0 | 1;
  vertices: GPUBuffer;
  vertexCount: number;
  pipeline: GPURenderPipeline;
  thin: boolean;
}

/** The mesh's triangles without indices: vertex i is corner i % 3 (positions only). */
function deindexedPositions(mesh: Mesh): Float32Array<ArrayBuffer> {
  const { indices } = mesh.geometry;
  const source = mesh.positions;
  if (!indices) return new Float32Array(source);
  const out = new Float32Array(indices.length * 3);
  for (let i = 0; i < indices.length; i++) out.set(source.subarray(indices[i] * 3, indices[i] * 3 + 3), i * 3);
  return out;
}

/** Creates the selection overlay task drawing into `target` (colour and depth loaded, depth not written). */
export function createSelectionTask(
  scene: Scene,
  camera: PerspectiveCamera,
  target: RenderTarget,
  source: () => HighlightSource,
): Task {
  const engine = scene.engine;
  const pipelines: PipelineSet = { device: null, cache: makeComposeCache(), leases: new Map() };
  const fragments = [...makeStandardVertexFragments(), createSelectionFragment()];
  const copies = new Map<Mesh, { buffer: GPUBuffer; vertexCount: number }>();
  const views = makeTargetViews();
  let device: GPUDevice | null = null;
  let recordedVersion = -1;
  let uniforms: OverlayUniforms | null = null;
  let styleBuffers: GPUBuffer[] = [];
  let groups: { scene: GPUBindGroup; draw: GPUBindGroup; styles: GPUBindGroup[] } | null = null;
  let draws: Draw[] = [];
  const white = [1, 1, 1, 1];

  function release(): void {
    for (const copy of copies.values()) copy.buffer.destroy();
    copies.clear();
    for (const buffer of styleBuffers) buffer.destroy();
    styleBuffers = [];
    destroyOverlayUniforms(uniforms);
    uniforms = null;
    groups = null;
    releasePipelines(pipelines);
    draws = [];
  }

  function copyOf(mesh: Mesh): { buffer: GPUBuffer; vertexCount: number } {
    let copy = copies.get(mesh);
    if (!copy) {
      const data = deindexedPositions(mesh);
      const buffer = device!.createBuffer({
        label: `editor:selection:${mesh.name}:triangles`,
        size: data.byteLength,
        usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST,
      });
      device!.queue.writeBuffer(buffer, 0, data);
      copy = { buffer, vertexCount: data.length / 3 };
      copies.set(mesh, copy);
    }
    return copy;
  }

  function pipeline(thin: boolean) {
    const buffers = [
      { arrayStride: 12, attributes: [{ semantic: 'position', offset: 0, format: 'float32x3' as const }] },
    ];
    if (thin) buffers.push(thinInstanceVertexBuffer() as (typeof buffers)[number]);
    return pipelineFor(
      pipelines,
      device!,
      thin ? 'thin' : 'plain',
      () =>
        composeShader(
          { fragments, conditions: { thinInstances: thin }, vertexLayout: { kind: 'buffers', buffers } },
          pipelines.cache,
        ),
      {
        label: `editor:selection${thin ? ':thin' : ''}`,
        targets: [{ format: target.colorFormats[0], blend: overlayBlend }],
        primitive: { topology: 'triangle-list', cullMode: 'back', frontFace: 'ccw' },
        // The same vertex stage as the scene gives the same depth; the bias absorbs rounding between pipelines.
        depthStencil: {
          format: target.depthFormat!,
          depthWriteEnabled: false,
          depthCompare: 'greater-equal',
          depthBias: 2,
          depthBiasSlopeScale: 1,
        },
      },
    );
  }

  function ensureShared(count: number): void {
    if (!styleBuffers.length) {
      styleBuffers = (['selected', 'hover'] as const).map((name) => {
        const s = selectionStyles[name];
        const buffer = device!.createBuffer({
          label: `editor:selection:style:${name}`,
          size: selectionStyleBytes,
          usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
        });
        device!.queue.writeBuffer(
          buffer,
          0,
          new Float32Array([...s.fill, ...s.wire, s.lineWidth, s.fadeFrom, s.fadeTo, 0]),
        );
        return buffer;
      });
    }
    if (!uniforms || uniforms.capacity < count) {
      destroyOverlayUniforms(uniforms);
      uniforms = createOverlayUniforms(device!, 'editor:selection', Math.max(8, count * 2));
      groups = null;
    }
    if (!groups) {
      const { composed, lease } = pipeline(false);
      const resources = standardResources(uniforms);
      groups = {
        scene: createNamedBindGroup(device!, composed, lease, 0, resources, 'editor:selection:scene'),
        draw: createNamedBindGroup(device!, composed, lease, 1, resources, 'editor:selection:draw'),
        styles: styleBuffers.map((buffer, i) =>
          createNamedBindGroup(
            device!,
            composed,
            lease,
            2,
            { selectionStyle: { buffer } },
            `editor:selection:style${i}`,
          ),
        ),
      };
    }
  }

  return {
    name: 'editor-selection',
    needsRecord: () => device !== engine.device || source().version !== recordedVersion,
    record() {
      if (device !== engine.device) {
        if (device) release();
        device = engine.device;
      }
      const { selected, hover, version } = source();
      const list: { item: SelectionItem; style: 0 | 1 }[] = [];
      for (const item of selected) list.push({ item, style: 0 });
      if (hover && !list.some((d) => d.item.mesh === hover.mesh && d.item.instance === hover.instance))
        list.push({ item: hover, style: 1 });
      ensureShared(list.length);
      for (const [mesh, copy] of copies) {
        if (!mesh.disposed) continue;
        copy.buffer.destroy();
        copies.delete(mesh);
      }
      draws = list
        .filter(({ item }) => !item.mesh.disposed)
        .map(({ item, style }) => {
          const copy = copyOf(item.mesh);
          const thin = item.instance >= 0 && item.mesh.thinInstances !== null;
          return {
            item,
            style,
            vertices: copy.buffer,
            vertexCount: copy.vertexCount,
            pipeline: pipeline(thin).lease.pipeline,
            thin,
          };
        });
      recordedVersion = version;
    },
    execute(encoder) {
      if (!draws.length) return;
      writeSceneUniforms(uniforms!, scene, camera, target.width / target.height);
      for (let slot = 0; slot < draws.length; slot++)
        setDrawUniforms(uniforms!, slot, draws[slot].item.mesh.worldMatrix, white);
      uploadDraws(uniforms!, draws.length);
      const { color, depth } = refreshTargetViews(target, views);
      const pass = encoder.beginRenderPass({
        label: 'editor:selection:pass',
        colorAttachments: [{ view: color, loadOp: 'load', storeOp: 'store' }],
        depthStencilAttachment: { view: depth, depthLoadOp: 'load', depthStoreOp: 'store' },
      });
      pass.setBindGroup(0, groups!.scene);
      for (let slot = 0; slot < draws.length; slot++) {
        const draw = draws[slot];
        const mesh = draw.item.mesh;
        if (!mesh.visible || mesh.disposed) continue;
        pass.setPipeline(draw.pipeline);
        pass.setBindGroup(1, groups!.draw, [slot * drawStride]);
        pass.setBindGroup(2, groups!.styles[draw.style]);
        pass.setVertexBuffer(0, draw.vertices);
        // A selected thin instance: its own matrix, as the first instance of a one-instance draw.
        if (draw.thin) pass.setVertexBuffer(1, ensureMeshGpu(mesh, device!).instanceBuffer!);
        pass.draw(draw.vertexCount, 1, 0, draw.thin ? draw.item.instance : 0);
      }
      pass.end();
    },
    dispose() {
      if (device === engine.device) release();
      device = null;
    },
  };
}
