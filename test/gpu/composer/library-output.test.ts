// Library output on Dawn: every library snapshot variant compiles inside a minimal host entry point, and the host
// material drawn through a library (default groups, and groups 1..3 with group 0 left to the host) gives the same
// pixels as the composed module.
import { BufferAttribute, BufferGeometry, Matrix4, Mesh, MeshBasicMaterial, Raycaster, Vector3 } from 'three';
import { describe, expect, test } from 'vitest';
import { composeShader } from '../../../composer/index.js';
import { getNodeGpu } from '../../support/gpu.js';
import { hostLibraryVariants, hostMaterialSpec } from '../../support/host-material.js';
import {
  compileChecked,
  comparePixels,
  hostTorusMesh,
  renderHostMaterialAsync,
  wrapLibrary,
} from '../../support/host-render.js';
import { type HostView, makeHostView } from '../../support/host-view.js';

/**
 * The colour at a pixel centre from an independent reference: a three.js ray cast (hit point, interpolated vertex
 * normal) through the pixel centre and the band + Lambert formula in float64. null on a miss.
 */
function referenceColour(view: HostView, mesh: Mesh, x: number, y: number): number[] | null {
  const inverse = new Matrix4().fromArray(view.viewProjection).invert();
  const ndc = [((x + 0.5) / view.size) * 2 - 1, 1 - ((y + 0.5) / view.size) * 2];
  const far = new Vector3(ndc[0], ndc[1], 0).applyMatrix4(inverse); // reverse-Z: far plane at depth 0
  const eye = new Vector3(...view.eye);
  const hit = new Raycaster(eye, far.sub(eye).normalize()).intersectObject(mesh)[0];
  if (!hit?.normal) return null;
  const n = hit.normal.clone().transformDirection(new Matrix4().fromArray(view.normalMatrix));
  const t = 0.5 + 0.5 * Math.sin(hit.point.y * view.band[0] + view.band[1]);
  const diffuse = Math.max(
    0,
    n.x * view.lightDirection[0] + n.y * view.lightDirection[1] + n.z * view.lightDirection[2],
  );
  return [0, 1, 2].map((c) => {
    const albedo = view.tint[c] + (view.bandColor[c] - view.tint[c]) * t;
    return Math.round(Math.min(1, albedo * (view.ambientColor[c] + view.lightColor[c] * diffuse)) * 255);
  });
}

async function withDevice(body: (device: GPUDevice) => Promise<void>): Promise<void> {
  const adapter = await getNodeGpu().requestAdapter();
  if (!adapter) throw new Error('No WebGPU adapter from Dawn; GPU tests fail rather than skip');
  const device = await adapter.requestDevice({ label: 'library-output-test' });
  const uncaptured: string[] = [];
  device.addEventListener('uncapturederror', (e) => uncaptured.push((e as GPUUncapturedErrorEvent).error.message));
  device.pushErrorScope('validation');
  try {
    await body(device);
  } finally {
    const error = await device.popErrorScope();
    device.destroy();
    expect(error?.message ?? null).toBeNull();
    expect(uncaptured).toEqual([]);
  }
}

describe('library output on Dawn', () => {
  test('every library variant compiles when wrapped by a minimal host entry point', async () => {
    await withDevice(async (device) => {
      for (const variant of hostLibraryVariants()) {
        const composed = composeShader(variant.spec());
        await compileChecked(device, variant.name, wrapLibrary(composed));
      }
    });
  });

  test('a library drawn by a host gives the pixels of the composed module, also with group 0 kept by the host', async () => {
    await withDevice(async (device) => {
      const view = makeHostView(96);
      const mesh = hostTorusMesh();
      const module = await renderHostMaterialAsync(device, composeShader(hostMaterialSpec('module')), mesh, view);
      const library = await renderHostMaterialAsync(device, composeShader(hostMaterialSpec('library')), mesh, view);
      const moved = composeShader(hostMaterialSpec('library', { groups: { scene: 1, mesh: 2, material: 3 } }));
      expect(moved.bindGroups.map((g) => g.role)).toEqual([null, 'scene', 'mesh', 'material']);
      const libraryMoved = await renderHostMaterialAsync(device, moved, mesh, view);
      const movedModule = await renderHostMaterialAsync(
        device,
        composeShader(hostMaterialSpec('module', { groups: { scene: 1, mesh: 2, material: 3 }, firstBinding: 2 })),
        mesh,
        view,
      );
      // The torus covers a good part of the frame (it is a real drawing, not a clear).
      const clear = Array.from(module.subarray(0, 4));
      let covered = 0;
      for (let i = 0; i < module.length; i += 4) if (module[i] !== clear[0] || module[i + 2] !== clear[2]) covered++;
      expect(covered).toBeGreaterThan(view.size * view.size * 0.15);
      for (const other of [library, libraryMoved, movedModule]) {
        const diff = comparePixels(module, other, view.size, 0);
        expect(diff.maxDiff).toBe(0);
        expect(diff.edgeExcluded).toBe(comparePixels(module, module, view.size, 0).edgeExcluded);
      }
    });
  });

  test('the module draws what an independent ray cast and the surface formula give at pixel centres', async () => {
    await withDevice(async (device) => {
      const view = makeHostView(96);
      const torus = hostTorusMesh();
      const pixels = await renderHostMaterialAsync(device, composeShader(hostMaterialSpec('module')), torus, view);
      const geometry = new BufferGeometry();
      geometry.setAttribute('position', new BufferAttribute(torus.positions, 3));
      geometry.setAttribute('normal', new BufferAttribute(torus.normals, 3));
      geometry.setIndex(new BufferAttribute(torus.indices, 1));
      const mesh = new Mesh(geometry, new MeshBasicMaterial());
      mesh.matrixAutoUpdate = false;
      mesh.matrix.fromArray(view.world);
      mesh.updateMatrixWorld(true);
      let checked = 0;
      let worst = 0;
      for (let y = 2; y < view.size - 2; y += 3)
        for (let x = 2; x < view.size - 2; x += 3) {
          // Interior pixels only: the ray through each 4-neighbour hits too (silhouettes are sampled, not compared).
          if (
            [
              [0, 0],
              [1, 0],
              [-1, 0],
              [0, 1],
              [0, -1],
            ].some(([dx, dy]) => !referenceColour(view, mesh, x + dx, y + dy))
          )
            continue;
          const expected = referenceColour(view, mesh, x, y)!;
          const i = (y * view.size + x) * 4;
          for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(pixels[i + c] - expected[c]));
          checked++;
        }
      console.info(
        `[library-output] ${checked} interior pixel centres vs the three.js ray-cast reference: max channel difference ${worst}/255`,
      );
      expect(checked).toBeGreaterThan(150);
      expect(worst).toBeLessThanOrEqual(2);
    });
  });
});
