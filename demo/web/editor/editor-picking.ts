// The editor's picks: one pass answers the handle within the tolerance block around the cursor (the gizmo's pick
// overlay) or else the scene object under it; marquee rectangles.
import { type PickingInfo, maxOverlayTolerance, pickAsync, pickRectAsync } from '../../../picking/index.js';
import type { GizmoHandle } from '../gizmo/gizmo.js';
import type { EditorState } from './editor-state.js';
import type { SelectionItem } from './selection-items.js';

/** Half size of the handle tolerance block: 4 gives 9 × 9 CSS pixels around the cursor. */
export const handleTolerance = 4;

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** What one pick under CSS pixel (x, y) found: a handle (which wins within the block), or a scene object. */
export interface EditorPick {
  handle: GizmoHandle | null;
  item: SelectionItem | null;
  info: PickingInfo;
}

/**
 * One pick at CSS pixel (x, y). With `handles` (default) the gizmo's visible handles take part and win within the
 * tolerance block; without, only scene objects do (a click selects what is under the cursor).
 */
export async function pickAt(state: EditorState, x: number, y: number, handles = true): Promise<EditorPick> {
  const ratio = state.engine.devicePixelRatio;
  const info = await pickAsync(state.picker, clamp(x, 0, state.cssWidth - 0.01), clamp(y, 0, state.cssHeight - 0.01), {
    devicePixelRatio: ratio,
    overlays: handles && state.gizmo.visible,
    // The block is in CSS pixels; the picker's tolerance in framebuffer pixels.
    overlayTolerance: Math.min(maxOverlayTolerance, Math.round(handleTolerance * ratio)),
  });
  const hit = info.pickedOverlay;
  const handle = hit ? (state.gizmo.byName.get(String(hit.handleId)) ?? null) : null;
  return {
    handle,
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
