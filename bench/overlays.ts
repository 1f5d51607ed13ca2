// Gizmo-handle picks as ratios measured side by side in one run (run: npx tsx bench/overlays.ts [rounds]):
// one scene pick, one pick with the handles as overlays, and the old two picks (81-point handle block + scene).
import { mat4 } from 'wgpu-matrix';
import {
  createBoxMesh,
  createEngineAsync,
  createScene,
  createSphereMesh,
  createTorusMesh,
  disposeEngine,
  makePerspectiveCamera,
  type Mesh,
  type Scene,
} from '../engine/index.js';
import { createGpuPicker, createPickOverlay, pickAsync, pickManyAsync } from '../picking/index.js';
import { median, time } from './bench-timing.js';
import { createBenchGpu, reportBenchAdapter } from './bench-gpu.js';

const rounds = Number(process.argv[2] ?? 40);
const tolerance = 4;

/** An editor-like scene: a ground, a dense sphere, 40 boxes; the handles (3 arrows as boxes, 3 rings) in a second scene. */
function makeScenes(engine: Parameters<typeof createScene>[0]): { scene: Scene; handles: Scene; meshes: Mesh[] } {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [4, 3, 6], target: [0, 0, 0], fovY: 0.9 });
  createBoxMesh(scene, 'ground', { width: 20, height: 0.1, depth: 20 }, { worldMatrix: mat4.translation([0, -1, 0]) });
  createSphereMesh(scene, 'sphere', { radius: 1, segments: 96 });
  for (let i = 0; i < 40; i++)
    createBoxMesh(
      scene,
      `box${i}`,
      { width: 0.3, height: 0.3, depth: 0.3 },
      {
        worldMatrix: mat4.translation([(i % 8) - 3.5, 0.5 * Math.floor(i / 8) - 1, -2]),
      },
    );
  const handles = createScene(engine);
  handles.camera = scene.camera;
  const meshes: Mesh[] = [];
  for (let axis = 0; axis < 3; axis++) {
    const along = [0, 0, 0];
    along[axis] = 0.6;
    const size = [0.04, 0.04, 0.04];
    size[axis] = 1.2;
    meshes.push(
      createBoxMesh(
        handles,
        `arrow${axis}`,
        { width: size[0], height: size[1], depth: size[2] },
        {
          worldMatrix: mat4.translation(along),
        },
      ),
    );
    const turn = [mat4.rotationZ(Math.PI / 2), mat4.identity(), mat4.rotationX(Math.PI / 2)][axis];
    meshes.push(
      createTorusMesh(
        handles,
        `ring${axis}`,
        { radius: 1.3, tube: 0.02, radialSegments: 8, tubularSegments: 96 },
        {
          worldMatrix: turn,
        },
      ),
    );
  }
  return { scene, handles, meshes };
}

async function main(): Promise<void> {
  const gpu = createBenchGpu();
  const width = 800;
  const height = 600;
  const engine = await createEngineAsync(gpu, { width, height });
  reportBenchAdapter(engine);
  const { scene, handles, meshes } = makeScenes(engine);
  const plain = createGpuPicker(scene);
  const withOverlays = createGpuPicker(scene);
  createPickOverlay(
    withOverlays,
    meshes.map((mesh) => ({ handleId: mesh.name, mesh })),
  );
  const scenePicker = createGpuPicker(scene);
  const handlePicker = createGpuPicker(handles);
  const block = (x: number, y: number) => {
    const points: { x: number; y: number }[] = [];
    for (let dy = -tolerance; dy <= tolerance; dy++)
      for (let dx = -tolerance; dx <= tolerance; dx++) points.push({ x: x + dx, y: y + dy });
    return points;
  };
  // The old editor: the handle block first, then (no handle there) the scene.
  const twoPicks = async (x: number, y: number) => {
    const infos = await pickManyAsync(handlePicker, block(x, y));
    if (!infos.some((i) => i.hit)) await pickAsync(scenePicker, x, y);
  };
  const spots = [
    { name: 'no handle near (sphere)', x: 330, y: 330 },
    { name: 'on a handle', x: 0, y: 0 },
  ];
  // A pixel on the first arrow, from the overlay pick itself (any pixel the arrow covers will do).
  for (let x = 400; x < 700 && spots[1].x === 0; x++) {
    const info = await pickAsync(withOverlays, x, 300, { overlayTolerance: 0 });
    if (info.pickedOverlay?.handleId === 'arrow0') Object.assign(spots[1], { x, y: 300 });
  }
  const rows: string[][] = [];
  for (const spot of spots) {
    const samples = { plain: [] as number[], overlay: [] as number[], old: [] as number[] };
    for (let warm = 0; warm < 5; warm++) {
      await pickAsync(plain, spot.x, spot.y);
      await pickAsync(withOverlays, spot.x, spot.y);
      await twoPicks(spot.x, spot.y);
    }
    const runs: [number[], () => Promise<unknown>][] = [
      [samples.plain, () => pickAsync(plain, spot.x, spot.y)],
      [samples.overlay, () => pickAsync(withOverlays, spot.x, spot.y)],
      [samples.old, () => twoPicks(spot.x, spot.y)],
    ];
    // Interleaved, and the order turns every round so none always runs first.
    for (let r = 0; r < rounds; r++)
      for (let k = 0; k < runs.length; k++) {
        const [into, work] = runs[(r + k) % runs.length];
        into.push(await time(work));
      }
    const [p, o, t] = [median(samples.plain), median(samples.overlay), median(samples.old)];
    rows.push([spot.name, p.toFixed(3), o.toFixed(3), t.toFixed(3), (o / p).toFixed(2), (t / o).toFixed(2)]);
  }
  console.log(
    `one pick with ${meshes.length} gizmo handles as overlays (9 × 9 block) vs a scene-only pick vs the old two picks (81-point handle pickMany, then the scene when no handle is hit); ${scene.meshes.length} scene meshes, ${width}×${height}, medians of ${rounds} interleaved rounds, ms (Dawn, ${engine.adapter?.info?.device ?? 'adapter'})`,
  );
  const header = ['point', 'scene only', 'with overlays', 'old two picks', 'overlays / scene', 'old / overlays'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(row));
  disposeEngine(engine);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
