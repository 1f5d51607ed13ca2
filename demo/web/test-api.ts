// window.__editor: what Playwright tests read and wait for (selection, camera matrices, transforms, gizmo, picks).
import { getCameraOrbit, getCameraViewProjectionMatrix } from '../../engine/index.js';
import { clearAll, refreshGizmo, setMode } from './editor/actions.js';
import { cameraControls, resetCamera } from './editor/camera-controls.js';
import { type EditorState, markDirty } from './editor/editor-state.js';
import { handleTolerance, pickAt } from './editor/editor-picking.js';
import { clickSlop } from './editor/input.js';
import type { PickReport } from './editor/pick-report.js';
import { itemName, type SelectionItem } from './editor/selection-items.js';
import { itemOrigin, itemWorldBounds, readItemWorld, restoreTransforms } from './editor/transforms.js';
import { minScaleFactor, uniformScalePixels } from './gizmo/gizmo-drag.js';
import { gizmoProportions } from './gizmo/gizmo-shapes.js';
import { type EditorMode, gizmoPixels, handleGrabPoint } from './gizmo/gizmo.js';
import { type EditorFrame, nextEditorFrame } from './render/editor-frame.js';
import type { GbufferStrip } from './ui/gbuffer-toggle.js';

/** The camera as the page draws with it; pixels are CSS pixels of the canvas. */
export interface CameraReport {
  position: number[];
  target: number[];
  fovY: number;
  viewProjection: number[];
  orbit: { yaw: number; pitch: number; radius: number };
  cssWidth: number;
  cssHeight: number;
  devicePixelRatio: number;
  /** The canvas' top-left corner in page CSS pixels (where Playwright's mouse coordinates start). */
  canvasLeft: number;
  canvasTop: number;
}

/** Frame timings over a recorded interval (ms). */
export interface TimingReport {
  frames: number;
  avgIntervalMs: number;
  avgCpuMs: number;
  avgGpuMs: number;
  maxGpuMs: number;
}

/** The test API published as `window.__editor`. */
export interface EditorTestApi {
  idle(): Promise<void>;
  selection(): string[];
  mode(): EditorMode;
  setMode(mode: EditorMode): Promise<void>;
  camera(): CameraReport;
  transforms(): Record<string, number[]>;
  objects(): { name: string; origin: number[]; min: number[]; max: number[] }[];
  gizmo(): {
    visible: boolean;
    mode: EditorMode;
    pivot: number[];
    size: number;
    handles: Record<string, { visible: boolean; grab: number[] }>;
  };
  /** The handle the editor's pick finds at (x, y), and (a second, scene-only pick for the test) the object under it. */
  pickAt(x: number, y: number): Promise<{ handle: string | null; object: string | null }>;
  /** Pick passes encoded on the device so far, by any picker (a hover or a press costs one). */
  pickPasses(): number;
  lastPick(): PickReport | null;
  drag(): { handle: string; value: number[] } | null;
  startTiming(): void;
  stopTiming(): TimingReport;
  reset(): Promise<void>;
  errors(): string[];
  features(): {
    detailed: boolean;
    detailMethod: string | null;
    gbufferAvailable: boolean;
    adapterFeatures: string[];
  };
  /** The G-buffer thumbnails' framebuffer rectangles when the strip is on; [] otherwise. */
  gbufferTiles(): { label: string; rect: [number, number, number, number] }[];
  constants: {
    gizmoPixels: number;
    handleTolerance: number;
    uniformScalePixels: number;
    minScaleFactor: number;
    clickSlop: number;
    tumblePerPixel: number;
    dollyBase: number;
    ringRadius: number;
  };
}

declare global {
  interface Window {
    __editor?: EditorTestApi;
    /** Set when the page failed to start. */
    __editorFailed?: string;
    __weftErrors?: string[];
  }
}

