import {
  type Accessor,
  type Animation as GltfAnimation,
  Document,
  Primitive,
  WebIO,
  type Material as GltfMaterial,
  type Node as GltfNode,
  type Skin as GltfSkin,
} from '@gltf-transform/core';
import { mat4 } from 'wgpu-matrix';
import { describeValue } from '../../core/errors.js';
import { checkOptionKeys } from '../../core/options.js';
import { EngineError, engineOptionError } from '../engine-errors.js';
import { makeStandardMaterial, type StandardMaterial } from '../material.js';
import { createMeshFromData, disposeMesh, type Mesh } from '../mesh.js';
import { makeMeshGeometry, type MeshData } from '../mesh-data.js';
import { makeSkeleton, type Skeleton } from '../skeleton.js';
import { updateSkinBones } from './gltf-animation.js';
import type { Scene } from '../scene.js';

/** Options of `loadGltfAsync`. */
export interface GltfLoadOptions {
  /** Column-major matrix applied on top of every node's world matrix (default identity). */
  worldMatrix?: ArrayLike<number>;
  pickable?: boolean;
  visible?: boolean;
}

/** @internal A glTF skin as weft drives it: its joints (document nodes) and the skeleton whose bones follow them. */
export interface GltfSkinBinding {
  skin: GltfSkin;
  joints: GltfNode[];
  /** 16 floats per joint. */
  inverseBind: Float32Array;
  skeleton: Skeleton;
}

/** @internal Which document node a created mesh follows (skinned meshes follow their joints instead). */
export interface GltfMeshBinding {
  mesh: Mesh;
  node: GltfNode;
  skin: GltfSkinBinding | null;
}

/** What `loadGltfAsync` made: one mesh per triangle primitive of every node with a mesh, and the document. */
export interface GltfLoadResult {
  meshes: Mesh[];
  document: Document;
  skins: GltfSkinBinding[];
  bindings: GltfMeshBinding[];
  /** The root matrix applied on top of the document (options.worldMatrix or identity). */
  root: Float32Array;
}

interface PlannedMesh {
  name: string;
  data: MeshData;
  material: StandardMaterial;
  worldMatrix: Float32Array;
  node: GltfNode;
  skin: GltfSkinBinding | null;
  morphTargets?: { positions: Float32Array[]; normals?: Float32Array[] };
  morphWeights?: number[];
}

const api = 'loadGltfAsync';
const modeNames = ['POINTS', 'LINES', 'LINE_LOOP', 'LINE_STRIP', 'TRIANGLES', 'TRIANGLE_STRIP', 'TRIANGLE_FAN'];
const floatComponentType = 5126;

function refuse(where: string, message: string): never {
  throw new EngineError(api, 'unsupported', `${where}: ${message}`);
}

/** Refuses a sampler playGltfAnimation could not sample: unknown interpolation, no keyframes, unsorted times, or an
 * output count that is not keyframes × (3 for CUBICSPLINE: in-tangent, value, out-tangent) × values per keyframe. */
function checkAnimation(animation: GltfAnimation): void {
  animation.listChannels().forEach((channel, c) => {
    const where = `animation ${JSON.stringify(animation.getName())} channel ${c}`;
    const sampler = channel.getSampler();
    const input = sampler?.getInput();
    const output = sampler?.getOutput();
    if (!sampler || !input || !output) return; // nothing to play
    const interpolation = sampler.getInterpolation();
    if (!['STEP', 'LINEAR', 'CUBICSPLINE'].includes(interpolation))
      refuse(where, `interpolation ${describeValue(interpolation)} must be STEP, LINEAR or CUBICSPLINE`);
    const times = input.getArray();
    if (!times || times.length === 0) refuse(where, 'the sampler has no keyframe times');
    for (let k = 1; k < times.length; k++)
      if (!(times[k] > times[k - 1]))
        refuse(where, `keyframe times must increase strictly; time ${k} is ${times[k]} after ${times[k - 1]}`);
    const perKey = (interpolation === 'CUBICSPLINE' ? 3 : 1) * times.length;
    if (output.getCount() % perKey !== 0 || (channel.getTargetPath() !== 'weights' && output.getCount() !== perKey))
      refuse(
        where,
        `${interpolation} over ${times.length} keyframes needs ${perKey} output elements${channel.getTargetPath() === 'weights' ? ' × morph targets' : ''}, got ${output.getCount()}`,
      );
  });
}

