// weft's glTF animation player against three.js's AnimationMixer on the same GLB bytes (built here with
// @gltf-transform/core): STEP, LINEAR (slerp for rotations) and CUBICSPLINE on translation, rotation, scale and morph
// weights, at times between keyframes, on keyframes, before a channel's first key, after its last, and past the clip.
import { Document, WebIO } from '@gltf-transform/core';
import type { Mesh as ThreeMesh } from 'three';
import { describe, expect, test } from 'vitest';
import { createScene, type Engine, makeBoxData } from '../../engine/index.js';
import { loadGltfAsync, playGltfAnimation } from '../../engine/loaders/index.js';
import { makeRandom } from '../support/random.js';
import { parseGlbWithThree } from '../support/three-gltf.js';

type Path = 'translation' | 'rotation' | 'scale' | 'weights';
type Interpolation = 'STEP' | 'LINEAR' | 'CUBICSPLINE';

const size: Record<Path, number> = { translation: 3, rotation: 4, scale: 3, weights: 2 };
const typeOf = { 3: 'VEC3', 4: 'VEC4', 2: 'SCALAR' } as const;

/** Random keyframe values (tangents too for CUBICSPLINE); rotations unit, consecutive ones sometimes > 90° apart. */
function keyValues(random: () => number, path: Path, interpolation: Interpolation, keys: number): Float32Array {
  const n = size[path];
  const value = () => {
    if (path === 'rotation') {
      const q = [random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5];
      const l = Math.hypot(...q);
      return q.map((c) => c / l);
    }
    if (path === 'scale') return Array.from({ length: n }, () => 0.5 + random());
    return Array.from({ length: n }, () => (random() - 0.5) * 2);
  };
  const tangent = () => Array.from({ length: n }, () => (random() - 0.5) * 3);
  const out: number[] = [];
  for (let k = 0; k < keys; k++)
    out.push(...(interpolation === 'CUBICSPLINE' ? [...tangent(), ...value(), ...tangent()] : value()));
  return new Float32Array(out);
}

const CHANNELS: { node: 'root' | 'arm'; path: Path; interpolation: Interpolation; times: number[] }[] = [
  { node: 'root', path: 'translation', interpolation: 'CUBICSPLINE', times: [0.25, 0.9, 1.6] },
  { node: 'root', path: 'rotation', interpolation: 'LINEAR', times: [0, 0.7, 1.3, 2] },
  { node: 'root', path: 'scale', interpolation: 'STEP', times: [0.4, 1.1, 1.8] },
  { node: 'root', path: 'weights', interpolation: 'CUBICSPLINE', times: [0.2, 1, 1.7] },
  { node: 'arm', path: 'rotation', interpolation: 'CUBICSPLINE', times: [0.1, 1, 1.9] },
  { node: 'arm', path: 'scale', interpolation: 'CUBICSPLINE', times: [0.3, 1.2] },
  { node: 'arm', path: 'translation', interpolation: 'STEP', times: [0.5, 1.5] },
  { node: 'arm', path: 'weights', interpolation: 'STEP', times: [0.15, 0.8, 1.45] },
];

