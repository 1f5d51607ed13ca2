import { mat4d, vec3d } from 'wgpu-matrix';
import { describeValue } from '../../core/errors.js';
import { type Aabb, transformAabb } from '../../engine/bounds.js';
import { CpuPickError } from './cpu-pick-error.js';
import { evaluatePolynomial, polynomialRootsInInterval } from './polynomial-roots.js';

type Vec3 = [number, number, number];

interface EntityBase {
  name: string;
  /** Column-major local → world (affine). */
  worldMatrix: ArrayLike<number>;
}

/** An exact analytic stand-in for a non-mesh entity, in its local frame (shapes match weft's primitives). */
export type AnalyticTwin = EntityBase &
  (
    | { kind: 'sphere'; radius: number }
    | { kind: 'box'; halfExtents: readonly [number, number, number] }
    /** Ring in the XZ plane around Y: `radius` to the tube's centre, `tube` the tube's radius. */
    | { kind: 'torus'; radius: number; tube: number }
    /** Along Y, `height` is the total length, caps included. */
    | { kind: 'capsule'; radius: number; height: number }
  );

/** A conservative box around an entity (local bounds + world matrix); it abstains when it contains the ray origin. */
export interface BoundingProxy extends EntityBase {
  kind: 'proxy';
  bounds: Aabb;
}

/** Something pickable that is not a triangle mesh. */
export type PickEntity = AnalyticTwin | BoundingProxy;

/** Where a ray hits an entity: world distance and point, unit world normal (outward). */
export interface EntityHit {
  entity: PickEntity;
  distance: number;
  point: Vec3;
  normal: Vec3;
}

const positive = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v > 0;

/** @internal Throws a CpuPickError naming the entity and field when it is malformed. */
export function checkEntity(api: string, entity: PickEntity): void {
  const bad = (field: string, value: unknown, allowed: string): never => {
    throw new CpuPickError(
      api,
      'bad-twin',
      `entity ${JSON.stringify(entity?.name)}: ${field} ${describeValue(value)} ${allowed}`,
    );
  };
  if (!entity || typeof entity !== 'object')
    bad('entity', entity, 'must be an analytic twin or a bounding proxy object');
  const m = entity.worldMatrix;
  if (m?.length !== 16 || !Array.from(m).every(Number.isFinite) || mat4d.determinant(Array.from(m)) === 0)
    bad('worldMatrix', m, 'must be 16 finite numbers of an invertible column-major matrix');
  switch (entity.kind) {
    case 'sphere':
      if (!positive(entity.radius)) bad('radius', entity.radius, 'must be a finite number > 0');
      break;
    case 'box':
      if (!Array.isArray(entity.halfExtents) || entity.halfExtents.length !== 3 || !entity.halfExtents.every(positive))
        bad('halfExtents', entity.halfExtents, 'must be 3 finite numbers > 0');
      break;
    case 'torus':
      if (!positive(entity.radius) || !positive(entity.tube) || entity.tube >= entity.radius)
        bad('tube', entity.tube, `must be > 0 and < radius ${entity.radius}`);
      break;
    case 'capsule':
      if (!positive(entity.radius) || !positive(entity.height) || entity.height < 2 * entity.radius)
        bad('height', entity.height, `must be >= 2 × radius ${entity.radius}`);
      break;
    case 'proxy':
      if (!entity.bounds || ![0, 1, 2].every((a) => entity.bounds.min[a] <= entity.bounds.max[a]))
        bad('bounds', entity.bounds, 'must be a non-empty Aabb');
      break;
    default:
      bad('kind', (entity as { kind: unknown }).kind, 'must be one of sphere, box, torus, capsule, proxy');
  }
}

/** @internal Local bounds of an entity. */
export function getEntityLocalBounds(entity: PickEntity): Aabb {
  const box = (x: number, y: number, z: number): Aabb => ({ min: [-x, -y, -z], max: [x, y, z] });
  switch (entity.kind) {
    case 'sphere':
      return box(entity.radius, entity.radius, entity.radius);
    case 'box':
      return box(...(entity.halfExtents as [number, number, number]));
    case 'torus':
      return box(entity.radius + entity.tube, entity.tube, entity.radius + entity.tube);
    case 'capsule':
      return box(entity.radius, entity.height / 2, entity.radius);
    case 'proxy':
      return entity.bounds;
  }
}

