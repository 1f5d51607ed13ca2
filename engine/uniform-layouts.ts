import { makeLayoutWordOffsets } from '../composer/uniform-layout-fields.js';
import { makeWgslStructLayout } from '../composer/uniform-layout.js';
import type { StructLayout } from '../composer/uniform-layout-types.js';
import { makeDrawUniformsFragment } from '../fragments/draw-uniforms.js';
import { makeSceneUniformsFragment } from '../fragments/scene-uniforms.js';

/**
 * `SceneUniforms` and `DrawUniforms` as laid out by the WGSL rules, with the word index of each field the runtimes write.
 * @internal
 */
export interface EngineUniformLayouts {
  scene: StructLayout;
  sceneAt: Readonly<
    Record<'viewProjection' | 'cameraPosition' | 'lightDirection' | 'lightColor' | 'ambientColor', number>
  >;
  draw: StructLayout;
  drawAt: Readonly<Record<'world' | 'normalMatrix' | 'baseColor' | 'flags', number>>;
}

let layouts: EngineUniformLayouts | undefined;

/**
 * The layouts of the shared scene and draw uniforms, from the fragments' own struct declarations (the same structs
 * every composed variant links, none of them conditional), made on first use: per-frame writers read word indices.
 * @internal
 */
export function getEngineUniformLayouts(): EngineUniformLayouts {
  if (!layouts) {
    const scene = makeWgslStructLayout(makeSceneUniformsFragment().source, 'SceneUniforms');
    const draw = makeWgslStructLayout(makeDrawUniformsFragment().source, 'DrawUniforms');
    layouts = {
      scene,
      sceneAt: makeLayoutWordOffsets(scene, [
        'viewProjection',
        'cameraPosition',
        'lightDirection',
        'lightColor',
        'ambientColor',
      ]),
      draw,
      drawAt: makeLayoutWordOffsets(draw, ['world', 'normalMatrix', 'baseColor', 'flags']),
    };
  }
  return layouts;
}
