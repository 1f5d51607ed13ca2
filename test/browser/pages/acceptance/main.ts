// Issue 15's acceptance in Chromium (SwiftShader, no primitive-index: detail comes from the vertex-index path). The
// page builds the Dawn suite's seeded scene variants, computes the float64 three.js + three-mesh-bvh reference here
// (camera parameters only, never weft's ray or matrices), picks every pixel and returns the tallies to the Node test.
import { createEngineFromDeviceAsync } from '../../../../engine/host-device.js';
import { createEngineAsync, disposeScene, type Engine } from '../../../../engine/index.js';
import {
  createGpuPicker,
  disposeGpuPicker,
  enableDetailedPicking,
  getPickedUV,
  pickAsync,
  pickManyAsync,
  type PickingInfo,
} from '../../../../picking/index.js';
import { ACCEPTANCE_VARIANTS, buildAcceptanceScene } from '../../../support/acceptance-scenes.js';
import { makeTally, type PathSample, scoreSample } from '../../../support/acceptance-tally.js';
import { type AcceptanceDeviceKind, type AcceptancePage, browserPaths, type VariantRun } from './shared.js';

function fromInfo(info: PickingInfo): PathSample {
  return {
    hit: info.hit,
    meshId: info.pickedMesh?.uniqueId ?? 0,
    thinInstanceIndex: info.thinInstanceIndex,
    faceId: info.faceId,
    point: info.pickedPoint,
    bu: info.bu,
    bv: info.bv,
    normal: info.pickedNormalWorld,
    faceNormal: info.pickedFaceNormalWorld,
    uv: getPickedUV(info),
  };
}

async function runVariant(engine: Engine, index: number, seeds: number[]): Promise<VariantRun> {
  const variant = ACCEPTANCE_VARIANTS[index];
  const tallies = browserPaths(engine.features.has('primitive-index') ? 'primitive-index' : methodOf(engine)).map(
    (path) => makeTally(path, variant.name),
  );
  const run: VariantRun = { variant: variant.name, tallies, methods: [], enabled: [], referenceMs: 0, pickMs: 0 };
  for (const seed of seeds) {
    let t = performance.now();
    const scene = await buildAcceptanceScene(engine, variant, seed);
    run.referenceMs += performance.now() - t;
    t = performance.now();
    const picker = createGpuPicker(scene.scene);
    try {
      run.enabled.push(enableDetailedPicking(picker));
      run.methods.push(picker.detailMethod);
      const points = scene.pixels.map(({ x, y }) => ({ x, y }));
      const single: PathSample[] = [];
      for (let i = 0; i < points.length; i += 64)
        for (const info of await Promise.all(points.slice(i, i + 64).map((p) => pickAsync(picker, p.x, p.y))))
          single.push(fromInfo(info));
      const many: PathSample[] = [];
      for (let i = 0; i < points.length; i += 400)
        for (const info of await pickManyAsync(picker, points.slice(i, i + 400))) many.push(fromInfo(info));
      scene.pixels.forEach((pixel, k) => {
        scoreSample(tallies[0], pixel, single[k]);
        scoreSample(tallies[1], pixel, many[k]);
      });
    } finally {
      disposeGpuPicker(picker);
      disposeScene(scene.scene);
    }
    run.pickMs += performance.now() - t;
  }
  return run;
}

/** The detail method 'auto' takes on this engine's device (named in the tallies). */
function methodOf(engine: Engine): string {
  const vertexStorage = (engine.device.limits as GPUSupportedLimits & { maxStorageBuffersInVertexStage?: number })
    .maxStorageBuffersInVertexStage;
  return vertexStorage === 0 ? 'expanded-vertices' : 'vertex-index';
}

/** A compatibility-mode device: the adapter asked for that feature level, the device without `core-features-and-limits`. */
async function compatibilityDeviceAsync(): Promise<GPUDevice> {
  const adapter = await navigator.gpu.requestAdapter({ featureLevel: 'compatibility' } as GPURequestAdapterOptions);
  if (!adapter) throw new Error('this browser gave no adapter for featureLevel: compatibility');
  return adapter.requestDevice();
}

async function start(): Promise<AcceptancePage> {
  const canvas = document.querySelector<HTMLCanvasElement>('#gpu')!;
  const device: AcceptanceDeviceKind =
    new URLSearchParams(location.search).get('device') === 'compatibility' ? 'compatibility' : 'core';
  const engine =
    device === 'compatibility'
      ? await createEngineFromDeviceAsync(await compatibilityDeviceAsync(), canvas, { devicePixelRatio: 1 })
      : await createEngineAsync(navigator.gpu, canvas, { devicePixelRatio: 1 });
  engine.device.addEventListener('uncapturederror', (event) =>
    (window.__weftErrors ??= []).push((event as GPUUncapturedErrorEvent).error.message),
  );
  const vertexStorage = (engine.device.limits as GPUSupportedLimits & { maxStorageBuffersInVertexStage?: number })
    .maxStorageBuffersInVertexStage;
  return {
    device,
    vertexStorageBuffers: vertexStorage ?? null,
    deviceFeatures: [...engine.device.features].sort(),
    size: [engine.width, engine.height],
    variants: ACCEPTANCE_VARIANTS.map((v) => v.name),
    runVariant: (index, seeds) => runVariant(engine, index, seeds),
  };
}

start().then(
  (page) => {
    (window as unknown as { __weftAcceptance: AcceptancePage }).__weftAcceptance = page;
    window.__weftResult = {
      device: page.device,
      vertexStorageBuffers: page.vertexStorageBuffers,
      deviceFeatures: page.deviceFeatures,
      size: page.size,
      variants: page.variants,
    };
  },
  (error: unknown) =>
    (window.__weftResult = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
);