function checkOptions(options: GltfLoadOptions): Float32Array | null {
  if (options === null || typeof options !== 'object')
    throw new EngineError(api, 'bad-option', `options ${describeValue(options)} must be an object`);
  checkOptionKeys(api, options, ['worldMatrix', 'pickable', 'visible'], engineOptionError);
  for (const key of ['pickable', 'visible'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean')
      throw new EngineError(api, 'bad-option', `${key} ${describeValue(options[key])} must be a boolean`);
  }
  const matrix = options.worldMatrix;
  if (matrix === undefined) return null;
  if (
    (!Array.isArray(matrix) && !(matrix instanceof Float32Array)) ||
    matrix.length !== 16 ||
    !Array.from(matrix).every(Number.isFinite)
  ) {
    throw new EngineError(
      api,
      'bad-option',
      `worldMatrix ${describeValue(matrix)} must be 16 finite numbers (column-major 4×4)`,
    );
  }
  return Float32Array.from(matrix);
}

/** Reads a float attribute (normalized integers decoded to 0..1 / -1..1) into a tight Float32Array. */
function readFloats(where: string, semantic: string, accessor: Accessor, sizes: readonly number[]): Float32Array {
  const size = accessor.getElementSize();
  if (!sizes.includes(size))
    refuse(
      where,
      `${semantic} is ${accessor.getType()}; weft reads it as ${sizes.map((s) => (s === 1 ? 'SCALAR' : `VEC${s}`)).join(' or ')}`,
    );
  const array = accessor.getArray();
  if (accessor.getComponentType() === floatComponentType && array instanceof Float32Array) return array.slice();
  const out = new Float32Array(accessor.getCount() * size);
  const element: number[] = [];
  for (let i = 0; i < accessor.getCount(); i++) out.set(accessor.getElement(i, element), i * size);
  return out;
}

function readIndices(where: string, accessor: Accessor): Uint16Array | Uint32Array {
  const array = accessor.getArray();
  if (array instanceof Uint8Array) return Uint16Array.from(array);
  if (array instanceof Uint16Array || array instanceof Uint32Array) return array.slice();
  refuse(
    where,
    `indices of component type ${accessor.getComponentType()} are not UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT`,
  );
}

function readJoints(where: string, semantic: string, accessor: Accessor): Uint16Array {
  const array = accessor.getArray();
  if (accessor.getElementSize() !== 4 || !(array instanceof Uint8Array || array instanceof Uint16Array))
    refuse(where, `${semantic} must be VEC4 of UNSIGNED_BYTE or UNSIGNED_SHORT`);
  return Uint16Array.from(array);
}

function readPrimitive(where: string, primitive: Primitive): MeshData {
  const mode = primitive.getMode();
  if (mode !== Primitive.Mode.TRIANGLES)
    refuse(where, `mode ${modeNames[mode] ?? mode} is not supported; only TRIANGLES`);
  const attribute = (semantic: string, sizes: readonly number[]): Float32Array | undefined => {
    const accessor = primitive.getAttribute(semantic);
    return accessor ? readFloats(where, semantic, accessor, sizes) : undefined;
  };
  const positions = attribute('POSITION', [3]);
  if (!positions) refuse(where, 'has no POSITION attribute');
  const colorAccessor = primitive.getAttribute('COLOR_0');
  const data: MeshData = {
    positions,
    normals: attribute('NORMAL', [3]),
    uvs: attribute('TEXCOORD_0', [2]),
    uv2s: attribute('TEXCOORD_1', [2]),
    tangents: attribute('TANGENT', [4]),
    colors: attribute('COLOR_0', [3, 4]),
    colorComponents: colorAccessor ? (colorAccessor.getElementSize() as 3 | 4) : undefined,
  };
  for (const [js, ws, jf, wf] of [
    ['JOINTS_0', 'WEIGHTS_0', 'joints', 'weights'],
    ['JOINTS_1', 'WEIGHTS_1', 'joints2', 'weights2'],
  ] as const) {
    const joints = primitive.getAttribute(js);
    if (!joints) continue;
    data[jf] = readJoints(where, js, joints);
    data[wf] = attribute(ws, [4]);
  }
  const indexAccessor = primitive.getIndices();
  // glTF: a node whose world matrix mirrors (negative determinant) shows its triangles clockwise. weft's renderers
  // and pickers take the front face from the world matrix's determinant already (engine/winding.ts): keep the data.
  const indices = indexAccessor ? readIndices(where, indexAccessor) : undefined;
  if (indices) data.indices = indices;
  return data;
}

function convertMaterial(
  where: string,
  material: GltfMaterial | null,
  cache: Map<GltfMaterial, StandardMaterial>,
): StandardMaterial {
  if (!material) return makeStandardMaterial({ name: 'gltf:default' });
  let converted = cache.get(material);
  if (!converted) {
    try {
      converted = makeStandardMaterial({
        name: material.getName() || `gltf:material${cache.size}`,
        baseColor: material.getBaseColorFactor(),
        doubleSided: material.getDoubleSided(),
      });
    } catch (error) {
      refuse(where, `material ${JSON.stringify(material.getName())}: ${(error as Error).message}`);
    }
    cache.set(material, converted);
  }
  return converted;
}

function bindSkin(skin: GltfSkin, skins: Map<GltfSkin, GltfSkinBinding>): GltfSkinBinding {
  let binding = skins.get(skin);
  if (binding) return binding;
  const joints = skin.listJoints();
  if (joints.length === 0) refuse(`skin ${JSON.stringify(skin.getName())}`, 'has no joints');
  const inverseBind = new Float32Array(joints.length * 16);
  const accessor = skin.getInverseBindMatrices();
  for (let j = 0; j < joints.length; j++)
    inverseBind.set(accessor ? accessor.getElement(j, []) : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], j * 16);
  binding = { skin, joints, inverseBind, skeleton: makeSkeleton(joints.length, skin.getName() || `skin${skins.size}`) };
  updateSkinBones(binding);
  skins.set(skin, binding);
  return binding;
}