/** @internal World bounds of an entity. */
export function getEntityWorldBounds(entity: PickEntity): Aabb {
  return transformAabb(getEntityLocalBounds(entity), Float32Array.from(entity.worldMatrix));
}

/** Smallest root of a·t² + 2b·t + c in (tMin, tMax) that `keep` accepts, or Infinity (cancellation-free form). */
function quadratic(
  a: number,
  b: number,
  c: number,
  tMin: number,
  tMax: number,
  keep: (t: number) => boolean = () => true,
): number {
  const disc = b * b - a * c;
  if (!(disc >= 0) || a === 0) return Infinity;
  const q = -(b + Math.sign(b || 1) * Math.sqrt(disc));
  const roots = [q / a, q !== 0 ? c / q : -q / a].sort((x, y) => x - y);
  for (const t of roots) if (t > tMin && t < tMax && keep(t)) return t;
  return Infinity;
}

/** Ray-torus (axis Y) in the torus frame: the quartic in the distance from the ray's closest approach to the centre. */
function torusDistance(R: number, r: number, o: Float64Array, d: Float64Array, tMin: number, tMax: number): number {
  const len = vec3d.length(d);
  const u = vec3d.scale(d, 1 / len);
  // Work in units of R, from the point of the ray closest to the centre: coefficients stay O(1).
  const s0 = -vec3d.dot(o, u);
  const c = vec3d.scale(vec3d.add(o, vec3d.scale(u, s0)), 1 / R);
  const rho = r / R;
  const reach = (1 + rho) ** 2 - vec3d.dot(c, c);
  if (reach < 0) return Infinity;
  const half = Math.sqrt(reach);
  const lo = Math.max(-half, (tMin * len - s0) / R);
  const hi = Math.min(half, (tMax * len - s0) / R);
  const n = vec3d.dot(c, u);
  const k = vec3d.dot(c, c) + 1 - rho * rho;
  const a = u[0] * u[0] + u[2] * u[2];
  const b = c[0] * u[0] + c[2] * u[2];
  const coefficients = [
    k * k - 4 * (c[0] * c[0] + c[2] * c[2]),
    4 * n * k - 8 * b,
    4 * n * n + 2 * k - 4 * a,
    4 * n,
    1,
  ];
  const touch = 1e-12 * Math.max(...coefficients.map(Math.abs));
  for (const x of polynomialRootsInInterval(coefficients, lo, hi, touch)) {
    const t = (s0 + x * R) / len;
    if (t > tMin && t < tMax && Math.abs(evaluatePolynomial(coefficients, x)) <= 1e-6) return t;
  }
  return Infinity;
}

