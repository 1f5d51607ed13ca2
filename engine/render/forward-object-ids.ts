import { EngineError } from '../engine-errors.js';
import {
  type FrameIdHit,
  type FrameIdRange,
  type FrameIdReader,
  createFrameIdReader,
  readFrameIdTexelAsync,
} from '../frame-ids.js';

/** @internal The forward task's object-ID attachment and the ID ranges of the frame it last drew. */
export interface ForwardObjectIds {
  texture: GPUTexture | null;
  /** The device `texture` was made on. */
  device: GPUDevice | null;
  view: GPUTextureView | null;
  /** Ranges of the recorded draw list (immutable). */
  recordedRanges: readonly FrameIdRange[] | null;
  /** Ranges of the last executed frame: what a read resolves against. */
  frameRanges: readonly FrameIdRange[] | null;
  reader: FrameIdReader;
}

/**
 * Format of the forward object-ID attachment: x = frame id, y = primitive index (0xffffffff without the feature).
 * @internal
 */
export const forwardObjectIdFormat: GPUTextureFormat = 'rg32uint';

/** @internal Empty object-ID state (textures appear at record). */
export function makeForwardObjectIds(label: string): ForwardObjectIds {
  return {
    texture: null,
    device: null,
    view: null,
    recordedRanges: null,
    frameRanges: null,
    reader: createFrameIdReader(label),
  };
}

/** @internal (Re)allocates the ID texture when the device or the frame size changed. */
export function ensureObjectIdTexture(
  ids: ForwardObjectIds,
  device: GPUDevice,
  width: number,
  height: number,
  label: string,
): void {
  const current = ids.texture;
  if (current && current.width === width && current.height === height && ids.device === device) return;
  current?.destroy();
  ids.texture = device.createTexture({
    label: `${label}:object-ids`,
    size: [width, height],
    format: forwardObjectIdFormat,
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });
  ids.view = ids.texture.createView();
  ids.device = device;
}

/**
 * Reads which mesh, thin instance and triangle the last executed frame drew at pixel (x, y): no extra pass.
 * @internal
 */
export function readObjectIdTexel(
  ids: ForwardObjectIds,
  device: GPUDevice,
  name: string,
  x: number,
  y: number,
): Promise<FrameIdHit> {
  if (!ids.texture || !ids.frameRanges) {
    return Promise.reject(
      new EngineError(
        'readForwardFrameIdAsync',
        'no-frame',
        `forward task "${name}" has not drawn a frame with objectIds on the current device yet; run it first`,
      ),
    );
  }
  return readFrameIdTexelAsync(ids.reader, device, ids.texture, ids.frameRanges, x, y);
}
