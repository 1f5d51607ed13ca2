// The headless demo (README's main job): renders the default scene on Dawn, writes PNGs, prints a report.
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PNG } from 'pngjs';
import { create, globals } from 'webgpu';
import {
  createEngineAsync,
  disposeEngine,
  getDefaultForwardTask,
  readEngineFrameAsync,
  renderFrame,
} from '../engine/index.js';
import { renderGeometryStripAsync } from '../geometry/index.js';
import {
  createGpuPicker,
  enableDetailedPicking,
  getPickedUV,
  pickManyAsync,
  type PickingInfo,
  pickSync,
} from '../picking/index.js';
import { annotatePicks, formatPickTable } from './pick-report.js';
import { buildDefaultScene } from './default-scene.js';
import { showPickSources } from './pick-sources-demo.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'out/demo' },
    width: { type: 'string', default: '960' },
    height: { type: 'string', default: '540' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log('usage: npm run demo -- [--out DIR] [--width N] [--height N]');
  process.exit(0);
}

const width = Number(values.width);
const height = Number(values.height);
if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 8192 || height > 8192) {
  console.error(`demo: --width ${values.width} --height ${values.height} must be integers in 1..8192`);
  process.exit(2);
}

/** Runs one labelled step, printing a heartbeat every second while it is still busy. */
async function step<T>(label: string, work: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  process.stdout.write(`• ${label} …\n`);
  const heartbeat = setInterval(
    () => process.stdout.write(`  … ${label}: ${((performance.now() - started) / 1000).toFixed(0)} s\n`),
    1000,
  );
  try {
    const result = await work();
    process.stdout.write(`  done in ${(performance.now() - started).toFixed(1)} ms\n`);
    return result;
  } finally {
    clearInterval(heartbeat);
  }
}

async function main(): Promise<void> {
  const outDir = resolve(values.out!);
  Object.assign(globalThis, globals);
  const gpu = create([]);
  const engine = await step('requesting a WebGPU adapter and device (Dawn)', () =>
    createEngineAsync(gpu, { width, height }),
  );
  const info = engine.adapter!.info;
  const { scene, stats } = await step('building the default scene (bunny, primitives, thin instances, glTF)', () =>
    buildDefaultScene(engine),
  );
  await step('first frame (uploads, pipelines, draw)', async () => {
    renderFrame(scene);
    await engine.device.queue.onSubmittedWorkDone();
  });
  const frames = 10;
  const steadyMs = await step(`${frames} steady frames`, async () => {
    const started = performance.now();
    for (let i = 0; i < frames; i++) renderFrame(scene);
    await engine.device.queue.onSubmittedWorkDone();
    return (performance.now() - started) / frames;
  });
  const pixels = await step('reading the frame back', () => readEngineFrameAsync(engine));
  const framePath = resolve(outDir, 'frame.png');
  await step(`writing ${framePath}`, async () => {
    await mkdir(outDir, { recursive: true });
    const png = new PNG({ width, height });
    png.data.set(pixels);
    await writeFile(framePath, PNG.sync.write(png));
  });

  const picker = createGpuPicker(scene);
  const detailed = enableDetailedPicking(picker);
  const grid = Array.from({ length: 6 * 4 }, (_, i) => ({
    x: Math.floor(((i % 6) + 0.5) * (width / 6)),
    y: Math.floor((Math.floor(i / 6) + 0.5) * (height / 4)),
  }));
  const picks: PickingInfo[] = await step(
    `picking a ${6}×${4} grid of pixels in one pass (${detailed ? 'detailed' : 'basic'})`,
    () => pickManyAsync(picker, grid),
  );
  const cpuPicks: PickingInfo[] = await step('the same pixels with the synchronous CPU picker (pickSync)', () =>
    grid.map((p) => pickSync(scene, p.x, p.y)),
  );
  const picksPath = resolve(outDir, 'frame-picks.png');
  await step(`writing ${picksPath}`, async () => {
    const png = new PNG({ width, height });
    png.data.set(annotatePicks(pixels, width, height, grid, picks));
    await writeFile(picksPath, PNG.sync.write(png));
  });

  const stripSize = { width: Math.max(1, Math.round(width / 3)), height: Math.max(1, Math.round(height / 3)) };
  const strip = await step('G-buffer strip: six attachments through copy-to-texture tasks', () =>
    renderGeometryStripAsync(scene, stripSize),
  );
  const stripPath = resolve(outDir, 'gbuffer-strip.png');
  await step(`writing ${stripPath} and one PNG per attachment`, async () => {
    // Shown opaque: several attachments keep data in alpha (e.g. glossiness 0), which viewers draw as see-through.
    for (const image of strip) for (let i = 3; i < image.rgba.length; i += 4) image.rgba[i] = 255;
    const png = new PNG({ width: stripSize.width * strip.length, height: stripSize.height });
    strip.forEach((image, i) => {
      for (let y = 0; y < stripSize.height; y++) {
        png.data.set(
          image.rgba.subarray(y * stripSize.width * 4, (y + 1) * stripSize.width * 4),
          (y * png.width + i * stripSize.width) * 4,
        );
      }
    });
    await writeFile(stripPath, PNG.sync.write(png));
    for (const image of strip) {
      const single = new PNG(stripSize);
      single.data.set(image.rgba);
      await writeFile(resolve(outDir, `gbuffer-${image.name}.png`), PNG.sync.write(single));
    }
  });

  // Last, so the mesh-only report above is unchanged: labels and a splat cloud join the scene as pick sources.
  const entities = await step(
    'pick sources: billboard labels and a splat cloud, drawn over the meshes and picked',
    () => showPickSources(engine, scene, picker),
  );
  const entitiesPath = resolve(outDir, 'frame-entities.png');
  await step(`writing ${entitiesPath}`, async () => {
    const png = new PNG({ width, height });
    png.data.set(entities.rgba);
    await writeFile(entitiesPath, PNG.sync.write(png));
  });

  const task = getDefaultForwardTask(scene)!;
  console.log('\nweft headless demo');
  console.log(
    `  adapter       ${[info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' / ') || '(no adapter info)'}`,
  );
  console.log(`  features      ${[...engine.features].sort().join(', ')}`);
  console.log(`  frame         ${width}×${height} ${engine.colorFormat}, reverse-Z depth24plus`);
  console.log(
    `  scene         ${stats.meshes} meshes, ${stats.thinInstances} thin instances, ${stats.triangles.toLocaleString('en')} triangles drawn; glTF model ${stats.glbBytes} bytes`,
  );
  console.log(`  draw calls    ${task.drawCount}`);
  console.log(`  frame time    ${steadyMs.toFixed(1)} ms (CPU rasteriser, steady state)`);
  console.log(`  wrote         ${framePath}, ${picksPath}`);
  console.log(
    `  G-buffer      ${stripPath}: ${strip.map((image) => image.name).join(', ')} (${stripSize.width}×${stripSize.height} each)`,
  );
  console.log(`\nGPU picks (${detailed ? `detailed: ${picker.detailMethod}` : 'basic'}), pixel centres of a 6×4 grid:`);
  console.log(formatPickTable(grid, picks, getPickedUV, cpuPicks));
  console.log(
    `\nPick sources (${entitiesPath}): billboards and Gaussian splats in the same pick pass, aimed at their centres:`,
  );
  console.log(entities.lines.join('\n'));
  disposeEngine(engine);
}

main().catch((error) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
