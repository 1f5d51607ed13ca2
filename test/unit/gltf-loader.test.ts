import { type Document as GltfDocument, Document, Primitive, WebIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { mat4, quat, vec3 } from 'wgpu-matrix';
import type { Engine } from '../../engine/engine.js';
import { EngineError, MeshDataError } from '../../engine/engine-errors.js';
import { loadGltfAsync } from '../../engine/loaders/gltf-loader.js';
import { makeDemoGltfDocument, writeGlb } from '../../engine/loaders/gltf-build.js';
import { readVertexAttribute } from '../../engine/mesh-data.js';
import { createScene, type Scene } from '../../engine/scene.js';
import { meshUsesClockwise } from '../../engine/winding.js';

type Quat4 = [number, number, number, number];
type Trs = { t: [number, number, number]; r: Quat4; s: [number, number, number] };

const axisAngle = (axis: number[], angle: number): Quat4 => Array.from(quat.fromAxisAngle(axis, angle)) as Quat4;

const newScene = (): Scene => createScene({} as Engine);
const trsMatrix = ({ t, r, s }: Trs): Float32Array =>
  mat4.scale(mat4.multiply(mat4.translation(t), mat4.fromQuat(r)), s) as Float32Array;

function expectMatrix(actual: Float32Array, expected: Float32Array): void {
  for (let i = 0; i < 16; i++) expect(actual[i]).toBeCloseTo(expected[i], 5);
}

const parentTrs: Trs = { t: [1, 2, 3], r: axisAngle(Array.from(vec3.normalize([1, 1, 0])), 0.7), s: [2, 0.5, 1.5] };
const childTrs: Trs = { t: [-0.5, 0.25, 4], r: axisAngle([0, 0, 1], -1.1), s: [1, 3, 1] };
const trianglePositions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]);
const quadIndices = new Uint8Array([0, 1, 2, 2, 1, 3]);
const rawUvs = new Uint16Array([0, 0, 65535, 0, 0, 65535, 32768, 16384]);
const rawColors = new Uint8Array([255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 255, 51, 102, 153, 204]);

/** parent (mesh: 1 primitive) → child (mesh: 2 primitives), plus an unnamed root node with a mesh. */
function makeHierarchyDocument(): GltfDocument {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc.createAccessor('position', buffer).setType('VEC3').setArray(trianglePositions);
  const normal = doc
    .createAccessor('normal', buffer)
    .setType('VEC3')
    .setArray(new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]));
  const uv = doc.createAccessor('uv', buffer).setType('VEC2').setArray(rawUvs).setNormalized(true);
  const color = doc.createAccessor('color', buffer).setType('VEC4').setArray(rawColors).setNormalized(true);
  const indices = doc.createAccessor('indices', buffer).setType('SCALAR').setArray(quadIndices);
  const red = doc.createMaterial('red').setBaseColorFactor([1, 0, 0, 1]);
  const glass = doc.createMaterial('glass').setBaseColorFactor([0.2, 0.4, 0.6, 0.5]).setDoubleSided(true);
  const prim = (material: ReturnType<GltfDocument['createMaterial']> | null, withExtras = false): Primitive => {
    const p = doc
      .createPrimitive()
      .setAttribute('POSITION', position)
      .setAttribute('NORMAL', normal)
      .setIndices(indices)
      .setMaterial(material);
    return withExtras ? p.setAttribute('TEXCOORD_0', uv).setAttribute('COLOR_0', color) : p;
  };
  const parent = doc.createNode('parent').setTranslation(parentTrs.t).setRotation(parentTrs.r).setScale(parentTrs.s);
  const child = doc.createNode('child').setTranslation(childTrs.t).setRotation(childTrs.r).setScale(childTrs.s);
  parent.setMesh(doc.createMesh('p').addPrimitive(prim(red)));
  child.setMesh(doc.createMesh('c').addPrimitive(prim(glass, true)).addPrimitive(prim(null)));
  parent.addChild(child);
  const loose = doc
    .createNode('')
    .setTranslation([5, 0, 0])
    .setMesh(doc.createMesh('l').addPrimitive(prim(red)));
  doc.getRoot().setDefaultScene(doc.createScene().addChild(parent).addChild(loose));
  return doc;
}

