// The G-buffer strip toggle: shown only when weft's geometry module exports createGeometryRendererTask (it is being
// built alongside this page), so the module is read through the small shape below, not its full types.
import type { RenderTarget, Scene, Task } from '../../../engine/index.js';
import type { EditorState } from '../editor/editor-state.js';
import { markDirty } from '../editor/editor-state.js';
import { type EditorFrame, setFrameExtras } from '../render/editor-frame.js';
import { createGbufferStripTask, type GbufferTile, tileGap, tileRect } from '../render/gbuffer-strip-task.js';

/** The strip's on/off switch, when the geometry renderer exists. */
export interface GbufferStrip {
  enabled: boolean;
  setEnabled(on: boolean): void;
  /** Framebuffer rectangles of the thumbnails [x, y, w, h] and what each shows. */
  tiles(): { label: string; rect: [number, number, number, number] }[];
}

interface GeometryTaskShape extends Task {
  geometryAlbedoTexture?: RenderTarget | null;
  geometryWorldNormalTexture?: RenderTarget | null;
  geometryViewDepthTexture?: RenderTarget | null;
}

interface GeometryModuleShape {
  createGeometryRendererTask?: (
    scene: Scene,
    config: { name?: string; size?: { width: number; height: number }; textureDescriptions: { type: number }[] },
  ) => GeometryTaskShape;
  GeometryTextureType?: Record<string, number>;
}

/** Looks for the geometry renderer; wires the toggle when it exists, leaves the section hidden otherwise. */
export async function setupGbufferStrip(
  state: EditorState,
  frame: EditorFrame,
  section: HTMLElement,
  toggle: HTMLInputElement,
  captions: HTMLElement,
): Promise<GbufferStrip | null> {
  const geometry = (await import('../../../geometry/index.js').catch(
    () => null,
  )) as unknown as GeometryModuleShape | null;
  const create = geometry?.createGeometryRendererTask;
  const types = geometry?.GeometryTextureType;
  if (typeof create !== 'function' || !types) return null;
  section.hidden = false;
  const { engine } = state;
  const width = Math.floor((engine.width - 5 * tileGap) / 4);
  const height = Math.round((width * engine.height) / engine.width);
  let tasks: Task[] | null = null;
  let tiles: GbufferTile[] = [];
  const strip: GbufferStrip = {
    enabled: false,
    setEnabled(on) {
      if (on && !tasks) {
        const task = create(state.world.scene, {
          name: 'editor-gbuffer',
          size: { width, height },
          textureDescriptions: [{ type: types.ALBEDO }, { type: types.WORLD_NORMAL }, { type: types.VIEW_DEPTH }],
        });
        tiles = [
          { label: 'albedo', source: () => task.geometryAlbedoTexture ?? null, mode: 0 },
          { label: 'world normal', source: () => task.geometryWorldNormalTexture ?? null, mode: 1 },
          { label: 'view depth', source: () => task.geometryViewDepthTexture ?? null, mode: 2 },
        ];
        tasks = [task, createGbufferStripTask(engine, tiles, width, height)];
      }
      strip.enabled = on;
      toggle.checked = on;
      showCaptions(captions, on ? strip.tiles() : [], engine.devicePixelRatio);
      setFrameExtras(state, frame, on && tasks ? tasks : []);
      markDirty(state, true);
    },
    tiles: () => tiles.map((tile, i) => ({ label: tile.label, rect: tileRect(engine, i, width, height) })),
  };
  toggle.addEventListener('change', () => strip.setEnabled(toggle.checked));
  return strip;
}

/** Labels under the canvas' thumbnails (CSS pixels = framebuffer pixels / ratio). */
function showCaptions(root: HTMLElement, tiles: ReturnType<GbufferStrip['tiles']>, ratio: number): void {
  root.replaceChildren(
    ...tiles.map(({ label, rect: [x, y] }) => {
      const caption = document.createElement('span');
      caption.className = 'tile-caption';
      caption.textContent = label;
      caption.style.left = `${x / ratio + 4}px`;
      caption.style.top = `${y / ratio + 2}px`;
      return caption;
    }),
  );
}