function selectableItems(state: EditorState): SelectionItem[] {
  return state.world.meshes.flatMap((mesh) =>
    mesh.thinInstances
      ? Array.from({ length: mesh.thinInstanceCount }, (_, i) => ({ mesh, instance: i }))
      : [{ mesh, instance: -1 }],
  );
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

/** Publishes `window.__editor`. */
export function installTestApi(state: EditorState, frame: EditorFrame, gbuffer: GbufferStrip | null): void {
  const idle = async () => {
    do {
      while (state.pending.size) await Promise.allSettled([...state.pending]);
      await nextEditorFrame(state, frame);
    } while (state.pending.size);
  };
  // Counts the command encoders weft's GPU pickers label 'weft:pick' (one per pass submitted).
  const pickPasses = { count: 0 };
  const device = state.engine.device;
  const createEncoder = device.createCommandEncoder.bind(device);
  device.createCommandEncoder = (descriptor) => {
    if (descriptor?.label === 'weft:pick') pickPasses.count++;
    return createEncoder(descriptor);
  };
  window.__editor = {
    idle,
    selection: () => [...state.selection.items.values()].map(itemName),
    mode: () => state.mode,
    async setMode(mode) {
      setMode(state, mode);
      await idle();
    },
    camera() {
      const rect =
        state.engine.canvas instanceof HTMLCanvasElement
          ? state.engine.canvas.getBoundingClientRect()
          : { left: 0, top: 0 };
      const orbit = getCameraOrbit(state.camera);
      return {
        position: Array.from(state.camera.position),
        target: Array.from(state.camera.target),
        fovY: state.camera.fovY,
        viewProjection: Array.from(
          getCameraViewProjectionMatrix(state.camera, state.engine.width / state.engine.height),
        ),
        orbit: { yaw: orbit.yaw, pitch: orbit.pitch, radius: orbit.radius },
        cssWidth: state.cssWidth,
        cssHeight: state.cssHeight,
        devicePixelRatio: state.engine.devicePixelRatio,
        canvasLeft: rect.left,
        canvasTop: rect.top,
      };
    },
    transforms: () =>
      Object.fromEntries(selectableItems(state).map((item) => [itemName(item), Array.from(readItemWorld(item))])),
    objects: () =>
      selectableItems(state).map((item) => {
        const bounds = itemWorldBounds(item);
        return {
          name: itemName(item),
          origin: Array.from(itemOrigin(item)),
          min: [...bounds.min],
          max: [...bounds.max],
        };
      }),
    gizmo() {
      refreshGizmo(state);
      const g = state.gizmo;
      const handles = Object.fromEntries(
        g.handles.map((h) => [h.name, { visible: h.mesh.visible, grab: Array.from(handleGrabPoint(g, h)) }]),
      );
      return { visible: g.visible, mode: g.mode, pivot: Array.from(g.pivot), size: g.size, handles };
    },
    async pickAt(x, y) {
      refreshGizmo(state);
      const [{ handle }, { item }] = await Promise.all([pickAt(state, x, y), pickAt(state, x, y, false)]);
      return { handle: handle?.name ?? null, object: item ? itemName(item) : null };
    },
    pickPasses: () => pickPasses.count,
    lastPick: () => state.lastPick,
    drag: () => (state.drag ? { handle: state.drag.handle.name, value: [...state.drag.value] } : null),
    startTiming() {
      Object.assign(frame.timings, { recording: true, cpu: [], gpu: [], interval: [] });
      frame.lastFrameAt = 0;
    },
    stopTiming() {
      const t = frame.timings;
      t.recording = false;
      return {
        frames: t.cpu.length,
        avgIntervalMs: mean(t.interval),
        avgCpuMs: mean(t.cpu),
        avgGpuMs: mean(t.gpu),
        maxGpuMs: Math.max(0, ...t.gpu),
      };
    },
    async reset() {
      await idle();
      restoreTransforms(state.initialTransforms);
      clearAll(state);
      setMode(state, 'select');
      resetCamera(state.camera);
      state.hover = null;
      state.activeHandle = null;
      state.lastPick = null;
      state.highlightVersion++;
      markDirty(state, true);
      await idle();
    },
    errors: () => [...state.errors],
    gbufferTiles: () => (gbuffer?.enabled ? gbuffer.tiles() : []),
    features: () => ({
      detailed: state.detailed,
      detailMethod: state.picker.detailMethod,
      gbufferAvailable: gbuffer !== null,
      adapterFeatures: [...state.engine.adapter!.features].sort(),
    }),
    constants: {
      gizmoPixels,
      handleTolerance,
      uniformScalePixels,
      minScaleFactor,
      clickSlop,
      tumblePerPixel: cameraControls.tumblePerPixel,
      dollyBase: cameraControls.dollyBase,
      ringRadius: gizmoProportions.ringRadius,
    },
  };
}