function planNode(
  node: GltfNode,
  index: number,
  root: Float32Array | null,
  materials: Map<GltfMaterial, StandardMaterial>,
  skins: Map<GltfSkin, GltfSkinBinding>,
  plans: PlannedMesh[],
): void {
  const mesh = node.getMesh();
  if (!mesh) return;
  const nodeName = node.getName() || `node${index}`;
  const skinNode = node.getSkin();
  const skin = skinNode ? bindSkin(skinNode, skins) : null;
  const nodeWorld = skin ? Float32Array.from(mat4.identity()) : Float32Array.from(node.getWorldMatrix());
  const worldMatrix = root ? (mat4.multiply(root, nodeWorld) as Float32Array) : nodeWorld;
  if (!worldMatrix.every(Number.isFinite)) refuse(`node ${JSON.stringify(nodeName)}`, 'world matrix is not finite');
  mesh.listPrimitives().forEach((primitive, primitiveIndex) => {
    const name = `${nodeName}/${primitiveIndex}`;
    const where = `node ${JSON.stringify(nodeName)} primitive ${primitiveIndex}`;
    const data = readPrimitive(where, primitive);
    makeMeshGeometry(name, data, api); // throws MeshDataError now rather than halfway through creation
    if (!!data.joints !== !!skin)
      refuse(
        where,
        skin ? 'belongs to a skinned node but has no JOINTS_0/WEIGHTS_0' : 'has JOINTS_0 but its node has no skin',
      );
    const targets = primitive.listTargets();
    const morph = targets.length
      ? {
          positions: targets.map((t, k) =>
            t.getAttribute('POSITION')
              ? readFloats(`${where} target ${k}`, 'POSITION', t.getAttribute('POSITION')!, [3])
              : new Float32Array(data.positions!.length),
          ),
          normals:
            targets.every((t) => t.getAttribute('NORMAL')) && data.normals
              ? targets.map((t, k) => readFloats(`${where} target ${k}`, 'NORMAL', t.getAttribute('NORMAL')!, [3]))
              : undefined,
        }
      : undefined;
    const weights = node.getWeights().length ? node.getWeights() : mesh.getWeights();
    plans.push({
      name,
      data,
      material: convertMaterial(where, primitive.getMaterial(), materials),
      worldMatrix,
      node,
      skin,
      morphTargets: morph,
      morphWeights: morph ? targets.map((_, k) => weights[k] ?? 0) : undefined,
    });
  });
}

