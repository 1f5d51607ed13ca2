import { describe, expect, test } from 'vitest';
import { mat4 } from 'wgpu-matrix';
import { makePerspectiveCamera } from '../../../engine/camera.js';
import { createMeshFromData } from '../../../engine/mesh.js';
import { makeBoxData, makeSphereData } from '../../../engine/primitives/index.js';
import {
  type AnalyticTwin,
  arbitratePickAtPixelSync,
  arbitratePickSync,
  type BoundingProxy,
  CpuPickError,
  type PickGroup,
} from '../../../picking/cpu/index.js';
import { makeCpuScene } from './scene-fixtures.js';

const down = { origin: [0, 0, 20], direction: [0, 0, -1] };

function chairScene() {
  const scene = makeCpuScene();
  const seat = createMeshFromData(scene, 'seat', makeBoxData(), { worldMatrix: mat4.translation([0, 0, 0]) });
  const cushion = createMeshFromData(scene, 'cushion', makeBoxData({ width: 0.5, height: 0.5, depth: 0.5 }), {
    worldMatrix: mat4.translation([0.1, 0.1, 0.3]),
  }); // front face at z = 0.55, just proud of the seat's 0.5
  const table = createMeshFromData(scene, 'table', makeBoxData(), { worldMatrix: mat4.translation([8, 0, 0]) });
  const chair: PickGroup = { name: 'chair', children: [seat, cushion] };
  const wrapper: PickGroup = { name: 'chair-wrapper', children: [chair] };
  const room: PickGroup = { name: 'room', children: [wrapper, table] };
  return { scene, seat, cushion, table, chair, wrapper, room };
}

