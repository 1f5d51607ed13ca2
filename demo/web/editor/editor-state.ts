// The editor's state object: scene, camera, gizmo, mode, selection, hover, the drag in progress and work in flight.
import { mat4 } from 'wgpu-matrix';
import { type PerspectiveCamera, type Engine, getCameraViewProjectionMatrix } from '../../../engine/index.js';
import type { GpuPicker } from '../../../picking/index.js';
import type { DragState } from '../gizmo/gizmo-drag.js';
import type { EditorMode, Gizmo } from '../gizmo/gizmo.js';
import { makeScreenView, type ScreenView } from '../math/rays.js';
import type { EditorScene } from '../scene/editor-scene.js';
import type { PickReport } from './pick-report.js';
import type { Selection, SelectionItem } from './selection-items.js';
import type { TransformSnapshot } from './transforms.js';

/** Everything the editor knows; plain data, changed by the functions of `editor/`. */
export interface EditorState {
  engine: Engine;
  world: EditorScene;
  camera: PerspectiveCamera;
  picker: GpuPicker;
  /** True when picks carry triangle detail (every adapter: `picker.detailMethod` says which path). */
  detailed: boolean;
  gizmo: Gizmo;
  mode: EditorMode;
  selection: Selection;
  hover: SelectionItem | null;
  /** Name of the handle under the cursor or being dragged. */
  activeHandle: string | null;
  /** Bumps when the selection or the hover changes (the selection overlay re-records then). */
  highlightVersion: number;
  drag: DragState | null;
  lastPick: PickReport | null;
  /** Canvas size in CSS pixels. */
  cssWidth: number;
  cssHeight: number;
  /** A frame must be drawn (something visible changed). */
  dirty: boolean;
  /** Bumps when anything shown in the side panel changes. */
  panelVersion: number;
  /** Picks and other async work in flight; `idle()` waits for them. */
  pending: Set<Promise<unknown>>;
  /** Errors of async work (reported on the console and to tests). */
  errors: string[];
  initialTransforms: TransformSnapshot;
}

/** Something visible changed: draw a frame (and refresh the panel when `panel`). */
export function markDirty(state: EditorState, panel = false): void {
  state.dirty = true;
  if (panel) state.panelVersion++;
}

/** Tracks async work so `idle()` can wait for it; a failure is recorded and logged, never swallowed. */
export function track<T>(state: EditorState, work: Promise<T>): Promise<T | undefined> {
  const tracked = work.catch((error: unknown) => {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    state.errors.push(message);
    console.error(`[editor] ${message}`);
    return undefined;
  });
  state.pending.add(tracked);
  void tracked.finally(() => state.pending.delete(tracked));
  return tracked;
}

/** The camera's current screen mapping (CSS pixels of the canvas). */
export function currentView(state: EditorState): ScreenView {
  const viewProjection = getCameraViewProjectionMatrix(
    state.camera,
    state.engine.width / state.engine.height,
    mat4.create(),
  );
  return makeScreenView(viewProjection, state.camera.position, state.camera.target, state.cssWidth, state.cssHeight);
}