describe('loadGltfAsync', () => {
  it('round-trips a 2-level hierarchy through GLB: world matrices, data, materials', async () => {
    const glb = await new WebIO().writeBinary(makeHierarchyDocument());
    const scene = newScene();
    const { meshes, document } = await loadGltfAsync(scene, glb);
    expect(document).toBeInstanceOf(Document);
    expect(meshes.map((m) => m.name)).toEqual(['parent/0', 'child/0', 'child/1', 'node2/0']);
    expect(scene.meshes).toEqual(meshes);
    const parentWorld = trsMatrix(parentTrs);
    expectMatrix(meshes[0].worldMatrix, parentWorld);
    expectMatrix(meshes[1].worldMatrix, mat4.multiply(parentWorld, trsMatrix(childTrs)) as Float32Array);
    expectMatrix(meshes[2].worldMatrix, meshes[1].worldMatrix);
    expectMatrix(meshes[3].worldMatrix, mat4.translation([5, 0, 0]) as Float32Array);
    for (const mesh of meshes) {
      expect(Array.from(mesh.positions)).toEqual(Array.from(trianglePositions));
      expect(mesh.geometry.indices).toBeInstanceOf(Uint16Array); // UNSIGNED_BYTE widened
      expect(Array.from(mesh.geometry.indices!)).toEqual(Array.from(quadIndices));
    }
    expect(meshes[0].material.baseColor).toEqual([1, 0, 0, 1]);
    expect(meshes[0].material.doubleSided).toBe(false);
    expect(meshes[1].material.baseColor.map((c) => Math.fround(c))).toEqual([0.2, 0.4, 0.6, 0.5].map(Math.fround));
    expect(meshes[1].material.doubleSided).toBe(true);
    expect(meshes[2].material.baseColor).toEqual([1, 1, 1, 1]);
    expect(meshes[0].material).toBe(meshes[3].material); // one glTF material → one weft material
  });

  it('decodes normalized integer uvs and colours to floats', async () => {
    const { meshes } = await loadGltfAsync(newScene(), await new WebIO().writeBinary(makeHierarchyDocument()));
    const mesh = meshes[1];
    const out = [0, 0, 0, 0];
    for (let v = 0; v < 4; v++) {
      readVertexAttribute(mesh.geometry, 'uv', v, out);
      expect(out[0]).toBeCloseTo(rawUvs[v * 2] / 65535, 6);
      expect(out[1]).toBeCloseTo(rawUvs[v * 2 + 1] / 65535, 6);
      readVertexAttribute(mesh.geometry, 'color', v, out);
      for (let c = 0; c < 4; c++) expect(out[c]).toBeCloseTo(rawColors[v * 4 + c] / 255, 6);
    }
    expect(mesh.geometry.buffers.find((b) => b.attributes[0].semantic === 'color')!.attributes[0].format).toBe(
      'float32x4',
    );
    expect(meshes[0].geometry.buffers.map((b) => b.attributes[0].semantic)).toEqual(['position', 'normal']);
  });

  it('applies options.worldMatrix on top and passes pickable / visible', async () => {
    const root = mat4.rotationY(0.3) as Float32Array;
    const { meshes } = await loadGltfAsync(newScene(), makeHierarchyDocument(), {
      worldMatrix: root,
      pickable: false,
      visible: false,
    });
    expectMatrix(meshes[0].worldMatrix, mat4.multiply(root, trsMatrix(parentTrs)) as Float32Array);
    expect(meshes.every((m) => !m.pickable && !m.visible)).toBe(true);
  });

  it('keeps triangle order under a mirroring world matrix: the engine takes the front face from the determinant', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const prim = doc
      .createPrimitive()
      .setAttribute(
        'POSITION',
        doc
          .createAccessor('p', buffer)
          .setType('VEC3')
          .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])),
      )
      .setAttribute(
        'NORMAL',
        doc
          .createAccessor('n', buffer)
          .setType('VEC3')
          .setArray(new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1])),
      );
    doc.createNode('mirror').setScale([-1, 1, 1]).setMesh(doc.createMesh().addPrimitive(prim));
    const { meshes } = await loadGltfAsync(newScene(), await new WebIO().writeBinary(doc));
    const mesh = meshes[0];
    // Not flipped a second time: the data is as stored, and the mesh is drawn with the clockwise front face.
    expect(mesh.geometry.indices ?? null).toBeNull();
    expect(meshUsesClockwise(mesh)).toBe(true);
    const world = [0, 1, 2].map((i) => vec3.transformMat4(mesh.positions.subarray(i * 3, i * 3 + 3), mesh.worldMatrix));
    // The world-space CCW normal of the stored order points away from glTF's intended front (+Z through the
    // inverse transpose); a clockwise front face is exactly that front.
    const faceNormal = vec3.cross(vec3.subtract(world[1], world[0]), vec3.subtract(world[2], world[0]));
    const shadingNormal = vec3.transformMat4Upper3x3([0, 0, 1], mat4.transpose(mat4.inverse(mesh.worldMatrix)));
    expect(vec3.dot(faceNormal, shadingNormal)).toBeLessThan(0);
  });

  it('loads the demo table: 5 meshes under a rotated, scaled parent with legs standing on y = 0', async () => {
    const { meshes } = await loadGltfAsync(newScene(), await writeGlb(makeDemoGltfDocument()));
    expect(meshes.map((m) => m.name)).toEqual(['top/0', 'leg0/0', 'leg1/0', 'leg2/0', 'leg3/0']);
    const parent = trsMatrix({ t: [0.5, 0, -0.25], r: axisAngle([0, 1, 0], Math.PI / 6), s: [1.25, 1.25, 1.25] });
    expectMatrix(meshes[0].worldMatrix, mat4.multiply(parent, mat4.translation([0, 0.74, 0])) as Float32Array);
    expect(new Set(meshes.map((m) => m.material.baseColor.join())).size).toBe(5);
    for (const leg of meshes.slice(1)) {
      let minY = Infinity;
      for (let v = 0; v < leg.geometry.vertexCount; v++)
        minY = Math.min(minY, vec3.transformMat4(leg.positions.subarray(v * 3, v * 3 + 3), leg.worldMatrix)[1]);
      expect(minY).toBeCloseTo(0, 5);
    }
  });
});

