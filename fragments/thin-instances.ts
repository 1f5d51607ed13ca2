import type { Fragment } from './fragment-types.js';

/** Condition that turns thin instances on. */
export const thinInstancesCondition = 'thinInstances';

const source = `// The instance matrix's w lanes are a per-instance payload: the transform uses 0, 0, 0, 1.
fn instanceMatrix(c0: vec4f, c1: vec4f, c2: vec4f, c3: vec4f) -> mat4x4f {
  return mat4x4f(vec4f(c0.xyz, 0.0), vec4f(c1.xyz, 0.0), vec4f(c2.xyz, 0.0), vec4f(c3.xyz, 1.0));
}

// Inverse-transpose of the instance's 3x3 up to scale: the cofactor matrix (callers normalise).
fn instanceNormalMatrix(c0: vec4f, c1: vec4f, c2: vec4f) -> mat3x3f {
  let a = c0.xyz;
  let b = c1.xyz;
  let c = c2.xyz;
  return mat3x3f(cross(b, c), cross(c, a), cross(a, b)) * sign(dot(a, cross(b, c)));
}
`;

/** Thin instances: four per-instance float32x4 matrix columns (when `thinInstances`) and the matrix helpers. */
export function makeThinInstancesFragment(): Fragment {
  const column = (i: number) => ({
    semantic: `instance${i}`,
    format: 'float32x4' as const,
    stepMode: 'instance' as const,
    when: thinInstancesCondition,
  });
  return {
    id: 'thin-instances',
    source,
    vertexInputs: [column(0), column(1), column(2), column(3)],
  };
}
