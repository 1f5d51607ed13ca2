// The editor's picks: handles first (a tolerance block around the cursor, any handle wins), then scene objects,
// and marquee rectangles.
import { pickAsync, pickManyAsync, type PickingInfo, pickRectAsync } from '../../../picking/index.js';
import type { GizmoHandle } from '../gizmo/gizmo.js';
import type { EditorState } from './editor-state.js';
import type { SelectionItem } from './selection-items.js';

/** Half size of the handle tolerance block: 4 gives 9 × 9 CSS pixels around the cursor. */
export const handleTolerance = 4;

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** The handle under (or within the tolerance block around) CSS pixel (x, y): the hit nearest the cursor wins. */
export async function pickHandle(state: EditorState, x: number, y: number): Promise<GizmoHandle | null> {
  const { gizmo } = state;
  if (!gizmo.visible) return null;
  const points: { x: number; y: number }[] = [];
  for (let dy = -handleTolerance; dy <= handleTolerance; dy++) {
    for (let dx = -handleTolerance; dx <= handleTolerance; dx++) {
      points.push({ x: clamp(x + dx, 0, state.cssWidth - 0.01), y: clamp(y + dy, 0, state.cssHeight - 0.01) });
    }
  }
  // One pass and one readback for the whole block; then nearest first.
  const order = points
    .map((_, i) => i)
    .sort((a, b) => Math.hypot(points[a].x - x, points[a].y - y) - Math.hypot(points[b].x - x, points[b].y - y));
  const infos = await pickManyAsync(gizmo.picker, points, { devicePixelRatio: state.engine.devicePixelRatio });
  for (const i of order) {
    const mesh = infos[i].pickedMesh;
    const handle = mesh ? gizmo.byMesh.get(mesh) : undefined;
    if (handle) return handle;
  }
  return null;
}

/** The object under CSS pixel (x, y) and the full pick result. */
export async function pickItem(
  state: EditorState,
  x: number,
  y: number,
): Promise<{ item: SelectionItem | null; info: PickingInfo }> {
  const info = await pickAsync(state.picker, clamp(x, 0, state.cssWidth - 0.01), clamp(y, 0, state.cssHeight - 0.01), {
    devicePixelRatio: state.engine.devicePixelRatio,
  });
  return {
    item: info.hit && info.pickedMesh ? { mesh: info.pickedMesh, instance: info.thinInstanceIndex } : null,
    info,
  };
}

/** Every object with a visible pixel inside the rectangle between two CSS points. */
export async function pickItemsInRect(
  state: EditorState,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): Promise<SelectionItem[]> {
  const x0 = clamp(Math.floor(Math.min(ax, bx)), 0, state.cssWidth - 1);
  const y0 = clamp(Math.floor(Math.min(ay, by)), 0, state.cssHeight - 1);
  const x1 = clamp(Math.ceil(Math.max(ax, bx)), x0 + 1, Math.floor(state.engine.width / state.engine.devicePixelRatio));
  const y1 = clamp(
    Math.ceil(Math.max(ay, by)),
    y0 + 1,
    Math.floor(state.engine.height / state.engine.devicePixelRatio),
  );
  const found = await pickRectAsync(state.picker, x0, y0, x1 - x0, y1 - y0, {
    devicePixelRatio: state.engine.devicePixelRatio,
  });
  return found.flatMap((f) => (f.mesh ? [{ mesh: f.mesh, instance: f.thinInstanceIndex }] : []));
}