describe('loadGltfAsync refusals leave the scene untouched', () => {
  function docWithValidNodeAnd(extra: (doc: GltfDocument) => void): GltfDocument {
    const doc = makeHierarchyDocument();
    extra(doc);
    return doc;
  }

  async function expectRefusal(source: Uint8Array | GltfDocument, ...fragments: string[]): Promise<void> {
    const scene = newScene();
    const version = scene.structureVersion;
    const error = await loadGltfAsync(scene, source).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).api).toBe('loadGltfAsync');
    for (const fragment of fragments) expect((error as Error).message).toContain(fragment);
    expect(scene.meshes).toHaveLength(0);
    expect(scene.structureVersion).toBe(version);
  }

  it('refuses a LINES primitive (read from GLB), naming node, primitive and mode', async () => {
    const doc = docWithValidNodeAnd((d) => {
      const lines = d
        .createPrimitive()
        .setMode(Primitive.Mode.LINES)
        .setAttribute('POSITION', d.getRoot().listAccessors()[0]);
      d.createNode('wire').setMesh(d.createMesh().addPrimitive(lines));
    });
    await expectRefusal(await new WebIO().writeBinary(doc), 'node "wire" primitive 0', 'LINES', 'TRIANGLES');
  });

  it('refuses a skinned node whose primitive has no joints, and a CUBICSPLINE sampler without its tangents', async () => {
    await expectRefusal(
      docWithValidNodeAnd((d) => {
        const node = d.getRoot().listNodes()[1];
        node.setSkin(d.createSkin('rig').addJoint(node));
      }),
      'node "child" primitive 0',
      'belongs to a skinned node but has no JOINTS_0/WEIGHTS_0',
    );
    await expectRefusal(
      docWithValidNodeAnd((d) => {
        const times = d
          .createAccessor()
          .setType('SCALAR')
          .setArray(new Float32Array([0, 1]));
        // Two keyframes need 2 × (in-tangent, value, out-tangent) = 6 VEC3s; values only (2) is malformed.
        const values = d.createAccessor().setType('VEC3').setArray(new Float32Array(6));
        const sampler = d.createAnimationSampler().setInput(times).setOutput(values).setInterpolation('CUBICSPLINE');
        d.createAnimation('wave')
          .addSampler(sampler)
          .addChannel(
            d
              .createAnimationChannel()
              .setTargetNode(d.getRoot().listNodes()[0])
              .setTargetPath('translation')
              .setSampler(sampler),
          );
      }),
      'animation "wave" channel 0',
      'CUBICSPLINE over 2 keyframes needs 6 output elements, got 2',
    );
  });

  it('refuses a primitive without POSITION and a wrongly typed attribute', async () => {
    await expectRefusal(
      docWithValidNodeAnd((d) => d.createNode('empty').setMesh(d.createMesh().addPrimitive(d.createPrimitive()))),
      'node "empty" primitive 0',
      'POSITION',
    );
    await expectRefusal(
      docWithValidNodeAnd((d) => {
        const uv3 = d.createAccessor().setType('VEC3').setArray(new Float32Array(12));
        d.getRoot().listMeshes()[0].listPrimitives()[0].setAttribute('TEXCOORD_0', uv3);
      }),
      'node "parent" primitive 0',
      'TEXCOORD_0 is VEC3',
    );
  });

  it('reports mesh-data problems (index out of range) before creating anything', async () => {
    const doc = docWithValidNodeAnd((d) => {
      const bad = d
        .createAccessor()
        .setType('SCALAR')
        .setArray(new Uint16Array([0, 1, 9]));
      d.getRoot().listMeshes()[2].listPrimitives()[0].setIndices(bad);
    });
    const scene = newScene();
    await expect(loadGltfAsync(scene, doc)).rejects.toThrow(MeshDataError);
    expect(scene.meshes).toHaveLength(0);
  });

  it('refuses bad sources and options', async () => {
    await expectRefusal(new Uint8Array([1, 2, 3, 4]), 'GLB');
    await expectRefusal('model.glb' as never, 'source "model.glb"', 'Uint8Array');
    const doc = makeHierarchyDocument();
    const scene = newScene();
    await expect(loadGltfAsync(scene, doc, { worldMatrix: [1, 2, 3] })).rejects.toThrow(/loadGltfAsync.*worldMatrix/);
    await expect(loadGltfAsync(scene, doc, { worldMatrix: new Float32Array(16).fill(Number.NaN) })).rejects.toThrow(
      EngineError,
    );
    await expect(loadGltfAsync(scene, doc, { pickable: 'yes' as never })).rejects.toThrow(/pickable "yes"/);
    await expect(loadGltfAsync(scene, doc, { scale: 2 } as never)).rejects.toThrow(/unknown option "scale"/);
    await expect(loadGltfAsync(scene, doc, null as never)).rejects.toThrow(EngineError);
    expect(scene.meshes).toHaveLength(0);
  });
});