describe('editor pick arbitration', () => {
  test('nearest hit wins and groups are never candidates (a ray through a group box but between its children misses)', () => {
    const scene = makeCpuScene();
    const left = createMeshFromData(scene, 'left', makeBoxData(), { worldMatrix: mat4.translation([-3, 0, 0]) });
    const right = createMeshFromData(scene, 'right', makeBoxData(), { worldMatrix: mat4.translation([3, 0, 0]) });
    const pair: PickGroup = { name: 'pair', children: [left, right] };
    const between = arbitratePickSync(scene, down, { groups: [pair] });
    expect(between.rule).toBe('miss');
    expect(between.target).toBeNull();
    const onLeft = arbitratePickSync(scene, { origin: [-3, 0, 20], direction: [0, 0, -1] }, { groups: [pair] });
    expect([onLeft.rule, onLeft.target, onLeft.hitObject]).toEqual(['nearest', left, left]); // the pair's box does not fit one box
    const front = createMeshFromData(scene, 'front', makeBoxData(), { worldMatrix: mat4.translation([-3, 0, 3]) });
    expect(arbitratePickSync(scene, { origin: [-3, 0, 20], direction: [0, 0, -1] }, { groups: [pair] }).target).toBe(
      front,
    );
  });

  test('fitted-box retarget climbs to the outermost group that fits the hit object, and no further', () => {
    const { scene, seat, cushion, table, wrapper, room } = chairScene();
    const pick = arbitratePickSync(scene, down, { groups: [room] });
    expect(pick.hitObject).toBe(cushion); // nearest: the cushion sits in front of the seat
    expect(pick.rule).toBe('nearest'); // the chair's box is far bigger than the cushion's
    const onSeat = arbitratePickSync(scene, { origin: [-0.4, -0.4, 20], direction: [0, 0, -1] }, { groups: [room] });
    expect(onSeat.hitObject).toBe(seat);
    expect(onSeat.rule).toBe('fitted-retarget');
    expect(onSeat.target).toBe(wrapper); // seat ⊂ chair ⊂ chair-wrapper share one box; the room does not fit
    const onTable = arbitratePickSync(scene, { origin: [8, 0, 20], direction: [0, 0, -1] }, { groups: [room] });
    expect([onTable.rule, onTable.target]).toEqual(['nearest', table]);
    // A child sticking out 4 % of the seat's diagonal: fits at tolerance 0.05, not at 0.01.
    const { scene: s2, seat: seat2 } = chairScene();
    const knob = createMeshFromData(s2, 'knob', makeBoxData({ width: 0.1, height: 0.1, depth: 0.1 }), {
      worldMatrix: mat4.translation([0.5 + 0.069 - 0.05, 0, 0]),
    }); // max x = 0.569
    const group: PickGroup = { name: 'seat-and-knob', children: [seat2, knob] };
    const ray = { origin: [-0.4, -0.4, 20], direction: [0, 0, -1] };
    expect(arbitratePickSync(s2, ray, { groups: [group] }).target).toBe(group);
    expect(arbitratePickSync(s2, ray, { groups: [group], fitTolerance: 0.01 }).target).toBe(seat2);
  });

  test('the active object under a manipulator wins any pick whose ray hits it, even behind nearer objects', () => {
    const { scene, seat, cushion, chair, room } = chairScene();
    const behind = arbitratePickSync(scene, down, { groups: [room], active: seat });
    expect([behind.rule, behind.target, behind.hitObject]).toEqual(['active-override', seat, seat]);
    expect(behind.distance).toBeCloseTo(19.5, 6); // the seat's front face, behind the cushion's at 19.45
    const notHit = arbitratePickSync(
      scene,
      { origin: [8, 0, 20], direction: [0, 0, -1] },
      { groups: [room], active: seat },
    );
    expect(notHit.rule).toBe('nearest');
    const group = arbitratePickSync(scene, down, { groups: [room], active: chair });
    expect([group.rule, group.target, group.hitObject]).toEqual(['active-override', chair, cushion]);
  });

  test('analytic twins and proxies are candidates; a proxy containing the camera abstains', () => {
    const scene = makeCpuScene(100, 100);
    const ball = createMeshFromData(scene, 'ball', makeSphereData({ radius: 1 }));
    const gizmo: AnalyticTwin = {
      kind: 'torus',
      name: 'gizmo',
      radius: 2,
      tube: 0.1,
      worldMatrix: mat4.multiply(mat4.translation([0, 0, 3]), mat4.rotationX(Math.PI / 2)),
    };
    const room: BoundingProxy = {
      kind: 'proxy',
      name: 'room-volume',
      bounds: { min: [-50, -50, -50], max: [50, 50, 50] },
      worldMatrix: mat4.identity(),
    };
    const light: BoundingProxy = {
      kind: 'proxy',
      name: 'light',
      bounds: { min: [-0.2, -0.2, -0.2], max: [0.2, 0.2, 0.2] },
      worldMatrix: mat4.translation([0, 0, 5]),
    };
    const policy = { entities: [gizmo, room] };
    const centre = arbitratePickSync(scene, down, policy);
    expect([centre.rule, centre.target]).toEqual(['nearest', ball]); // the room proxy contains the eye: it abstains
    expect(centre.abstained).toEqual([room]);
    const beside = arbitratePickSync(scene, { origin: [0, 10, 20], direction: [0, 0, -1] }, policy);
    expect([beside.rule, beside.target]).toEqual(['miss', null]); // not the room's far wall: the proxy abstains
    const onRing = arbitratePickSync(scene, { origin: [2, 0, 20], direction: [0, 0, -1] }, policy);
    expect(onRing.target).toBe(gizmo);
    expect(onRing.distance).toBeCloseTo(16.9, 9);
    expect(onRing.entityHit!.normal.map((v) => +v.toFixed(9))).toEqual([0, 0, 1]);
    const withLight = arbitratePickSync(scene, down, { entities: [gizmo, room, light] });
    expect(withLight.target).toBe(light);
    expect(withLight.distance).toBeCloseTo(14.8, 6);
    const outside = arbitratePickSync(scene, { origin: [0, 0, 80], direction: [0, 0, -1] }, policy);
    expect([outside.target, outside.distance]).toEqual([room, 30]); // from outside, the proxy's box is hit
    scene.camera = makePerspectiveCamera({ position: [0, 0, 20], target: [0, 0, 0] });
    expect(arbitratePickAtPixelSync(scene, 50, 50, policy).target).toBe(ball);
  });

  test('malformed policies are typed errors', () => {
    const { scene, seat } = chairScene();
    const loop: PickGroup = { name: 'loop', children: [] };
    loop.children.push(loop);
    expect(() => arbitratePickSync(scene, down, { groups: [loop] })).toThrow(CpuPickError);
    expect(() =>
      arbitratePickSync(scene, down, {
        groups: [
          { name: 'a', children: [seat] },
          { name: 'b', children: [seat] },
        ],
      }),
    ).toThrow(/two parent groups/);
    expect(() => arbitratePickSync(scene, down, { fitTolerance: -1 })).toThrow(/fitTolerance/);
    expect(() =>
      arbitratePickSync(scene, down, {
        entities: [{ kind: 'cone', name: 'x', worldMatrix: mat4.identity() } as never],
      }),
    ).toThrow(/kind/);
  });
});