/** Distance of the local ray o + t·d to the entity's surface in (tMin, tMax), and the local normal there. */
function localHit(
  entity: PickEntity,
  o: Float64Array,
  d: Float64Array,
  tMin: number,
  tMax: number,
): { t: number; normal: Float64Array } | null {
  const at = (t: number): Float64Array => vec3d.add(o, vec3d.scale(d, t));
  switch (entity.kind) {
    case 'sphere': {
      const t = quadratic(vec3d.dot(d, d), vec3d.dot(o, d), vec3d.dot(o, o) - entity.radius ** 2, tMin, tMax);
      return t < Infinity ? { t, normal: at(t) } : null;
    }
    case 'capsule': {
      const { radius } = entity;
      const half = entity.height / 2 - radius;
      const side = quadratic(
        d[0] * d[0] + d[2] * d[2],
        o[0] * d[0] + o[2] * d[2],
        o[0] * o[0] + o[2] * o[2] - radius * radius,
        tMin,
        tMax,
        (t) => Math.abs(at(t)[1]) <= half,
      );
      let best = side < Infinity ? { t: side, normal: vec3d.create(at(side)[0], 0, at(side)[2]) } : null;
      for (const sign of [1, -1]) {
        const oc = vec3d.create(o[0], o[1] - sign * half, o[2]);
        const t = quadratic(
          vec3d.dot(d, d),
          vec3d.dot(oc, d),
          vec3d.dot(oc, oc) - radius * radius,
          tMin,
          best ? best.t : tMax,
          (t) => sign * at(t)[1] >= half,
        );
        if (t < Infinity) best = { t, normal: vec3d.add(oc, vec3d.scale(d, t)) };
      }
      return best;
    }
    case 'torus': {
      const t = torusDistance(entity.radius, entity.tube, o, d, tMin, tMax);
      if (t === Infinity) return null;
      const p = at(t);
      const g = vec3d.dot(p, p) + entity.radius ** 2 - entity.tube ** 2;
      return {
        t,
        normal: vec3d.create(
          g * p[0] - 2 * entity.radius ** 2 * p[0],
          g * p[1],
          g * p[2] - 2 * entity.radius ** 2 * p[2],
        ),
      };
    }
    case 'box':
    case 'proxy': {
      const lo = entity.kind === 'box' ? entity.halfExtents.map((h) => -h) : entity.bounds.min;
      const hi = entity.kind === 'box' ? entity.halfExtents : entity.bounds.max;
      let tn = -Infinity,
        tf = Infinity,
        enterAxis = -1,
        exitAxis = -1;
      for (let a = 0; a < 3; a++) {
        if (d[a] === 0) {
          if (o[a] < lo[a] || o[a] > hi[a]) return null;
          continue;
        }
        const t0 = (lo[a] - o[a]) / d[a];
        const t1 = (hi[a] - o[a]) / d[a];
        if (Math.min(t0, t1) > tn) [tn, enterAxis] = [Math.min(t0, t1), a];
        if (Math.max(t0, t1) < tf) [tf, exitAxis] = [Math.max(t0, t1), a];
      }
      if (tn > tf) return null;
      // From outside the surface is entered at tn; from inside (a box twin only) it is left at tf.
      const [t, axis] = tn > tMin ? [tn, enterAxis] : [tf, exitAxis];
      if (!(t > tMin && t < tMax) || axis < 0) return null;
      const normal = vec3d.create();
      normal[axis] = Math.sign(at(t)[axis] - (lo[axis] + hi[axis]) / 2) || 1;
      return { t, normal };
    }
  }
}

/** @internal True when the world point lies inside the proxy's box. */
export function proxyContainsPoint(proxy: BoundingProxy, point: readonly number[]): boolean {
  const p = vec3d.transformMat4(point, mat4d.inverse(Array.from(proxy.worldMatrix)));
  return [0, 1, 2].every((a) => proxy.bounds.min[a] <= p[a] && p[a] <= proxy.bounds.max[a]);
}

/**
 * Nearest hit of the world ray o + t·d (d unit) on the entity in (tMin, tMax), or null. Twins are exact;
 * a proxy is hit where the ray enters its box, and abstains (null) when it contains the ray origin.
 * @internal
 */
export function raycastEntity(
  entity: PickEntity,
  origin: readonly number[],
  direction: readonly number[],
  tMin = 0,
  tMax = Infinity,
): EntityHit | null {
  checkEntity('raycastEntity', entity);
  if (entity.kind === 'proxy' && proxyContainsPoint(entity, origin)) return null;
  const world = Array.from(entity.worldMatrix);
  const inverse = mat4d.inverse(world);
  const o = vec3d.transformMat4(origin, inverse);
  const d = vec3d.transformMat4Upper3x3(direction, inverse);
  const hit = localHit(entity, o, d, tMin, tMax);
  if (!hit) return null;
  const point = vec3d.add(origin, vec3d.scale(direction, hit.t));
  const normal = vec3d.normalize(vec3d.transformMat4Upper3x3(hit.normal, mat4d.transpose(inverse)));
  return { entity, distance: hit.t, point: [point[0], point[1], point[2]], normal: [normal[0], normal[1], normal[2]] };
}
