// What the bench page and its runner agree on: frame size, the scenes' layout, the pick points, the results' shapes.
import type { StageProfile } from './profile.js';

/** Frame size of both libraries' canvases (CSS pixels, device-pixel ratio 1). */
export const frameWidth = 640;
export const frameHeight = 480;

/** The single pick: the framebuffer pixel at the centre of the view, where one box sits. */
export const centre = { x: frameWidth / 2, y: frameHeight / 2 };

/** 64 pixels on an 8×8 lattice spread over the view. */
export const points: readonly { x: number; y: number }[] = Array.from({ length: 64 }, (_, i) => ({
  x: 40 + (i % 8) * 80,
  y: 30 + Math.floor(i / 8) * 60,
}));

/** The 191×120 marquee, centred: columns x .. x + 190, rows y .. y + 119. */
export const marquee = { x: centre.x - 95, y: centre.y - 60, width: 191, height: 120 };

/** The camera both libraries use for the pick scenes: 60 above the grid, looking down at its centre. */
export const pickCamera = { position: [0, 60, 0.01], target: [0, 0, 0], fovY: 1.2, near: 0.1, far: 200 } as const;

/** The box edge of the pick scenes and the grid spacing. */
export const boxSize = 0.4;
const spacing = 0.9;

/** Cell i of a side × side grid centred on the origin (cell side/2, side/2 sits at the origin). */
export function gridCell(i: number, side: number): [number, number, number] {
  return [((i % side) - Math.floor(side / 2)) * spacing, 0, (Math.floor(i / side) - Math.floor(side / 2)) * spacing];
}

/** Where mesh i of the G-buffer scene sits (x, y, z) and its turn about Y; both libraries place them alike. */
export function gbufferPlacement(i: number): [number, number, number, number] {
  return [((i % 10) - 4.5) * 1.05, Math.sin(i) * 0.6, -Math.floor(i / 10) * 1.1 + 2, i * 0.7];
}

export function gbufferRowPlacement(k: number): [number, number, number] {
  return [k * 1.6 - 4, -1.6, 3];
}

export function gbufferColour(i: number): [number, number, number] {
  return [0.3 + (i % 7) / 10, 0.5, 0.9 - (i % 5) / 10];
}

/** A pick scene: `count` separate box meshes or one box with `count` thin instances. */
export interface PickSceneSpec {
  count: number;
  thin: boolean;
}

/** Mesh name (and thin instance) of a hit, as both libraries report it: `box12`, `boxes#12`, or `-` for a miss. */
export type HitKey = string;

/** Milliseconds of one interleaved round of the pick bench, per measured operation. */
export interface PickRound {
  weftFloor: number;
  /** The draw floor: the pick-shaped pass plus one raw draw of a box over the pixel, no weft code (pick-floors.ts). */
  weftDrawFloor: number;
  babylonFloor: number;
  weftPick: number;
  babylonPick: number;
  weftMany: number;
  babylonMulti: number;
  weftRect: number;
  babylonBox: number;
  babylonFrame: number;
}

/** The answers of both libraries to the same requests, for the agreement count. */
export interface PickAnswers {
  weft: { centre: HitKey; many: HitKey[]; rect: HitKey[] };
  /** `ray`: Babylon.js's CPU ray pick (scene.pick) at the 64 points; `mirrored`: GPUPicker at (x, 479 − y). */
  babylon: { centre: HitKey; many: HitKey[]; rect: HitKey[]; ray: HitKey[]; mirrored: HitKey[] };
  /** Frames Babylon.js rendered per pick (its picks ride on a scene render). */
  babylonFramesPerPick: number;
}

/** Milliseconds of one interleaved round of the G-buffer bench. */
export interface GbufferRound {
  weftForward: number;
  weftGbuffer: number;
  weftBoth: number;
  babylonPlain: number;
  babylonGbuffer: number;
}

/** What the page reports once both engines are up. */
export interface PageInfo {
  adapter: string;
  /** Whether the page is cross-origin isolated (its clock ticks in ~5 µs rather than 100 µs). */
  isolated: boolean;
  /** Whether the page can call `gc()` (it then collects before each timed step). */
  collects: boolean;
  babylonVersion: string;
  weftOutputs: string[];
  babylonOutputs: string[];
  meshesInGbufferScene: number;
}

/** The functions the page exposes to the runner (window.__bench). */
export interface BenchPage {
  init(): Promise<PageInfo>;
  setupPick(spec: PickSceneSpec): Promise<{ weftMs: number; babylonMs: number }>;
  pickRound(order: number): Promise<PickRound>;
  pickAnswers(): Promise<PickAnswers>;
  /** Stage medians of weft's floor, draw floor, pick, pickMany and marquee on the current scene (after its timed rounds). */
  profile(): Promise<Record<'floor' | 'drawFloor' | 'pick' | 'many' | 'rect', StageProfile>>;
  setupGbuffer(): Promise<void>;
  gbufferRound(order: number): Promise<GbufferRound>;
  errors(): string[];
  /** The step the page is in (for the runner's timeout message). */
  step(): string;
}

declare global {
  interface Window {
    __bench?: BenchPage;
    __benchError?: string;
  }
}