/**
 * Adds the static triangle meshes of a glTF document (GLB bytes or a `Document`) to the scene.
 * Each node's world matrix becomes its meshes' world matrix; materials keep base colour factor and
 * doubleSided only (textures, alphaMode, emissive and extensions are ignored). Skins become skeletons
 * (bones = joint world × inverse bind) and morph targets mesh morph targets; `playGltfAnimation` drives
 * them (STEP, LINEAR and CUBICSPLINE samplers). Non-TRIANGLES primitives and malformed samplers throw; all checks run
 * before any mesh is made.
 * @throws {EngineError} when the bytes are not a glTF/GLB weft can load (e.g. a non-triangle mesh, a sampler whose output count does not fit its keyframes)
 * @internal
 */
export async function loadGltfAsync(
  scene: Scene,
  source: Uint8Array | Document,
  options: GltfLoadOptions = {},
): Promise<GltfLoadResult> {
  const root = checkOptions(options);
  let document: Document;
  if (source instanceof Document) {
    document = source;
  } else if (source instanceof Uint8Array) {
    try {
      document = await new WebIO().readBinary(source);
    } catch (error) {
      throw new EngineError(
        api,
        'bad-data',
        `could not read the GLB bytes (${describeValue(source)}): ${(error as Error).message}`,
      );
    }
  } else {
    throw new EngineError(
      api,
      'bad-option',
      `source ${describeValue(source)} must be GLB bytes (Uint8Array) or a @gltf-transform/core Document`,
    );
  }
  if (scene.disposed) throw new EngineError(api, 'disposed', 'the scene was disposed while the glTF was being read');
  const plans: PlannedMesh[] = [];
  const materials = new Map<GltfMaterial, StandardMaterial>();
  const skins = new Map<GltfSkin, GltfSkinBinding>();
  for (const animation of document.getRoot().listAnimations()) checkAnimation(animation);
  document
    .getRoot()
    .listNodes()
    .forEach((node, index) => planNode(node, index, root, materials, skins, plans));
  const meshes: Mesh[] = [];
  const bindings: GltfMeshBinding[] = [];
  try {
    for (const plan of plans) {
      const mesh = createMeshFromData(scene, plan.name, plan.data, {
        material: plan.material,
        worldMatrix: plan.worldMatrix,
        pickable: options.pickable,
        visible: options.visible,
        skeleton: plan.skin?.skeleton,
        morphTargets: plan.morphTargets,
        morphWeights: plan.morphWeights,
      });
      meshes.push(mesh);
      bindings.push({ mesh, node: plan.node, skin: plan.skin });
    }
  } catch (error) {
    for (const mesh of meshes) disposeMesh(mesh);
    throw error;
  }
  return { meshes, document, skins: [...skins.values()], bindings, root: root ?? Float32Array.from(mat4.identity()) };
}