/** Two box meshes with two morph targets each (root, and arm its child), animated by CHANNELS. */
function makeDocument(seed: number): Document {
  const random = makeRandom(seed);
  const d = new Document();
  const buffer = d.createBuffer();
  const accessor = (type: 'VEC4' | 'VEC3' | 'SCALAR', array: Float32Array | Uint16Array) =>
    d.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const box = makeBoxData();
  const mesh = (name: string) => {
    const primitive = d
      .createPrimitive()
      .setAttribute('POSITION', accessor('VEC3', box.positions!))
      .setIndices(accessor('SCALAR', box.indices as Uint16Array));
    for (let t = 0; t < 2; t++)
      primitive.addTarget(
        d.createPrimitiveTarget().setAttribute(
          'POSITION',
          accessor(
            'VEC3',
            box.positions!.map(() => (random() - 0.5) * 0.4),
          ),
        ),
      );
    return d.createMesh(name).addPrimitive(primitive).setWeights([0, 0]);
  };
  const nodes = {
    root: d.createNode('root').setMesh(mesh('rootMesh')).setTranslation([0.5, 0, 0]),
    arm: d.createNode('arm').setMesh(mesh('armMesh')).setTranslation([0, 1.5, 0]),
  };
  nodes.root.addChild(nodes.arm);
  d.createScene('main').addChild(nodes.root);
  const animation = d.createAnimation('clip');
  for (const channel of CHANNELS) {
    const values = keyValues(random, channel.path, channel.interpolation, channel.times.length);
    const sampler = d
      .createAnimationSampler()
      .setInput(accessor('SCALAR', new Float32Array(channel.times)))
      .setOutput(accessor(channel.path === 'weights' ? 'SCALAR' : typeOf[size[channel.path] as 3 | 4], values))
      .setInterpolation(channel.interpolation);
    animation
      .addSampler(sampler)
      .addChannel(
        d.createAnimationChannel().setTargetNode(nodes[channel.node]).setTargetPath(channel.path).setSampler(sampler),
      );
  }
  return d;
}

const TIMES = [0, 0.05, 0.12, 0.33, 0.7, 0.77, 1, 1.05, 1.25, 1.5, 1.55, 1.63, 1.84, 1.95, 2, 2.6, 7];

describe('glTF animation against three.js AnimationMixer on the same GLB', () => {
  test.each([1, 2, 3])(
    'seed %i: node TRS, mesh world matrices and morph weights agree at 17 times (STEP, LINEAR, CUBICSPLINE)',
    async (seed) => {
      const glb = await new WebIO().writeBinary(makeDocument(seed));
      const result = await loadGltfAsync(createScene({ width: 1, height: 1 } as Engine), glb);
      const three = await parseGlbWithThree(glb);
      const node = (name: string) =>
        result.document
          .getRoot()
          .listNodes()
          .find((n) => n.getName() === name)!;
      const weftMesh = (name: string) => result.meshes.find((m) => m.name.startsWith(name))!;
      const threeObject = (name: string) => three.scene.getObjectByName(name)!;
      let worst = { translation: 0, rotation: 0, scale: 0, world: 0, weights: 0 };
      for (const time of TIMES) {
        playGltfAnimation(result, 'clip', time);
        three.poseAt('clip', time);
        for (const name of ['root', 'arm']) {
          const ours = node(name);
          const theirs = threeObject(name);
          const diff = (a: readonly number[], b: readonly number[]) => Math.max(...a.map((v, i) => Math.abs(v - b[i])));
          const q = ours.getRotation();
          const r = theirs.quaternion.toArray();
          const dot = q.reduce((s, v, i) => s + v * r[i], 0);
          worst = {
            translation: Math.max(worst.translation, diff(ours.getTranslation(), theirs.position.toArray())),
            // q and −q are one rotation: compare up to sign; and weft's rotation is unit (glTF: normalised).
            rotation: Math.max(
              worst.rotation,
              diff(
                q,
                r.map((v) => v * Math.sign(dot)),
              ),
              Math.abs(Math.hypot(...q) - 1),
            ),
            scale: Math.max(worst.scale, diff(ours.getScale(), theirs.scale.toArray())),
            world: Math.max(worst.world, diff(Array.from(weftMesh(name).worldMatrix), theirs.matrixWorld.elements)),
            weights: Math.max(
              worst.weights,
              diff(Array.from(weftMesh(name).morphWeights), (theirs as ThreeMesh).morphTargetInfluences!),
            ),
          };
          for (const [key, error] of Object.entries(worst))
            expect(error, `${name} ${key} at t = ${time} s`).toBeLessThan(2e-6);
        }
      }
      console.log(`[glTF vs three AnimationMixer] seed ${seed}, ${TIMES.length} times: worst`, worst);
    },
  );
});
