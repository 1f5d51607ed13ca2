import { encodeBlitPass } from './blit-pass.js';
import type { CopyToTextureState } from './copy-to-texture-state.js';

/** @internal Encodes the recorded copy, resolve pass or blit; creates nothing. */
export function executeCopyToTexture(state: CopyToTextureState, encoder: GPUCommandEncoder): void {
  const r = state.recorded!;
  if (r.path === 'copy')
    encoder.copyTextureToTexture({ texture: r.source, mipLevel: state.lod }, { texture: r.target }, r.copySize);
  else if (r.path === 'resolve') encoder.beginRenderPass(r.resolvePass!).end();
  else encodeBlitPass(encoder, r.blit!);
}
