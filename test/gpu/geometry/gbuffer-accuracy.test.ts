import { mat4, vec3, vec4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  type Engine,
  makeStandardMaterial,
  type PerspectiveCamera,
  type RenderTarget,
  runTasks,
} from '../../../engine/index.js';
import {
  createGeometryRendererTask,
  GEOMETRY_TEXTURE_DESCRIPTIONS,
  type GeometryRendererTask,
  GeometryTextureType,
} from '../../../geometry/index.js';
import { lambert } from '../../support/frame-check.js';
import { gpuTest } from '../../support/gpu.js';
import { cameraPixelRay } from '../../support/camera-rays.js';
import { castReferenceRay, castReferenceRayAll, type ReferenceHit } from '../../support/reference-raycast.js';
import { cameraMatrices, generateGeometryScene, type Pixels, readPixels } from './geometry-test-helpers.js';

type Vec = number[];
const sameHit = (a: ReferenceHit | null, b: ReferenceHit | null) =>
  !a || !b ? a === b : a.meshId === b.meshId && a.thinInstanceIndex === b.thinInstanceIndex && a.faceId === b.faceId;
const maxDiff = (a: readonly number[], b: readonly number[]) => Math.max(...a.map((v, i) => Math.abs(v - b[i])));

interface Figure {
  compared: number;
  worst: number;
  failures: number;
  first: string[];
}
const newFigure = (): Figure => ({ compared: 0, worst: 0, failures: 0, first: [] });
function check(figure: Figure, error: number, tolerance: number, where: string): void {
  figure.compared++;
  figure.worst = Math.max(figure.worst, error);
  if (!(error <= tolerance)) {
    figure.failures++;
    if (figure.first.length < 5)
      figure.first.push(`${where}: error ${error.toExponential(3)} > ${tolerance.toExponential(3)}`);
  }
}

const all = [
  GeometryTextureType.WORLD_POSITION,
  GeometryTextureType.LOCAL_POSITION,
  GeometryTextureType.WORLD_NORMAL,
  GeometryTextureType.VIEW_NORMAL,
  GeometryTextureType.VIEW_DEPTH,
  GeometryTextureType.NORMALIZED_VIEW_DEPTH,
  GeometryTextureType.SCREENSPACE_DEPTH,
  GeometryTextureType.ALBEDO,
];

