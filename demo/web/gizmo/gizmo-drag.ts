// Drag maths of the gizmo handles: axis moves by closest points between the mouse ray and the axis line, free moves
// in the screen plane, rotation by the angle swept in the ring's plane, scale by projected distance along the axis.
import { mat4, vec3 } from 'wgpu-matrix';
import {
  closestAxisParameter,
  intersectRayPlane,
  projectToScreen,
  type ScreenView,
  screenRay,
  signedAngleAbout,
} from '../math/rays.js';
import type { SelectionItem } from '../editor/selection-items.js';
import { gizmoProportions } from './gizmo-shapes.js';
import { type Gizmo, type GizmoHandle, gizmoPixels } from './gizmo.js';

/** Pixels of (right − down) mouse travel that add 1 to the uniform scale factor. */
export const uniformScalePixels = 100;
/** Smallest scale factor a drag produces (no collapse or mirroring). */
export const minScaleFactor = 0.05;

/** An active handle drag: everything captured at the press, and the latest result. */
export interface DragState {
  handle: GizmoHandle;
  pivot: Float32Array;
  axis: Float32Array | null;
  startX: number;
  startY: number;
  startParam: number;
  planeNormal: Float32Array;
  startHit: Float32Array | null;
  /** Rotation seen edge-on: the angle follows the mouse along the ring's screen tangent instead. */
  screenRotation: { tangentX: number; tangentY: number } | null;
  screenPivot: { x: number; y: number };
  screenAxis: { x: number; y: number };
  startAlong: number;
  items: { item: SelectionItem; start: Float32Array }[];
  /** The world-space change of the latest update (applied as delta × start to every item). */
  delta: Float32Array;
  /** Translation xyz, [angle] or scale xyz of the latest update. */
  value: number[];
  /** Two matrices for callers applying the delta without allocating. */
  scratch: [Float32Array, Float32Array];
}

function unitAxis(axis: number): Float32Array {
  const v = vec3.create();
  v[axis] = 1;
  return v;
}

/** Starts dragging `handle` from CSS pixel (x, y); `items` carry their world matrices at the press. */
export function beginDrag(
  gizmo: Gizmo,
  handle: GizmoHandle,
  view: ScreenView,
  x: number,
  y: number,
  items: DragState['items'],
): DragState {
  const pivot = vec3.clone(gizmo.pivot);
  const axis = handle.axis >= 0 ? unitAxis(handle.axis) : null;
  const ray = screenRay(view, x, y);
  // Rotation works in the ring's plane; the free move in the plane through the pivot facing the camera.
  const planeNormal = handle.mode === 'rotate' && axis ? axis : view.forward;
  const drag: DragState = {
    handle,
    pivot,
    axis,
    startX: x,
    startY: y,
    startParam: 0,
    planeNormal,
    startHit: intersectRayPlane(ray, pivot, planeNormal),
    screenRotation: null,
    screenPivot: projectToScreen(view, pivot),
    screenAxis: { x: 0, y: 0 },
    startAlong: 0,
    items,
    delta: mat4.identity(),
    value: handle.mode === 'rotate' ? [0] : handle.mode === 'scale' ? [1, 1, 1] : [0, 0, 0],
    scratch: [mat4.create(), mat4.create()],
  };
  if (axis && handle.mode === 'translate') drag.startParam = closestAxisParameter(pivot, axis, ray) ?? 0;
  if (axis && handle.mode === 'scale') {
    const end = projectToScreen(view, vec3.addScaled(pivot, axis, gizmo.size));
    const length = Math.hypot(end.x - drag.screenPivot.x, end.y - drag.screenPivot.y) || 1;
    drag.screenAxis = { x: (end.x - drag.screenPivot.x) / length, y: (end.y - drag.screenPivot.y) / length };
    drag.startAlong = (x - drag.screenPivot.x) * drag.screenAxis.x + (y - drag.screenPivot.y) * drag.screenAxis.y;
  }
  if (axis && handle.mode === 'rotate' && (Math.abs(vec3.dot(ray.direction, axis)) < 0.12 || !drag.startHit)) {
    // Edge-on ring: the grab point's tangent (axis × radius) on screen; one ring radius of travel = 1 radian.
    const grab: Float32Array =
      drag.startHit ??
      vec3.addScaled(pivot, unitAxis((handle.axis + 1) % 3), gizmoProportions.ringRadius * gizmo.size, vec3.create());
    const tangent = vec3.cross(axis, vec3.subtract(grab, pivot), vec3.create());
    const a = projectToScreen(view, grab);
    const b = projectToScreen(view, vec3.add(grab, vec3.scale(tangent, 0.05)));
    const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    drag.screenRotation = { tangentX: (b.x - a.x) / length, tangentY: (b.y - a.y) / length };
  }
  return drag;
}

function aboutPivot(pivot: Float32Array, linear: Float32Array, out: Float32Array): Float32Array {
  mat4.translation(pivot, out);
  mat4.multiply(out, linear, out);
  return mat4.translate(out, vec3.negate(pivot), out);
}

/** Updates the drag for the mouse at CSS pixel (x, y); returns the world delta (also kept in `drag.delta`). */
export function updateDrag(drag: DragState, view: ScreenView, x: number, y: number): Float32Array {
  const { handle, pivot, axis, delta } = drag;
  const ray = screenRay(view, x, y);
  if (handle.mode === 'translate') {
    let move: Float32Array | null = null;
    if (axis) {
      const t = closestAxisParameter(pivot, axis, ray);
      if (t !== null) move = vec3.scale(axis, t - drag.startParam, vec3.create());
    } else if (drag.startHit) {
      const hit = intersectRayPlane(ray, pivot, drag.planeNormal);
      if (hit) move = vec3.subtract(hit, drag.startHit, vec3.create());
    }
    if (move) {
      mat4.translation(move, delta);
      drag.value = Array.from(move);
    }
  } else if (handle.mode === 'rotate' && axis) {
    let angle: number | null = null;
    if (drag.screenRotation) {
      const along = (x - drag.startX) * drag.screenRotation.tangentX + (y - drag.startY) * drag.screenRotation.tangentY;
      angle = along / (gizmoPixels * gizmoProportions.ringRadius);
    } else {
      const hit = intersectRayPlane(ray, pivot, axis);
      if (hit) angle = signedAngleAbout(axis, vec3.subtract(drag.startHit!, pivot), vec3.subtract(hit, pivot));
    }
    if (angle !== null) {
      aboutPivot(pivot, mat4.axisRotation(axis, angle), delta);
      drag.value = [angle];
    }
  } else if (handle.mode === 'scale') {
    const factors = [1, 1, 1];
    if (axis) {
      const along = (x - drag.screenPivot.x) * drag.screenAxis.x + (y - drag.screenPivot.y) * drag.screenAxis.y;
      if (Math.abs(drag.startAlong) > 2) factors[handle.axis] = Math.max(minScaleFactor, along / drag.startAlong);
    } else {
      factors.fill(Math.max(minScaleFactor, 1 + (x - drag.startX - (y - drag.startY)) / uniformScalePixels));
    }
    aboutPivot(pivot, mat4.scaling(factors), delta);
    drag.value = factors;
  }
  return delta;
}
