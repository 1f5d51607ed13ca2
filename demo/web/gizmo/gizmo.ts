// The transform gizmo: handle meshes in a second weft scene (sharing the engine and camera), drawn on top, and
// registered as pick overlays of the scene's picker: one pick pass answers handle (within the tolerance) or object.
import { mat4, vec3 } from 'wgpu-matrix';
import {
  type PerspectiveCamera,
  createMeshFromData,
  createScene,
  type Engine,
  makeTorusData,
  type Mesh,
  type Scene,
} from '../../../engine/index.js';
import { createPickOverlay, type GpuPicker, type PickOverlay } from '../../../picking/index.js';
import { worldPerPixel } from '../math/rays.js';
import { gizmoProportions, makeArrowData, makeCentreHandleData, makeScaleHandleData } from './gizmo-shapes.js';

/** Editor modes: Q select, W translate, E rotate, R scale. */
export type EditorMode = 'select' | 'translate' | 'rotate' | 'scale';

/** One grabbable handle; `axis` is 0, 1, 2 (x, y, z) or -1 for the centre handle. */
export interface GizmoHandle {
  name: string;
  mode: Exclude<EditorMode, 'select'>;
  axis: -1 | 0 | 1 | 2;
  mesh: Mesh;
  baseColor: [number, number, number];
  /** The colour drawn this frame (base, or highlighted while hovered or dragged). */
  color: [number, number, number, number];
}

/** The gizmo's scene, pick overlay, handles and current layout. */
export interface Gizmo {
  scene: Scene;
  /** The handles as overlay items of the scene's picker (handle id = handle name); hidden handles are not pickable. */
  overlay: PickOverlay;
  handles: GizmoHandle[];
  byName: Map<string, GizmoHandle>;
  mode: EditorMode;
  visible: boolean;
  /** World position of the gizmo's centre. */
  pivot: Float32Array;
  /** World length of an arrow (constant on screen). */
  size: number;
  /** Scratch space for the per-frame layout. */
  scratch: { matrix: Float32Array; origin: Float32Array };
}

/** On-screen length of an arrow, CSS pixels. */
export const gizmoPixels = 110;
const highlight: [number, number, number] = [1, 0.86, 0.15];
const axisColors: [number, number, number][] = [
  [0.93, 0.26, 0.26],
  [0.36, 0.85, 0.3],
  [0.3, 0.52, 1],
];
const axisNames = ['x', 'y', 'z'];
// Handles are built along +Y; these turn +Y onto +X, +Y and +Z.
const axisTurns = [mat4.rotationZ(-Math.PI / 2), mat4.identity(), mat4.rotationX(Math.PI / 2)];

/** Creates the gizmo scene on the engine, drawn with `camera`; its handles are overlays of the scene's `picker`. */
export function createGizmo(engine: Engine, camera: PerspectiveCamera, picker: GpuPicker): Gizmo {
  const scene = createScene(engine);
  scene.camera = camera;
  const handles: GizmoHandle[] = [];
  const add = (
    mode: GizmoHandle['mode'],
    axis: GizmoHandle['axis'],
    mesh: Mesh,
    baseColor: [number, number, number],
  ) => {
    mesh.visible = mesh.pickable = false;
    handles.push({
      name: `${mode}-${axis < 0 ? (mode === 'translate' ? 'free' : 'uniform') : axisNames[axis]}`,
      mode,
      axis,
      mesh,
      baseColor,
      color: [...baseColor, 1],
    });
  };
  const arrow = makeArrowData();
  const scaleHandle = makeScaleHandleData();
  const ring = makeTorusData({
    radius: gizmoProportions.ringRadius,
    tube: gizmoProportions.ringTube,
    radialSegments: 8,
    tubularSegments: 96,
  });
  for (const axis of [0, 1, 2] as const) {
    add('translate', axis, createMeshFromData(scene, `gizmo:translate-${axisNames[axis]}`, arrow), axisColors[axis]);
    add('rotate', axis, createMeshFromData(scene, `gizmo:rotate-${axisNames[axis]}`, ring), axisColors[axis]);
    add('scale', axis, createMeshFromData(scene, `gizmo:scale-${axisNames[axis]}`, scaleHandle), axisColors[axis]);
  }
  add('translate', -1, createMeshFromData(scene, 'gizmo:translate-free', makeCentreHandleData()), [0.85, 0.85, 0.85]);
  add('scale', -1, createMeshFromData(scene, 'gizmo:scale-uniform', makeCentreHandleData()), [0.85, 0.85, 0.85]);
  return {
    scene,
    overlay: createPickOverlay(
      picker,
      handles.map((h) => ({ handleId: h.name, mesh: h.mesh })),
    ),
    handles,
    byName: new Map(handles.map((h) => [h.name, h])),
    mode: 'select',
    visible: false,
    pivot: vec3.create(),
    size: 1,
    scratch: { matrix: mat4.create(), origin: vec3.create() },
  };
}

