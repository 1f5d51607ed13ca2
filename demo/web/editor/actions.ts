// What the controls do to the editor state: modes, click / marquee selection, hover, handle drags.
import { mat4 } from 'wgpu-matrix';
import { beginDrag, updateDrag } from '../gizmo/gizmo-drag.js';
import { type EditorMode, type GizmoHandle, layoutGizmo } from '../gizmo/gizmo.js';
import { currentView, type EditorState, markDirty } from './editor-state.js';
import { type EditorPick, pickAt, pickItemsInRect } from './editor-picking.js';
import { makePickReport } from './pick-report.js';
import { applySelection, clearSelection, sameItem, type SelectionItem, type SelectionOp } from './selection-items.js';
import { readItemWorld, selectionPivot, writeItemWorld } from './transforms.js';

/** Switches between select (Q), translate (W), rotate (E) and scale (R). */
export function setMode(state: EditorState, mode: EditorMode): void {
  if (state.drag) return;
  state.mode = mode;
  state.activeHandle = null;
  markDirty(state, true);
}

/** Escape: nothing selected. */
export function clearAll(state: EditorState): void {
  clearSelection(state.selection);
  state.highlightVersion++;
  markDirty(state, true);
}

/** Places the gizmo on the selection for the current camera (before every frame and every handle pick). */
export function refreshGizmo(state: EditorState): void {
  const pivot = selectionPivot(state.selection, state.gizmo.pivot, state.gizmo.scratch);
  layoutGizmo(state.gizmo, state.camera, state.cssHeight, state.mode, pivot, state.activeHandle);
}

/** One pick at (x, y) with the gizmo laid out for the current view: the handle within the tolerance block, or the object. */
export function pickWithHandles(state: EditorState, x: number, y: number): Promise<EditorPick> {
  refreshGizmo(state);
  return pickAt(state, x, y);
}

/** The handle within the tolerance block around (x, y) (one pick). */
export async function findHandle(state: EditorState, x: number, y: number): Promise<GizmoHandle | null> {
  return (await pickWithHandles(state, x, y)).handle;
}

/** A click: replace the selection with what is under (x, y) (nothing clears it); `toggle` flips it in or out. */
export async function clickSelect(
  state: EditorState,
  x: number,
  y: number,
  op: Exclude<SelectionOp, 'add'>,
): Promise<void> {
  const { item, info } = await pickAt(state, x, y, false);
  state.lastPick = makePickReport(info, x, y);
  if (item) applySelection(state.selection, [item], op);
  else if (op === 'replace') clearSelection(state.selection);
  state.highlightVersion++;
  markDirty(state, true);
}

/** A marquee from (ax, ay) to (bx, by): replace, add (Shift) or toggle (Ctrl) everything visible inside. */
export async function marqueeSelect(
  state: EditorState,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  op: SelectionOp,
): Promise<void> {
  const items = await pickItemsInRect(state, ax, ay, bx, by);
  applySelection(state.selection, items, op);
  state.highlightVersion++;
  markDirty(state, true);
}

/** Hover feedback: the handle or, failing that, the object under the cursor (one pick answers both). */
export async function hoverAt(state: EditorState, x: number, y: number): Promise<void> {
  const { handle, item } = await pickWithHandles(state, x, y);
  if (state.drag) return;
  const handleName = handle?.name ?? null;
  if (handleName !== state.activeHandle || !sameItem(item, state.hover)) {
    state.activeHandle = handleName;
    state.hover = item;
    state.highlightVersion++;
    markDirty(state);
  }
}

/** Clears hover feedback (the cursor left the canvas). */
export function clearHover(state: EditorState): void {
  if (!state.hover && !state.activeHandle) return;
  state.hover = null;
  state.activeHandle = null;
  state.highlightVersion++;
  markDirty(state);
}

/** Starts dragging a handle from (x, y) with every selected item. */
export function startDrag(state: EditorState, handle: GizmoHandle, x: number, y: number): void {
  const items = [...state.selection.items.values()].map((item: SelectionItem) => ({
    item,
    start: readItemWorld(item),
  }));
  state.drag = beginDrag(state.gizmo, handle, currentView(state), x, y, items);
  state.activeHandle = handle.name;
  state.hover = null;
  state.highlightVersion++;
  markDirty(state, true);
}

/** Moves the drag to (x, y): every item becomes delta × its world at the press. */
export function moveDrag(state: EditorState, x: number, y: number): void {
  const drag = state.drag;
  if (!drag) return;
  const delta = updateDrag(drag, currentView(state), x, y);
  const [world, inverse] = drag.scratch;
  for (const { item, start } of drag.items) writeItemWorld(item, mat4.multiply(delta, start, world), inverse);
  markDirty(state, true);
}

/** Ends the drag; the transforms stay. */
export function endDrag(state: EditorState): void {
  if (!state.drag) return;
  state.drag = null;
  state.activeHandle = null;
  markDirty(state, true);
}
