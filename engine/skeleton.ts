import { describeValue } from '../core/errors.js';
import { EngineError } from './engine-errors.js';

/** Bone matrices in mesh space (bone world × inverse bind), column-major, 16 floats each. */
export interface Skeleton {
  readonly name: string;
  readonly boneCount: number;
  readonly matrices: Float32Array<ArrayBuffer>;
  /** Bumped by `setBoneMatrix`; renderers re-upload the bone texture when it changes. */
  version: number;
}

/**
 * Makes a skeleton of `boneCount` bones, all identity.
 * @throws {EngineError} when the bone count is not an integer in 1..4096
 */
export function makeSkeleton(boneCount: number, name = 'skeleton'): Skeleton {
  if (!Number.isInteger(boneCount) || boneCount < 1 || boneCount > 4096) {
    throw new EngineError(
      'makeSkeleton',
      'bad-size',
      `boneCount ${describeValue(boneCount)} must be an integer in 1..4096`,
    );
  }
  const matrices = new Float32Array(boneCount * 16);
  for (let b = 0; b < boneCount; b++) matrices.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], b * 16);
  return { name, boneCount, matrices, version: 0 };
}

/**
 * Sets bone `index`'s matrix (mesh space) and marks the skeleton changed.
 * @throws {EngineError} when the bone index is out of range or the matrix is not 16 finite numbers
 */
export function setBoneMatrix(skeleton: Skeleton, index: number, matrix: ArrayLike<number>): void {
  if (!Number.isInteger(index) || index < 0 || index >= skeleton.boneCount) {
    throw new EngineError(
      'setBoneMatrix',
      'out-of-range',
      `bone ${describeValue(index)} is outside 0..${skeleton.boneCount - 1} of skeleton "${skeleton.name}"`,
    );
  }
  if (matrix?.length !== 16 || !Array.from(matrix).every(Number.isFinite)) {
    throw new EngineError(
      'setBoneMatrix',
      'bad-option',
      `bone ${index} matrix ${describeValue(matrix)} must be 16 finite numbers`,
    );
  }
  skeleton.matrices.set(Array.from(matrix), index * 16);
  skeleton.version++;
}
