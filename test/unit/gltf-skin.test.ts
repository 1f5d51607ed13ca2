import { Document, WebIO } from '@gltf-transform/core';
import { mat4 } from 'wgpu-matrix';
import { describe, expect, test } from 'vitest';
import { createScene, deformVertexOnCpu, type Engine, makeBoxData } from '../../engine/index.js';
import { loadGltfAsync, playGltfAnimation } from '../../engine/loaders/index.js';

/** A box skinned to two joints (lower half → joint 0, upper half → joint 1, a child of joint 0), one morph target, one animation. */
function makeRiggedDocument(): Document {
  const d = new Document();
  const buffer = d.createBuffer();
  const box = makeBoxData();
  const n = box.positions!.length / 3;
  const accessor = (type: 'VEC4' | 'VEC3' | 'SCALAR', array: Float32Array | Uint16Array) =>
    d.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const joints = new Uint16Array(n * 4).map((_, i) =>
    i % 4 === 0 && box.positions![Math.floor(i / 4) * 3 + 1] > 0 ? 1 : 0,
  );
  const weights = new Float32Array(n * 4).map((_, i) => (i % 4 === 0 ? 1 : 0));
  const primitive = d
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', box.positions!))
    .setAttribute('NORMAL', accessor('VEC3', box.normals!))
    .setAttribute('JOINTS_0', accessor('VEC4', joints))
    .setAttribute('WEIGHTS_0', accessor('VEC4', weights))
    .setIndices(accessor('SCALAR', box.indices as Uint16Array));
  // Morph target 0 pushes every vertex out along x by 0.5 × sign(x).
  primitive.addTarget(
    d.createPrimitiveTarget().setAttribute(
      'POSITION',
      accessor(
        'VEC3',
        box.positions!.map((c, i) => (i % 3 === 0 ? Math.sign(c) * 0.5 : 0)),
      ),
    ),
  );
  const mesh = d.createMesh('rigged').addPrimitive(primitive).setWeights([0]);
  const hip = d.createNode('hip').setTranslation([2, 0, 0]);
  const knee = d.createNode('knee').setTranslation([0, 0.5, 0]);
  hip.addChild(knee);
  // Inverse bind matrices: the inverses of the joints' rest world matrices, so the rest pose is the mesh as given.
  const ibm = new Float32Array(32);
  ibm.set(mat4.inverse(mat4.translation([2, 0, 0])), 0);
  ibm.set(mat4.inverse(mat4.translation([2, 0.5, 0])), 16);
  const skin = d
    .createSkin('rig')
    .addJoint(hip)
    .addJoint(knee)
    .setInverseBindMatrices(accessor('VEC4', ibm).setType('MAT4'));
  const body = d.createNode('body').setMesh(mesh).setSkin(skin).setTranslation([100, 100, 100]); // ignored for skinned meshes
  d.createScene('main').addChild(hip).addChild(body);
  const times = accessor('SCALAR', new Float32Array([0, 2]));
  const kneeMove = d
    .createAnimationSampler()
    .setInput(times)
    .setOutput(accessor('VEC3', new Float32Array([0, 0.5, 0, 1, 0.5, 0])))
    .setInterpolation('LINEAR');
  const morph = d
    .createAnimationSampler()
    .setInput(times)
    .setOutput(accessor('SCALAR', new Float32Array([0, 1])))
    .setInterpolation('LINEAR');
  d.createAnimation('walk')
    .addSampler(kneeMove)
    .addSampler(morph)
    .addChannel(d.createAnimationChannel().setTargetNode(knee).setTargetPath('translation').setSampler(kneeMove))
    .addChannel(d.createAnimationChannel().setTargetNode(body).setTargetPath('weights').setSampler(morph));
  return d;
}

describe('glTF skins, morph targets and animations', () => {
  test('loads the rig from GLB, rests in the bind pose, and the player poses joints and weights', async () => {
    const glb = await new WebIO().writeBinary(makeRiggedDocument());
    const scene = createScene({} as Engine);
    const result = await loadGltfAsync(scene, glb);
    expect(result.meshes).toHaveLength(1);
    const mesh = result.meshes[0];
    expect(mesh.skeleton?.boneCount).toBe(2);
    expect(mesh.morphTargets?.count).toBe(1);
    expect(Array.from(mesh.worldMatrix)).toEqual(Array.from(mat4.identity())); // the skinned node's transform is ignored
    const upper = Array.from({ length: mesh.geometry.vertexCount }, (_, v) => v).find(
      (v) => mesh.positions[v * 3 + 1] > 0 && mesh.positions[v * 3] > 0,
    )!;
    const rest = [mesh.positions[upper * 3], mesh.positions[upper * 3 + 1], mesh.positions[upper * 3 + 2]];
    // Bind pose: bones are joint world × inverse bind = identity, so vertices stay where the mesh data put them.
    deformVertexOnCpu(mesh, upper).forEach((c, i) => expect(c).toBeCloseTo(rest[i], 5));
    // Half way: the knee moved +0.5 in x, the morph weight is 0.5 (x pushed out by 0.25).
    playGltfAnimation(result, 'walk', 1);
    expect(mesh.morphWeights[0]).toBeCloseTo(0.5, 6);
    const posed = deformVertexOnCpu(mesh, upper);
    expect(posed[0]).toBeCloseTo(rest[0] + 0.25 + 0.5, 5);
    expect(posed[1]).toBeCloseTo(rest[1], 5);
    // Past the end: clamped to the last keyframe.
    playGltfAnimation(result, 0, 10);
    expect(mesh.morphWeights[0]).toBeCloseTo(1, 6);
    expect(deformVertexOnCpu(mesh, upper)[0]).toBeCloseTo(rest[0] + 0.5 + 1, 5);
    expect(() => playGltfAnimation(result, 'run', 0)).toThrow(
      'playGltfAnimation: animation "run" does not exist; the document has 1 (walk)',
    );
  });
});