async function measure(engine: Engine, seed: number, far: number, figures: Record<string, Figure>): Promise<void> {
  const generated = await generateGeometryScene(engine, seed, { far });
  const { scene, reference } = generated;
  const task = createGeometryRendererTask(scene, { textureDescriptions: all.map((type) => ({ type })) });
  expect(runTasks(engine, [task])).toBe(true);
  const read = (type: GeometryTextureType): Promise<Pixels> =>
    readPixels(task[GEOMETRY_TEXTURE_DESCRIPTIONS[type].accessor as keyof GeometryRendererTask] as RenderTarget);
  const images = Object.fromEntries(
    await Promise.all(all.map(async (type) => [type, await read(type)] as const)),
  ) as Record<GeometryTextureType, Pixels>;
  const { width, height } = engine;
  const camera = scene.camera as PerspectiveCamera;
  const eye = Array.from(camera.position) as [number, number, number];
  const { view, viewProjection } = cameraMatrices(scene, width / height);
  const cast = (x: number, y: number) => {
    const ray = cameraPixelRay(scene.camera!, x, y, width, height);
    return castReferenceRay(reference, ray.origin, ray.direction);
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const hit = cast(x, y);
      if (
        [
          [-0.05, 0],
          [0.05, 0],
          [0, -0.05],
          [0, 0.05],
        ].some(([dx, dy]) => !sameHit(hit, cast(x + dx, y + dy)))
      )
        continue;
      const where = `seed ${seed} (${x}, ${y})`;
      if (!hit) {
        check(
          figures.background,
          Math.max(
            ...all.map((type) =>
              maxDiff(
                images[type].at(x, y),
                GEOMETRY_TEXTURE_DESCRIPTIONS[type].clearValue.slice(0, images[type].channels),
              ),
            ),
          ),
          0,
          where,
        );
        continue;
      }
      const ray = cameraPixelRay(scene.camera!, x, y, width, height);
      const next = castReferenceRayAll(reference, ray.origin, ray.direction).find(
        (h) => h.meshId !== hit.meshId || h.thinInstanceIndex !== hit.thinInstanceIndex,
      );
      if (next && next.distance - hit.distance < 1e-3 * hit.distance) continue;
      const mesh = generated.meshes.find((m) => m.uniqueId === hit.meshId)!;
      const instance =
        hit.thinInstanceIndex >= 0
          ? mat4.multiply(
              mesh.worldMatrix,
              (() => {
                const m = mesh.thinInstances!.slice(hit.thinInstanceIndex * 16, hit.thinInstanceIndex * 16 + 16);
                m[3] = m[7] = m[11] = 0;
                m[15] = 1;
                return m;
              })(),
            )
          : mesh.worldMatrix;
      const p = hit.point;
      check(
        figures.worldPosition,
        maxDiff(images[GeometryTextureType.WORLD_POSITION].at(x, y), [...p, 1]),
        1e-3 * hit.distance,
        where,
      );
      const local = vec3.transformMat4(p, mat4.inverse(instance));
      check(
        figures.localPosition,
        maxDiff(images[GeometryTextureType.LOCAL_POSITION].at(x, y), [...local, 1]),
        1e-3 * hit.distance,
        where,
      );
      let normal: Vec = hit.normalWorld ?? hit.faceNormalWorld;
      if (!generated.withNormals.has(hit.meshId) && vec3.dot(normal, vec3.subtract(eye, p)) < 0)
        normal = vec3.negate(normal);
      check(
        figures.worldNormal,
        maxDiff(images[GeometryTextureType.WORLD_NORMAL].at(x, y), [...normal, 1]),
        1e-2,
        where,
      );
      const viewNormal = vec3.normalize(vec3.transformMat4Upper3x3(normal, view));
      check(
        figures.viewNormal,
        maxDiff(images[GeometryTextureType.VIEW_NORMAL].at(x, y), [...viewNormal, 1]),
        1e-2,
        where,
      );
      const depth = -vec3.transformMat4(p, view)[2];
      check(
        figures.viewDepth,
        Math.abs(images[GeometryTextureType.VIEW_DEPTH].at(x, y)[0] - depth),
        1e-4 * depth,
        where,
      );
      const normalized = Number.isFinite(far) ? (depth - camera.near) / (far - camera.near) : 1 - camera.near / depth;
      check(
        figures.normalizedViewDepth,
        Math.abs(images[GeometryTextureType.NORMALIZED_VIEW_DEPTH].at(x, y)[0] - normalized),
        1e-4,
        where,
      );
      const clip = vec4.transformMat4([...p, 1], viewProjection);
      check(
        figures.screenspaceDepth,
        Math.abs(images[GeometryTextureType.SCREENSPACE_DEPTH].at(x, y)[0] - clip[2] / clip[3]),
        1e-5,
        where,
      );
      const color = generated.colors.get(hit.meshId)!;
      check(
        figures.albedo,
        maxDiff(
          images[GeometryTextureType.ALBEDO].at(x, y),
          color.map((c) => Math.round(c * 255) / 255),
        ),
        0.5 / 255 + 1e-6,
        where,
      );
    }
  }
  task.dispose();
}

