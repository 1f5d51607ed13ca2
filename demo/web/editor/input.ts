// Mouse and keyboard → editor actions. A left press first asks for a handle (async pick); moves made meanwhile are
// kept and replayed, so fast drags and clicks behave the same as slow ones.
import {
  clearAll,
  clearHover,
  clickSelect,
  endDrag,
  findHandle,
  hoverAt,
  marqueeSelect,
  moveDrag,
  setMode,
  startDrag,
} from './actions.js';
import { dolly, pan, resetCamera, tumble } from './camera-controls.js';
import { type EditorState, markDirty, track } from './editor-state.js';

/** Pixels the mouse may travel before a press stops being a click. */
export const clickSlop = 3;

/** Shows and hides the rubber band (CSS pixels of the canvas). */
export interface MarqueeView {
  show(ax: number, ay: number, bx: number, by: number): void;
  hide(): void;
}

interface Press {
  kind: 'pending' | 'handle' | 'select' | 'tumble' | 'pan';
  startX: number;
  startY: number;
  lastX: number;
  lastY: number;
  moved: boolean;
  ctrl: boolean;
  shift: boolean;
  ready: Promise<unknown>;
}

const modeKeys: Record<string, EditorState['mode']> = { q: 'select', w: 'translate', e: 'rotate', r: 'scale' };

/** Connects the canvas and window events to the editor; returns a function that disconnects them. */
export function attachEditorInput(state: EditorState, canvas: HTMLCanvasElement, marquee: MarqueeView): () => void {
  let press: Press | null = null;
  let hoverTarget: { x: number; y: number } | null = null;
  let hovering = false;
  const local = (event: MouseEvent) => {
    const rect = canvas.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };

  function hover(x: number, y: number): void {
    hoverTarget = { x, y };
    if (hovering) return;
    hovering = true;
    void track(
      state,
      (async () => {
        // Only the latest position matters: positions that arrive while a pick runs replace each other.
        while (hoverTarget && !press) {
          const { x: hx, y: hy } = hoverTarget;
          hoverTarget = null;
          await hoverAt(state, hx, hy);
        }
      })().finally(() => (hovering = false)),
    );
  }

  function onPointerDown(event: PointerEvent): void {
    if (press || (event.button !== 0 && event.button !== 2)) return;
    event.preventDefault();
    canvas.setPointerCapture(event.pointerId);
    const { x, y } = local(event);
    const ctrl = event.ctrlKey || event.metaKey;
    const base = {
      startX: x,
      startY: y,
      lastX: x,
      lastY: y,
      moved: false,
      ctrl,
      shift: event.shiftKey,
      ready: Promise.resolve(),
    };
    if (event.altKey) {
      press = { ...base, kind: event.button === 0 ? 'tumble' : 'pan' };
      return;
    }
    if (event.button !== 0) return;
    const current: Press = { ...base, kind: 'pending' };
    press = current;
    hoverTarget = null;
    current.ready = track(
      state,
      findHandle(state, x, y).then((handle) => {
        if (!handle) {
          current.kind = 'select';
          if (current.moved && press === current)
            marquee.show(current.startX, current.startY, current.lastX, current.lastY);
          return;
        }
        current.kind = 'handle';
        startDrag(state, handle, current.startX, current.startY);
        if (current.moved) moveDrag(state, current.lastX, current.lastY);
      }),
    );
  }

  function onPointerMove(event: PointerEvent): void {
    const { x, y } = local(event);
    if (!press) {
      hover(x, y);
      return;
    }
    const dx = x - press.lastX;
    const dy = y - press.lastY;
    press.lastX = x;
    press.lastY = y;
    press.moved ||= Math.hypot(x - press.startX, y - press.startY) > clickSlop;
    if (press.kind === 'tumble') tumble(state.camera, dx, dy);
    else if (press.kind === 'pan') pan(state.camera, dx, dy, state.cssHeight);
    else if (press.kind === 'handle') moveDrag(state, x, y);
    else if (press.kind === 'select' && press.moved) marquee.show(press.startX, press.startY, x, y);
    if (press.kind === 'tumble' || press.kind === 'pan') markDirty(state, true);
  }

  function onPointerUp(event: PointerEvent): void {
    if (!press) return;
    if (canvas.hasPointerCapture(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
    const { x, y } = local(event);
    const done = press;
    press = null;
    done.moved ||= Math.hypot(x - done.startX, y - done.startY) > clickSlop;
    if (done.kind === 'tumble' || done.kind === 'pan') return;
    void track(
      state,
      done.ready.then(async () => {
        if (done.kind === 'handle') {
          if (x !== done.lastX || y !== done.lastY) moveDrag(state, x, y);
          endDrag(state);
        } else if (done.moved) {
          marquee.hide();
          await marqueeSelect(
            state,
            done.startX,
            done.startY,
            x,
            y,
            done.shift ? 'add' : done.ctrl ? 'toggle' : 'replace',
          );
        } else {
          await clickSelect(state, x, y, done.ctrl ? 'toggle' : 'replace');
        }
      }),
    );
  }

  function onKeyDown(event: KeyboardEvent): void {
    if (event.target instanceof HTMLInputElement) return;
    const key = event.key.toLowerCase();
    if (key in modeKeys && !event.ctrlKey && !event.metaKey && !event.altKey) setMode(state, modeKeys[key]);
    else if (event.key === 'Escape') clearAll(state);
    else if (event.key === ' ') {
      event.preventDefault();
      resetCamera(state.camera);
      markDirty(state, true);
    }
  }

  function onWheel(event: WheelEvent): void {
    event.preventDefault();
    dolly(state.camera, event.deltaY);
    markDirty(state, true);
  }

  const onLeave = () => {
    hoverTarget = null;
    if (!press) clearHover(state);
  };
  const onContextMenu = (event: Event) => event.preventDefault();
  canvas.addEventListener('pointerdown', onPointerDown);
  canvas.addEventListener('pointermove', onPointerMove);
  canvas.addEventListener('pointerup', onPointerUp);
  canvas.addEventListener('pointerleave', onLeave);
  canvas.addEventListener('wheel', onWheel, { passive: false });
  canvas.addEventListener('contextmenu', onContextMenu);
  window.addEventListener('keydown', onKeyDown);
  return () => {
    canvas.removeEventListener('pointerdown', onPointerDown);
    canvas.removeEventListener('pointermove', onPointerMove);
    canvas.removeEventListener('pointerup', onPointerUp);
    canvas.removeEventListener('pointerleave', onLeave);
    canvas.removeEventListener('wheel', onWheel);
    canvas.removeEventListener('contextmenu', onContextMenu);
    window.removeEventListener('keydown', onKeyDown);
  };
}