/** Depth of `point` along the camera's viewing direction. */
function viewDepth(camera: PerspectiveCamera, point: Float32Array): number {
  const { position: p, target: t } = camera;
  const length = Math.hypot(t[0] - p[0], t[1] - p[1], t[2] - p[2]);
  return (
    ((point[0] - p[0]) * (t[0] - p[0]) + (point[1] - p[1]) * (t[1] - p[1]) + (point[2] - p[2]) * (t[2] - p[2])) / length
  );
}

/**
 * Places the gizmo at `pivot` with a constant on-screen size, shows the handles of `mode` (hidden handles are
 * not pickable either) and highlights `active` (hovered or dragged handle name).
 */
export function layoutGizmo(
  gizmo: Gizmo,
  camera: PerspectiveCamera,
  cssHeight: number,
  mode: EditorMode,
  pivot: Float32Array | null,
  active: string | null,
): void {
  gizmo.mode = mode;
  gizmo.visible = mode !== 'select' && pivot !== null;
  if (pivot) vec3.copy(pivot, gizmo.pivot);
  gizmo.size =
    gizmoPixels * worldPerPixel(Math.max(camera.near, viewDepth(camera, gizmo.pivot)), camera.fovY, cssHeight);
  for (const handle of gizmo.handles) {
    const shown = gizmo.visible && handle.mode === mode;
    handle.mesh.visible = handle.mesh.pickable = shown;
    const c = handle.name === active ? highlight : handle.baseColor;
    handle.color[0] = c[0];
    handle.color[1] = c[1];
    handle.color[2] = c[2];
    if (!shown) continue;
    const world = handle.mesh.worldMatrix;
    mat4.translation(gizmo.pivot, world);
    mat4.uniformScale(world, gizmo.size, world);
    if (handle.axis >= 0) mat4.multiply(world, axisTurns[handle.axis], world);
  }
}

/** World point a test or tool can grab a handle at: the cone / box centre, a ring point at `angle`, the centre. */
export function handleGrabPoint(gizmo: Gizmo, handle: GizmoHandle, angle = 0.6): Float32Array {
  const g = gizmoProportions;
  const p = vec3.clone(gizmo.pivot);
  if (handle.axis < 0) return p;
  const axis = vec3.create();
  axis[handle.axis] = 1;
  if (handle.mode === 'rotate') {
    // Ring points: cos·u + sin·v with (u, v, axis) right-handed.
    const u = vec3.create();
    const v = vec3.create();
    u[(handle.axis + 1) % 3] = 1;
    v[(handle.axis + 2) % 3] = 1;
    vec3.addScaled(p, u, Math.cos(angle) * g.ringRadius * gizmo.size, p);
    return vec3.addScaled(p, v, Math.sin(angle) * g.ringRadius * gizmo.size, p);
  }
  const along = handle.mode === 'translate' ? (g.coneStart + 1) / 2 - 0.05 : g.scaleBoxCentre;
  return vec3.addScaled(p, axis, along * gizmo.size, p);
}
