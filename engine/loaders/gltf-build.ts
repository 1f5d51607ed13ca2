import { type Accessor, type Buffer, Document, type Material, type Node, WebIO } from '@gltf-transform/core';
import { makeBoxData } from '../primitives/box.js';

interface BoxAccessors {
  position: Accessor;
  normal: Accessor;
  uv: Accessor;
  indices: Accessor;
}

function addBoxAccessors(
  document: Document,
  buffer: Buffer,
  name: string,
  width: number,
  height: number,
  depth: number,
): BoxAccessors {
  const data = makeBoxData({ width, height, depth });
  return {
    position: document.createAccessor(`${name}:position`, buffer).setType('VEC3').setArray(data.positions!),
    normal: document.createAccessor(`${name}:normal`, buffer).setType('VEC3').setArray(data.normals!),
    uv: document.createAccessor(`${name}:uv`, buffer).setType('VEC2').setArray(data.uvs!),
    indices: document.createAccessor(`${name}:indices`, buffer).setType('SCALAR').setArray(data.indices!),
  };
}

/** A node with its own one-primitive mesh; nodes may share accessors and differ in material. */
function addBoxNode(
  document: Document,
  name: string,
  box: BoxAccessors,
  material: Material,
  translation: [number, number, number],
): Node {
  const primitive = document
    .createPrimitive()
    .setAttribute('POSITION', box.position)
    .setAttribute('NORMAL', box.normal)
    .setAttribute('TEXCOORD_0', box.uv)
    .setIndices(box.indices)
    .setMaterial(material);
  return document
    .createNode(name)
    .setMesh(document.createMesh(name).addPrimitive(primitive))
    .setTranslation(translation);
}

/**
 * The demo's glTF model: a table (top + 4 legs, each its own colour) under a parent node
 * that is rotated 30° about Y, scaled 1.25 and moved to (0.5, 0, -0.25).
 * @internal
 */
export function makeDemoGltfDocument(): Document {
  const document = new Document();
  const buffer = document.createBuffer('table');
  const colour = (name: string, rgba: [number, number, number, number]): Material =>
    document.createMaterial(name).setBaseColorFactor(rgba);
  const top = addBoxAccessors(document, buffer, 'top', 1.2, 0.08, 0.8);
  const leg = addBoxAccessors(document, buffer, 'leg', 0.08, 0.7, 0.08);
  const table = document
    .createNode('table')
    .setTranslation([0.5, 0, -0.25])
    .setRotation([0, Math.sin(Math.PI / 12), 0, Math.cos(Math.PI / 12)])
    .setScale([1.25, 1.25, 1.25]);
  table.addChild(addBoxNode(document, 'top', top, colour('oak', [0.62, 0.42, 0.24, 1]), [0, 0.74, 0]));
  const legColours: [number, number, number, number][] = [
    [0.85, 0.2, 0.2, 1],
    [0.2, 0.7, 0.3, 1],
    [0.2, 0.4, 0.85, 1],
    [0.9, 0.8, 0.2, 1],
  ];
  [
    [-0.52, -0.32],
    [0.52, -0.32],
    [0.52, 0.32],
    [-0.52, 0.32],
  ].forEach(([x, z], i) => {
    table.addChild(addBoxNode(document, `leg${i}`, leg, colour(`leg${i}`, legColours[i]), [x, 0.35, z]));
  });
  document.getRoot().setDefaultScene(document.createScene('demo').addChild(table));
  return document;
}

/** @internal Serialises a document to GLB bytes. */
export async function writeGlb(document: Document): Promise<Uint8Array> {
  return new WebIO().writeBinary(document);
}
