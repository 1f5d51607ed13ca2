// One editor frame: the forward renderer into an offscreen target, then grid, selection and gizmo overlays on that
// target, then a copy to the canvas. Frames are drawn on demand (when something changed) and timed.
import {
  createForwardRenderTask,
  createRenderTarget,
  type RenderTarget,
  resizeRenderTarget,
  runTasks,
  type Task,
} from '../../../engine/index.js';
import { refreshGizmo } from '../editor/actions.js';
import type { EditorState } from '../editor/editor-state.js';
import { createGizmoTask } from './gizmo-task.js';
import { createGridTask } from './grid-task.js';
import { createPresentTask } from './present-task.js';
import { createSelectionTask, type HighlightSource } from './selection-task.js';

/** Timings of drawn frames, collected while `recording`. */
export interface FrameTimings {
  recording: boolean;
  /** Main-thread time to record and submit a frame (ms). */
  cpu: number[];
  /** Submit → GPU done (ms). */
  gpu: number[];
  /** Time between consecutive drawn frames (ms). */
  interval: number[];
}

/** The frame's target, its tasks in order, and bookkeeping. */
export interface EditorFrame {
  target: RenderTarget;
  tasks: Task[];
  frames: number;
  lastFrameAt: number;
  lastCpuMs: number;
  lastGpuMs: number;
  timings: FrameTimings;
  /** Resolved once a frame drawn after the request has finished on the GPU. */
  waiters: (() => void)[];
  /** Extra tasks drawn on the canvas after the frame is presented (e.g. the G-buffer strip). */
  extras: Task[];
  /** `tasks` then `extras`: what a frame runs. */
  running: Task[];
}

/** Creates the frame target (canvas size and format, depth24plus) and the editor's tasks. */
export function createEditorFrame(state: EditorState): EditorFrame {
  const { engine } = state;
  const scene = state.world.scene;
  const target = createRenderTarget(engine, {
    name: 'editor:frame',
    width: engine.width,
    height: engine.height,
    format: engine.colorFormat,
    depthFormat: 'depth24plus',
  });
  const highlight: HighlightSource = { version: 0, selected: [], hover: null };
  const source = () => {
    highlight.version = state.highlightVersion;
    highlight.selected = state.selection.items.values();
    highlight.hover = state.hover;
    return highlight;
  };
  const tasks: Task[] = [
    createForwardRenderTask(scene, { name: 'editor:forward', target }),
    createGridTask(scene, state.camera, target),
    createSelectionTask(scene, state.camera, target, source),
    createGizmoTask(state.gizmo, target),
    createPresentTask(target),
  ];
  return {
    target,
    tasks,
    frames: 0,
    lastFrameAt: 0,
    lastCpuMs: 0,
    lastGpuMs: 0,
    timings: { recording: false, cpu: [], gpu: [], interval: [] },
    waiters: [],
    extras: [],
    running: tasks,
  };
}

/** Sets the tasks drawn after the presented frame (none: pass []). */
export function setFrameExtras(state: EditorState, frame: EditorFrame, extras: Task[]): void {
  frame.extras = extras;
  frame.running = [...frame.tasks, ...extras];
  state.dirty = true;
}

/** Follows the canvas size. */
export function resizeEditorFrame(state: EditorState, frame: EditorFrame): void {
  resizeRenderTarget(frame.target, state.engine.width, state.engine.height);
  state.dirty = true;
}

/** Draws one frame now; resolves waiters when the GPU has finished it. */
export function drawEditorFrame(state: EditorState, frame: EditorFrame): void {
  const started = performance.now();
  refreshGizmo(state);
  const waiters = frame.waiters.splice(0);
  state.dirty = false;
  if (!runTasks(state.engine, frame.running)) {
    state.dirty = true;
    frame.waiters.push(...waiters);
    return;
  }
  const submitted = performance.now();
  frame.frames++;
  frame.lastCpuMs = submitted - started;
  const { timings } = frame;
  if (timings.recording) {
    timings.cpu.push(submitted - started);
    if (frame.lastFrameAt) timings.interval.push(started - frame.lastFrameAt);
  }
  frame.lastFrameAt = started;
  void state.engine.device.queue.onSubmittedWorkDone().then(() => {
    frame.lastGpuMs = performance.now() - submitted;
    if (timings.recording) timings.gpu.push(frame.lastGpuMs);
    for (const resolve of waiters) resolve();
  });
}

/** Resolves after a frame drawn from now on has completed on the GPU. */
export function nextEditorFrame(state: EditorState, frame: EditorFrame): Promise<void> {
  state.dirty = true;
  return new Promise((resolve) => frame.waiters.push(resolve));
}
