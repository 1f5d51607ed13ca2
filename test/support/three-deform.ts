// Morph targets and linear-blend skinning applied on the CPU by three.js's own code (Mesh.getVertexPosition,
// SkinnedMesh.applyBoneTransform, Skeleton.update) on the same data a weft mesh gets: the independent reference for
// deformed meshes. Pure (no weft, no Node API).
import { Bone, BufferAttribute, BufferGeometry, Matrix3, Matrix4, Mesh, Skeleton, SkinnedMesh, Vector3 } from 'three';

/** A deformable mesh as plain arrays (weft's MeshData field names). */
export interface DeformInput {
  positions: Float32Array;
  normals?: Float32Array | null;
  indices?: Uint16Array | Uint32Array | null;
  /** Four influences per vertex; `joints2`/`weights2` hold influences 5..8. */
  joints?: ArrayLike<number> | null;
  weights?: ArrayLike<number> | null;
  joints2?: ArrayLike<number> | null;
  weights2?: ArrayLike<number> | null;
  morphPositions?: Float32Array[];
  morphNormals?: Float32Array[];
  morphWeights?: number[];
}

/** The deformed positions (three's code) and normals (three's skinning shader rule: Σ w · boneMatrix₃ₓ₃ · n). */
export interface Deformed {
  positions: Float32Array;
  normals: Float32Array | null;
}

function geometryOf(input: DeformInput): BufferGeometry {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(input.positions, 3));
  if (input.morphPositions?.length) {
    g.morphAttributes.position = input.morphPositions.map((d) => new BufferAttribute(d, 3));
    g.morphTargetsRelative = true; // glTF / weft deltas
  }
  return g;
}

/** Morphs then skins every vertex with three.js; `boneMatrices` are column-major 4×4 per bone (world × inverse bind). */
export function deformWithThree(input: DeformInput, boneMatrices?: Float32Array): Deformed {
  const n = input.positions.length / 3;
  const morphed = new Mesh(geometryOf(input));
  if (input.morphWeights) {
    morphed.updateMorphTargets();
    morphed.morphTargetInfluences = [...input.morphWeights];
  }
  // three skins four influences per vertex; blending is linear in the weights, so 8 influences = two halves summed.
  const halves: SkinnedMesh[] = [];
  const matrices: Matrix4[] = [];
  if (boneMatrices && input.joints && input.weights) {
    const count = boneMatrices.length / 16;
    const bones = Array.from({ length: count }, (_, j) => {
      const bone = new Bone();
      bone.matrixAutoUpdate = false;
      bone.matrix.fromArray(boneMatrices, j * 16);
      matrices.push(bone.matrix.clone());
      return bone;
    });
    const skeleton = new Skeleton(
      bones,
      bones.map(() => new Matrix4()),
    );
    for (const bone of bones) bone.updateMatrixWorld(true);
    skeleton.update();
    for (const [joints, weights] of [
      [input.joints, input.weights],
      [input.joints2, input.weights2],
    ] as const) {
      if (!joints || !weights) continue;
      const g = geometryOf(input);
      g.setAttribute('skinIndex', new BufferAttribute(Float32Array.from(joints), 4));
      g.setAttribute('skinWeight', new BufferAttribute(Float32Array.from(weights), 4));
      const skinned = new SkinnedMesh(g);
      skinned.bind(skeleton, new Matrix4());
      halves.push(skinned);
    }
  }
  const positions = new Float32Array(n * 3);
  const normals = input.normals ? new Float32Array(n * 3) : null;
  const p = new Vector3();
  const sum = new Vector3();
  for (let v = 0; v < n; v++) {
    morphed.getVertexPosition(v, p);
    if (halves.length) {
      sum.set(0, 0, 0);
      for (const half of halves) sum.add(half.applyBoneTransform(v, p.clone()));
      p.copy(sum);
    }
    p.toArray(positions, v * 3);
    if (!normals || !input.normals) continue;
    // three's morphnormal_vertex: n + Σ w Δn; skinnormal_vertex: skinMatrix (Σ w boneMatrix) × n.
    const normal = new Vector3().fromArray(input.normals, v * 3);
    input.morphNormals?.forEach((d, t) =>
      normal.addScaledVector(new Vector3().fromArray(d, v * 3), input.morphWeights![t]),
    );
    if (halves.length) {
      const skinned = new Vector3();
      for (const [joints, weights] of [
        [input.joints, input.weights],
        [input.joints2, input.weights2],
      ] as const) {
        for (let k = 0; joints && weights && k < 4; k++) {
          const w = weights[v * 4 + k];
          if (w)
            skinned.addScaledVector(
              normal.clone().applyMatrix3(new Matrix3().setFromMatrix4(matrices[joints[v * 4 + k]])),
              w,
            );
        }
      }
      normal.copy(skinned);
    }
    normal.toArray(normals, v * 3); // not normalised: the rasteriser interpolates the unnormalised vertex normal
  }
  return { positions, normals };
}
