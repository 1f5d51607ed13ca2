// Triangle detail on a WebGPU compatibility-mode device against a core device, same scenes, one run (issue #36 item 1:
// "detail on a compatibility device costs <= 2x a detailed pick on a core device of the same scene").
// Run: npm run bench:compat-detail, or NODE_OPTIONS=--expose-gc npx tsx bench/compat-detail.ts [rounds].
// The core device picks with 'auto' (primitive-index where Dawn offers it), the compatibility device with 'auto'
// (expanded-vertices: no storage in its vertex stage, no primitive-index). Rounds interleave the two devices. "first"
// is a new picker's first pick once the device's pipelines exist (the expanded copies are made in it); "warm" a pick of
// a picker that has picked before. A third column, the core device forced onto 'expanded-vertices', tells the method's
// cost from the device's. Absolute times on a software rasteriser mean little; the ratios are the result.
import { mat4 } from 'wgpu-matrix';
import { createEngineFromDeviceAsync } from '../engine/host-device.js';
import {
  createBoxMesh,
  createEngineAsync,
  createScene,
  createSphereMesh,
  disposeEngine,
  type Engine,
  makePerspectiveCamera,
  type Scene,
  setThinInstances,
} from '../engine/index.js';
import {
  createGpuPicker,
  disposeGpuPicker,
  enableDetailedPicking,
  type GpuPicker,
  pickAsync,
  pickManyAsync,
  type PickingInfo,
} from '../picking/index.js';
import { createBenchGpu, reportBenchAdapter } from './bench-gpu.js';
import { collectGarbage, median, printTable, time, verdict } from './bench-timing.js';

const rounds = Number(process.argv[2] ?? 15);
const size = 512;
const centre = { x: size / 2, y: size / 2 };
const points = Array.from({ length: 64 }, (_, i) => ({ x: 64 + (i % 8) * 48, y: 64 + Math.floor(i / 8) * 48 }));
const target = 2;

function gridCamera(scene: Scene): void {
  scene.camera = makePerspectiveCamera({ position: [0, 14, 0.01], target: [0, 0, 0], fovY: 1.2 });
}

/** The scenes, each built once per engine by the same code. */
const scenes: [string, (engine: Engine) => Scene][] = [
  [
    '1 sphere (1.9k tris)',
    (engine) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 3], target: [0, 0, 0] });
      createSphereMesh(scene, 'ball', { radius: 1, segments: 48, rings: 20 });
      return scene;
    },
  ],
  [
    '100 boxes',
    (engine) => {
      const scene = createScene(engine);
      gridCamera(scene);
      for (let i = 0; i < 100; i++)
        createBoxMesh(
          scene,
          `box${i}`,
          { width: 0.4, height: 0.4, depth: 0.4 },
          {
            worldMatrix: mat4.translation([((i % 10) - 5) * 0.9, 0, (Math.floor(i / 10) - 5) * 0.9]),
          },
        );
      return scene;
    },
  ],
  [
    '1 sphere, 65k tris',
    (engine) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 3], target: [0, 0, 0] });
      createSphereMesh(scene, 'dense', { radius: 1, segments: 256, rings: 128 });
      return scene;
    },
  ],
  [
    '1 box, 1000 thin instances',
    (engine) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 40, 0.01], target: [0, 0, 0], fovY: 1.2 });
      const matrices = new Float32Array(1000 * 16);
      for (let i = 0; i < 1000; i++)
        matrices.set(mat4.translation([((i % 32) - 16) * 0.9, 0, (Math.floor(i / 32) - 16) * 0.9]), i * 16);
      setThinInstances(createBoxMesh(scene, 'boxes', { width: 0.4, height: 0.4, depth: 0.4 }), matrices);
      return scene;
    },
  ],
];

async function compatibilityEngineAsync(gpu: GPU): Promise<Engine> {
  const adapter = await gpu.requestAdapter({ featureLevel: 'compatibility' } as GPURequestAdapterOptions);
  if (!adapter) throw new Error('Dawn gave no compatibility adapter');
  return createEngineFromDeviceAsync(await adapter.requestDevice(), { width: size, height: size });
}

