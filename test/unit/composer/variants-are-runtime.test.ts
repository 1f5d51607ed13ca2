import { describe, expect, test } from 'vitest';
import { type ComposedShader, type ComposeSpec, composeShader } from '../../../composer/compose-shader.js';
import { getVariant } from '../../../composer/variant-registry.js';
import { billboardPickSpec } from '../../../entities/billboards/billboard-shaders.js';
import { splatPickSpec } from '../../../entities/splats/splat-shaders.js';
import {
  createBoxMesh,
  createMeshFromData,
  createScene,
  type Engine,
  makeSkeleton,
  makeStandardMaterial,
  makeVertexAnimation,
  type Mesh,
  type Scene,
} from '../../../engine/index.js';
import { describeForwardShader, forwardShaderSpec } from '../../../engine/render/forward-shader.js';
import type { GeometryOutputName } from '../../../fragments/geometry-fragments.js';
import { describeGeometryShader, geometryShaderSpec } from '../../../geometry/geometry-shader.js';
import { describePickShader } from '../../../picking/gpu/pick-pipelines.js';
import { pickShaderSpec } from '../../../picking/gpu/pick-shader.js';
import { makeWeftVariantRegistry } from '../../../variants/index.js';
import { crowdFrames, crowdInstances, twoBoneBox } from '../../support/vat-reference.js';

// Each registered variant must be what a runtime composes for a real mesh of its kind: the meshes below are made with
// the engine's own constructors (a CPU-only scene), described and built exactly as the runtimes do in record().

const registry = makeWeftVariantRegistry();
const cpuScene = (): Scene => createScene({} as Engine);
const texture = { width: 1, height: 1, data: new Uint8Array([255, 255, 255, 255]) };
const identity = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

function expectVariant(name: string, spec: ComposeSpec): void {
  const registered: ComposedShader = composeShader(getVariant(registry, name).spec());
  const runtime = composeShader(spec);
  expect(runtime.code, name).toBe(registered.code);
  expect(runtime.key, name).toBe(registered.key);
}

function meshes(scene: Scene): Record<string, Mesh> {
  const crowd = crowdInstances();
  const vertexAnimation = () =>
    makeVertexAnimation({ name: 'crowd', frames: crowdFrames(), boneCount: 2, frameCount: 4 });
  const eight = twoBoneBox();
  const vertices = eight.positions!.length / 3;
  eight.joints2 = new Uint16Array(vertices * 4);
  eight.weights2 = new Float32Array(vertices * 4);
  return {
    box: createBoxMesh(scene, 'box'),
    textured: createBoxMesh(scene, 'textured', {}, { material: makeStandardMaterial({ texture }) }),
    instanced: createBoxMesh(scene, 'instanced', {}, { thinInstances: new Float32Array([...identity, ...identity]) }),
    skinned: createMeshFromData(scene, 'skinned', twoBoneBox(), { skeleton: makeSkeleton(2) }),
    skinned8: createMeshFromData(scene, 'skinned8', eight, { skeleton: makeSkeleton(2) }),
    animated: createMeshFromData(scene, 'animated', twoBoneBox(), { vertexAnimation: vertexAnimation() }),
    morphed: createMeshFromData(scene, 'morphed', twoBoneBox(), {
      skeleton: makeSkeleton(2),
      morphTargets: { positions: [new Float32Array(vertices * 3)], normals: [new Float32Array(vertices * 3)] },
      thinInstances: identity,
    }),
    crowd: createMeshFromData(scene, 'crowd', twoBoneBox(), {
      vertexAnimation: vertexAnimation(),
      thinInstances: crowd.matrices,
      vertexAnimationPlayback: crowd.playback,
    }),
  };
}

describe('registered variants are the shaders the runtimes compose', () => {
  const scene = cpuScene();
  const mesh = meshes(scene);

  test('forward renderer: standard, textured, thin-instanced, skinned, morphed and VAT meshes', () => {
    const forward = (m: Mesh) =>
      forwardShaderSpec(describeForwardShader(m, { objectIds: false, objectPrimitive: false }));
    expectVariant('standard-normals', forward(mesh.box));
    expectVariant('standard-normals-uvs', forward(mesh.textured));
    expectVariant('standard-normals-thin-instances', forward(mesh.instanced));
    expectVariant('deform-skin4', forward(mesh.skinned));
    expectVariant('deform-skin8', forward(mesh.skinned8));
    expectVariant('deform-morph-skin4-thin-instances', forward(mesh.morphed));
    expectVariant('deform-vat4', forward(mesh.animated));
  });

  test('a device without vertex-stage storage buffers: the texture-reading deformation variants of every pass', () => {
    const textures = { deformationTextures: true };
    const forward = forwardShaderSpec(
      describeForwardShader(mesh.morphed, { objectIds: false, objectPrimitive: false }),
      textures,
    );
    expectVariant('deform-morph-skin4-thin-instances-textures', forward);
    const pick = (m: Mesh) => pickShaderSpec(describePickShader('test', m, false, null).description, textures);
    expectVariant('pick-deform-vat4-thin-instances-textures', pick(mesh.crowd));
    const outputs: GeometryOutputName[] = ['linearVelocity', 'worldPosition'];
    const geometry = (m: Mesh) =>
      geometryShaderSpec(
        describeGeometryShader(m, { outputs, previousDepth: false, objectPrimitive: false }),
        textures,
      );
    expectVariant('geometry-deform-vat4-velocity-thin-instances-textures', geometry(mesh.crowd));
    // Not one storage buffer left in the vertex stage of any of them.
    for (const spec of [forward, pick(mesh.crowd), geometry(mesh.crowd), geometry(mesh.morphed)]) {
      const composed = composeShader(spec);
      const storage = composed.bindGroups.flatMap((g) => g.entries).filter((e) => e.buffer?.type?.includes('storage'));
      expect(storage).toEqual([]);
    }
  });

  test('pick pass: basic and detailed, thin-instanced, skinned and thin-instanced VAT meshes', () => {
    const pick = (m: Mesh, detailed: boolean) =>
      pickShaderSpec(describePickShader('test', m, detailed, null).description);
    expectVariant('pick', pick(mesh.box, false));
    expectVariant('pick-detail', pick(mesh.box, true));
    expectVariant('pick-thin-instances', pick(mesh.instanced, false));
    expectVariant('pick-detail-thin-instances', pick(mesh.instanced, true));
    expectVariant('pick-deform-skin8-detail', pick(mesh.skinned8, true));
    expectVariant('pick-deform-vat4-thin-instances-detail', pick(mesh.crowd, true));
  });

  test('geometry pass: positions and normals of a box, velocity of a thin-instanced VAT crowd', () => {
    const geometry = (m: Mesh, outputs: GeometryOutputName[]) =>
      geometryShaderSpec(describeGeometryShader(m, { outputs, previousDepth: false, objectPrimitive: false }));
    expectVariant('geometry-positions-normals', geometry(mesh.box, ['worldPosition', 'worldNormal', 'viewNormal']));
    expectVariant(
      'geometry-deform-vat4-velocity-thin-instances',
      geometry(mesh.crowd, ['linearVelocity', 'worldPosition']),
    );
  });

  test('entity pick contributors: billboards and splats, basic and detailed', () => {
    expectVariant('billboard-pick', billboardPickSpec(false));
    expectVariant('billboard-pick-detail', billboardPickSpec(true));
    expectVariant('splat-pick', splatPickSpec(false));
    expectVariant('splat-pick-detail', splatPickSpec(true));
  });
});
