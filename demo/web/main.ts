// The weft editor page: a DCC-style scene with click / Ctrl+click / marquee selection, a translate / rotate / scale
// gizmo picked before the scene, a selection wireframe overlay and camera navigation.
import { createEngineAsync, type PerspectiveCamera, resizeEngine } from '../../engine/index.js';
import { createGpuPicker, enableDetailedPicking } from '../../picking/index.js';
import { setMode } from './editor/actions.js';
import type { EditorState } from './editor/editor-state.js';
import { attachEditorInput } from './editor/input.js';
import { makeSelection } from './editor/selection-items.js';
import { snapshotTransforms } from './editor/transforms.js';
import { createGizmo } from './gizmo/gizmo.js';
import { createEditorFrame, drawEditorFrame, type EditorFrame, resizeEditorFrame } from './render/editor-frame.js';
import { buildEditorScene } from './scene/editor-scene.js';
import { installTestApi } from './test-api.js';
import { setupGbufferStrip } from './ui/gbuffer-toggle.js';
import { createMarqueeView } from './ui/marquee.js';
import { createPanel, showFrameTime, updatePanel } from './ui/panel.js';

function reportGpuError(message: string): void {
  (window.__weftErrors ??= []).push(message);
  console.error(`[editor] WebGPU: ${message}`);
}

async function start(): Promise<void> {
  const canvas = document.querySelector<HTMLCanvasElement>('#gpu')!;
  if (!navigator.gpu) throw new Error('this browser has no WebGPU (navigator.gpu is missing)');
  const engine = await createEngineAsync(navigator.gpu, canvas, {
    devicePixelRatio: window.devicePixelRatio,
    label: 'editor',
  });
  const watch = (device: GPUDevice) =>
    device.addEventListener('uncapturederror', (event) =>
      reportGpuError((event as GPUUncapturedErrorEvent).error.message),
    );
  watch(engine.device);
  let watched = engine.device;
  const world = await buildEditorScene(engine);
  const camera = world.scene.camera as PerspectiveCamera;
  const picker = createGpuPicker(world.scene);
  const state: EditorState = {
    engine,
    world,
    camera,
    picker,
    detailed: enableDetailedPicking(picker),
    gizmo: createGizmo(engine, camera, picker),
    mode: 'select',
    selection: makeSelection(),
    hover: null,
    activeHandle: null,
    highlightVersion: 0,
    drag: null,
    lastPick: null,
    cssWidth: canvas.clientWidth,
    cssHeight: canvas.clientHeight,
    dirty: true,
    panelVersion: 0,
    pending: new Set(),
    errors: [],
    initialTransforms: snapshotTransforms(world.meshes),
  };
  const frame: EditorFrame = createEditorFrame(state);
  const panel = createPanel(document.querySelector('#panel')!, (mode) => setMode(state, mode));
  attachEditorInput(state, canvas, createMarqueeView(document.querySelector('#marquee')!));
  new ResizeObserver(() => {
    if (canvas.clientWidth === state.cssWidth && canvas.clientHeight === state.cssHeight) return;
    state.cssWidth = canvas.clientWidth;
    state.cssHeight = canvas.clientHeight;
    resizeEngine(engine);
    resizeEditorFrame(state, frame);
  }).observe(canvas);

  const loop = () => {
    requestAnimationFrame(loop);
    if (engine.device !== watched) {
      watched = engine.device;
      watch(watched);
    }
    if (state.dirty) {
      drawEditorFrame(state, frame);
      showFrameTime(panel, frame.lastCpuMs, frame.lastGpuMs);
    }
    updatePanel(panel, state);
  };
  requestAnimationFrame(loop);
  const gbuffer = await setupGbufferStrip(
    state,
    frame,
    document.querySelector('#gbuffer-section')!,
    document.querySelector<HTMLInputElement>('#gbuffer-toggle')!,
    document.querySelector('#captions')!,
  );
  installTestApi(state, frame, gbuffer);
}

start().catch((error: unknown) => {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  document.querySelector('#status')!.textContent = `the editor could not start: ${message}`;
  window.__editorFailed = message;
  console.error(`[editor] ${message}`);
});
