import { describeValue } from '../../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../../core/options.js';
import { type Aabb, makeEmptyAabb, unionAabb } from '../../engine/bounds.js';
import type { Mesh } from '../../engine/mesh.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';
import type { Scene } from '../../engine/scene.js';
import type { PickingInfo } from '../picking-info.js';
import {
  checkEntity,
  type EntityHit,
  getEntityWorldBounds,
  type PickEntity,
  proxyContainsPoint,
  raycastEntity,
} from './analytic-twins.js';
import { CpuPickError, cpuPickOptionError } from './cpu-pick-error.js';
import { checkCpuPickOptions, type CpuPickOptions } from './pick-options.js';
import { cameraRay, checkRay, type CpuRay, pickWithRaySync } from './pick-sync.js';

/** A minimal transform-node stand-in: a named group of meshes, entities and groups. Never a pick candidate itself. */
export interface PickGroup {
  name: string;
  children: Array<Mesh | PickEntity | PickGroup>;
}

/** An editor's pick arbitration rules. */
export interface EditorPickPolicy {
  /** Group hierarchies, for the fitted-box retarget. */
  groups?: readonly PickGroup[];
  /** Non-mesh pickables: exact analytic twins or conservative bounding proxies. */
  entities?: readonly PickEntity[];
  /** Retarget climbs to a group whose world box exceeds the hit object's by at most this × its diagonal, per face. Default 0.05. */
  fitTolerance?: number;
  /** The object under an active manipulator: it wins any pick whose ray hits it, nearer objects notwithstanding. */
  active?: Mesh | PickEntity | PickGroup | null;
}

/** Which rule decided an arbitrated pick. */
export type EditorPickRule = 'miss' | 'nearest' | 'fitted-retarget' | 'active-override';

/** Result of `arbitratePickSync`. */
export interface EditorPick {
  rule: EditorPickRule;
  /** What the editor should select (a group only through the fitted-box retarget or an active group). */
  target: Mesh | PickEntity | PickGroup | null;
  /** The mesh or entity the ray actually struck. */
  hitObject: Mesh | PickEntity | null;
  distance: number;
  info: PickingInfo | null;
  entityHit: EntityHit | null;
  /** Proxies that contained the ray origin and so abstained. */
  abstained: PickEntity[];
}

type Node = Mesh | PickEntity | PickGroup;

const policyKeys: OptionKeys<EditorPickPolicy> = { groups: true, entities: true, fitTolerance: true, active: true };

function checkArbitrationOptions(api: string, policy: EditorPickPolicy, options: CpuPickOptions): void {
  checkOptionKeys(api, policy, policyKeys, cpuPickOptionError, 'policy');
  checkCpuPickOptions(api, options);
}

const isGroup = (n: Node): n is PickGroup =>
  Array.isArray((n as PickGroup).children) && !('kind' in n) && !('geometry' in n);
const isMesh = (n: Node): n is Mesh => 'geometry' in n && 'positions' in n;

/** Maps every node to its parent group, checking the hierarchy is a tree of well-formed nodes. */
function parentsOf(api: string, groups: readonly PickGroup[]): Map<Node, PickGroup> {
  const parents = new Map<Node, PickGroup>();
  const visiting = new Set<PickGroup>();
  const visit = (group: PickGroup): void => {
    if (!group || typeof group.name !== 'string' || !Array.isArray(group.children))
      throw new CpuPickError(api, 'bad-policy', `group ${describeValue(group)} must be { name: string, children: [] }`);
    if (visiting.has(group))
      throw new CpuPickError(api, 'bad-policy', `group ${JSON.stringify(group.name)} contains itself`);
    visiting.add(group);
    for (const child of group.children) {
      if (parents.has(child))
        throw new CpuPickError(
          api,
          'bad-policy',
          `${JSON.stringify((child as { name?: string }).name)} has two parent groups (${parents.get(child)!.name}, ${group.name})`,
        );
      parents.set(child, group);
      if (isGroup(child)) visit(child);
      else if (!isMesh(child)) checkEntity(api, child);
    }
    visiting.delete(group);
  };
  groups.forEach(visit);
  return parents;
}

function nodeBounds(node: Node): Aabb {
  if (isMesh(node)) return source.worldBounds(node);
  if (isGroup(node)) return node.children.reduce((box, child) => unionAabb(box, nodeBounds(child)), makeEmptyAabb());
  return getEntityWorldBounds(node);
}