/** Who picks: the core device with 'auto', the core device forced onto expanded-vertices, the compat device with 'auto'. */
const configs = [
  { engine: 0, method: 'auto' },
  { engine: 0, method: 'expanded-vertices' },
  { engine: 1, method: 'auto' },
] as const;

function detailedPicker(scene: Scene, method: (typeof configs)[number]['method']): GpuPicker {
  const picker = createGpuPicker(scene);
  if (!enableDetailedPicking(picker, { method })) throw new Error('no detail method on this device');
  return picker;
}

async function main(): Promise<void> {
  const gpu = createBenchGpu();
  const core = await createEngineAsync(gpu, { width: size, height: size });
  const compat = await compatibilityEngineAsync(gpu);
  reportBenchAdapter(core);
  const engines = [core, compat];
  const rows: string[][] = [];
  for (const [name, make] of scenes) {
    const built = engines.map((engine) => make(engine));
    const scenesOf = configs.map((c) => built[c.engine]);
    const warm = configs.map((c, i) => detailedPicker(scenesOf[i], c.method));
    // Compile every pipeline (and check the hit) before timing.
    const hits: PickingInfo[] = [];
    for (const [i, picker] of warm.entries()) {
      hits.push(await pickAsync(picker, centre.x, centre.y));
      await pickManyAsync(picker, points);
      const first = detailedPicker(picker.scene, configs[i].method);
      await pickAsync(first, centre.x, centre.y);
      disposeGpuPicker(first);
    }
    if (!hits[0].hit || hits.some((hit) => hit.faceId !== hits[0].faceId))
      throw new Error(`${name}: the pickers disagree (faces ${hits.map((hit) => hit.faceId).join(', ')})`);
    const first = configs.map(() => [] as number[]);
    const one = configs.map(() => [] as number[]);
    const many = configs.map(() => [] as number[]);
    for (let r = 0; r < rounds; r++)
      for (let c = 0; c < configs.length; c++) {
        collectGarbage();
        const fresh = detailedPicker(scenesOf[c], configs[c].method);
        first[c].push(await time(() => pickAsync(fresh, centre.x, centre.y)));
        disposeGpuPicker(fresh);
        one[c].push(await time(() => pickAsync(warm[c], centre.x, centre.y)));
        many[c].push(await time(() => pickManyAsync(warm[c], points)));
      }
    const copyBytes = [...(warm[2].gpu?.expanded.values() ?? [])].reduce((sum, e) => sum + e.bytes, 0);
    const cells = [first, one, many].flatMap((samples) => {
      const [core, coreExpanded, compatible] = samples.map(median);
      const ratio = compatible / core;
      return [
        core.toFixed(2),
        coreExpanded.toFixed(2),
        compatible.toFixed(2),
        `${ratio.toFixed(2)}×`,
        verdict(ratio, target, 'atMost'),
      ];
    });
    rows.push([
      name,
      `${warm[0].detailMethod} / ${warm[2].detailMethod}`,
      `${(copyBytes / 1024).toFixed(0)} KiB`,
      ...cells,
    ]);
    for (const picker of warm) disposeGpuPicker(picker);
  }
  console.log(
    `\ndetailed pick: core device vs compatibility device (medians of ${rounds} interleaved rounds, ms; "core exp" = core device forced onto expanded-vertices; ratio = compat / core, target <= ${target}×)`,
  );
  printTable(
    [
      'scene',
      'method core / compat',
      'copies',
      'first core',
      'core exp',
      'compat',
      'ratio',
      '',
      'warm core',
      'core exp',
      'compat',
      'ratio',
      '',
      'many64 core',
      'core exp',
      'compat',
      'ratio',
      '',
    ],
    rows,
  );
  disposeEngine(compat);
  compat.device.destroy();
  disposeEngine(core);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