describe('G-buffer against three.js + three-mesh-bvh', () => {
  gpuTest(
    'world/local position, normals, depths and albedo match the CPU ray cast at every pixel centre; background holds the clear values',
    async ({ engine }) => {
      const figures: Record<string, Figure> = Object.fromEntries(
        [
          'worldPosition',
          'localPosition',
          'worldNormal',
          'viewNormal',
          'viewDepth',
          'normalizedViewDepth',
          'screenspaceDepth',
          'albedo',
          'background',
        ].map((k) => [k, newFigure()]),
      );
      await measure(engine, 11, 40, figures);
      await measure(engine, 12, Infinity, figures);
      await measure(engine, 13, 25, figures);
      console.log(
        '[G-buffer accuracy]',
        Object.fromEntries(
          Object.entries(figures).map(([k, f]) => [
            k,
            `${f.compared} px, worst ${f.worst.toExponential(2)}, failures ${f.failures}`,
          ]),
        ),
      );
      for (const [key, figure] of Object.entries(figures)) {
        expect(figure.first, key).toEqual([]);
        expect(figure.compared, key).toBeGreaterThan(2500);
      }
    },
    [96, 72],
    { requiredLimits: { maxColorAttachmentBytesPerSample: 128 } },
  );

  gpuTest(
    'IRRADIANCE is the forward Lambert colour (albedo when unlit); REFLECTIVITY and MESH_BLEND_TAG are the per-mesh values',
    async ({ engine }) => {
      const generated = await generateGeometryScene(engine, 14);
      const { scene, reference, meshes } = generated;
      const unlit = meshes[1];
      unlit.material = makeStandardMaterial({ baseColor: generated.colors.get(unlit.uniqueId)!, unlit: true });
      const reflectivityOf = (id: number): [number, number, number, number] => [(id * 0.13) % 1, 0.5, 0.25, 0.75];
      const task = createGeometryRendererTask(scene, {
        textureDescriptions: [
          { type: GeometryTextureType.IRRADIANCE },
          { type: GeometryTextureType.REFLECTIVITY },
          { type: GeometryTextureType.MESH_BLEND_TAG },
        ],
        reflectivity: (mesh) => reflectivityOf(mesh.uniqueId),
        blendTag: (mesh) => (mesh.uniqueId % 250) + 1,
      });
      runTasks(engine, [task]);
      const [irradiance, reflectivity, tags] = await Promise.all([
        readPixels(task.geometryIrradianceTexture!),
        readPixels(task.geometryReflectivityTexture!),
        readPixels(task.geometryMeshBlendTagTexture!),
      ]);
      const { width, height } = engine;
      const eye = Array.from((scene.camera as PerspectiveCamera).position) as [number, number, number];
      const cast = (x: number, y: number) => {
        const ray = cameraPixelRay(scene.camera!, x, y, width, height);
        return castReferenceRay(reference, ray.origin, ray.direction);
      };
      const figures = {
        irradiance: newFigure(),
        reflectivity: newFigure(),
        blendTag: newFigure(),
        background: newFigure(),
      };
      let unlitPixels = 0;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const hit = cast(x, y);
          if (
            [
              [-0.05, 0],
              [0.05, 0],
              [0, -0.05],
              [0, 0.05],
            ].some(([dx, dy]) => !sameHit(hit, cast(x + dx, y + dy)))
          )
            continue;
          const where = `(${x}, ${y})`;
          if (!hit) {
            check(
              figures.background,
              maxDiff(
                [...irradiance.at(x, y), ...reflectivity.at(x, y), ...tags.at(x, y)],
                [0, 0, 0, 0, 0, 0, 0, 0, 0],
              ),
              0,
              where,
            );
            continue;
          }
          const color = generated.colors.get(hit.meshId)!;
          let normal: Vec = hit.normalWorld ?? hit.faceNormalWorld;
          if (!generated.withNormals.has(hit.meshId) && vec3.dot(normal, vec3.subtract(eye, hit.point)) < 0)
            normal = vec3.negate(normal);
          const lit =
            hit.meshId === unlit.uniqueId
              ? color.slice(0, 3)
              : lambert(
                  color.slice(0, 3) as [number, number, number],
                  normal as [number, number, number],
                  scene.lightDirection,
                  scene.lightColor,
                  scene.ambientColor,
                );
          if (hit.meshId === unlit.uniqueId) unlitPixels++;
          check(figures.irradiance, maxDiff(irradiance.at(x, y), [...lit, 1]), 1e-2, where);
          check(
            figures.reflectivity,
            maxDiff(
              reflectivity.at(x, y),
              reflectivityOf(hit.meshId).map((v) => Math.round(v * 255) / 255),
            ),
            1e-6,
            where,
          );
          check(figures.blendTag, Math.abs(tags.at(x, y)[0] - ((hit.meshId % 250) + 1)), 0, where);
        }
      }
      console.log(
        '[irradiance / reflectivity / blend tag]',
        Object.fromEntries(
          Object.entries(figures).map(([k, f]) => [
            k,
            `${f.compared} px, worst ${f.worst.toExponential(2)}, failures ${f.failures}`,
          ]),
        ),
        'unlit pixels',
        unlitPixels,
      );
      for (const [key, figure] of Object.entries(figures)) {
        expect(figure.first, key).toEqual([]);
        expect(figure.compared, key).toBeGreaterThan(500);
      }
      expect(unlitPixels).toBeGreaterThan(20);
      task.dispose();
    },
    [96, 72],
  );
});