/** The outermost group, climbing from `hit` through parents, whose box fits the hit object's box within tolerance. */
function retarget(hit: Mesh | PickEntity, parents: Map<Node, PickGroup>, tolerance: number): PickGroup | null {
  const own = nodeBounds(hit);
  const slack = tolerance * Math.hypot(own.max[0] - own.min[0], own.max[1] - own.min[1], own.max[2] - own.min[2]);
  let target: PickGroup | null = null;
  for (let group = parents.get(hit); group; group = parents.get(group)) {
    const box = nodeBounds(group);
    if (![0, 1, 2].every((a) => own.min[a] - box.min[a] <= slack && box.max[a] - own.max[a] <= slack)) break;
    target = group;
  }
  return target;
}

interface Candidate {
  object: Mesh | PickEntity;
  distance: number;
  info: PickingInfo | null;
  entityHit: EntityHit | null;
}

/** Nearest mesh or entity hit among those `allowed` accepts (a proxy containing the origin abstains). */
function nearestCandidate(
  scene: Scene,
  ray: CpuRay,
  entities: readonly PickEntity[],
  options: CpuPickOptions,
  allowed: (n: Mesh | PickEntity) => boolean,
): Candidate | null {
  const { origin, direction } = checkRay('arbitratePickSync', ray);
  const min = options.minDistance ?? 0;
  const max = options.maxDistance ?? Infinity;
  const info = pickWithRaySync(scene, ray, { ...options, filter: (m) => allowed(m) && (options.filter?.(m) ?? true) });
  let best: Candidate | null = info.hit
    ? { object: info.pickedMesh!, distance: info.distance, info, entityHit: null }
    : null;
  for (const entity of entities) {
    if (!allowed(entity)) continue;
    const hit = raycastEntity(entity, origin, direction, min, best ? best.distance : max);
    if (hit) best = { object: entity, distance: hit.distance, info: null, entityHit: hit };
  }
  return best;
}

/** Everything under a node (the node itself when it is not a group). */
function leaves(node: Node, out: Set<Node> = new Set()): Set<Node> {
  if (isGroup(node)) node.children.forEach((c) => leaves(c, out));
  else out.add(node);
  return out;
}

/**
 * Editor pick arbitration: the active object wins when the ray hits it at all; otherwise the nearest mesh
 * or entity wins (groups are never candidates), then selection climbs to the outermost enclosing group
 * whose box fits the hit object's within `fitTolerance`. Proxies containing the ray origin abstain.
 * @throws {CpuPickError} when the ray, the policy (groups, entities, active) or an option is malformed
 */
export function arbitratePickSync(
  scene: Scene,
  ray: CpuRay,
  policy: EditorPickPolicy = {},
  options: CpuPickOptions = {},
): EditorPick {
  const api = 'arbitratePickSync';
  checkArbitrationOptions(api, policy, options);
  const tolerance = policy.fitTolerance ?? 0.05;
  if (!(tolerance >= 0) || !Number.isFinite(tolerance))
    throw new CpuPickError(api, 'bad-policy', `fitTolerance ${describeValue(tolerance)} must be a finite number >= 0`);
  const entities = [...(policy.entities ?? [])];
  entities.forEach((e) => checkEntity(api, e));
  const parents = parentsOf(api, policy.groups ?? []);
  for (const node of parents.keys())
    if (!isMesh(node) && !isGroup(node) && !entities.includes(node)) entities.push(node);
  const { origin } = checkRay(api, ray);
  const abstained = entities.filter((e) => e.kind === 'proxy' && proxyContainsPoint(e, origin));
  const active = policy.active ?? null;
  if (active) {
    const members = leaves(active);
    const hit = nearestCandidate(scene, ray, entities, options, (n) => members.has(n));
    if (hit)
      return {
        rule: 'active-override',
        target: active,
        hitObject: hit.object,
        distance: hit.distance,
        info: hit.info,
        entityHit: hit.entityHit,
        abstained,
      };
  }
  const hit = nearestCandidate(scene, ray, entities, options, () => true);
  if (!hit) return { rule: 'miss', target: null, hitObject: null, distance: 0, info: null, entityHit: null, abstained };
  const group = retarget(hit.object, parents, tolerance);
  return {
    rule: group ? 'fitted-retarget' : 'nearest',
    target: group ?? hit.object,
    hitObject: hit.object,
    distance: hit.distance,
    info: hit.info,
    entityHit: hit.entityHit,
    abstained,
  };
}

/**
 * `arbitratePickSync` for the camera ray through pixel (x, y) (clipped at the camera's near/far planes).
 * @throws {CpuPickError} when the pixel, the policy or an option is malformed
 */
export function arbitratePickAtPixelSync(
  scene: Scene,
  x: number,
  y: number,
  policy: EditorPickPolicy = {},
  options: CpuPickOptions = {},
): EditorPick {
  const api = 'arbitratePickAtPixelSync';
  checkArbitrationOptions(api, policy, options);
  const { ray, range } = cameraRay(api, scene, x, y, options);
  return arbitratePickSync(scene, ray, policy, { ...options, minDistance: range[0], maxDistance: range[1] });
}
