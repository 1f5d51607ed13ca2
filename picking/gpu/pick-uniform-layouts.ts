import { makeLayoutWordOffsets } from '../../composer/uniform-layout-fields.js';
import { makeWgslStructLayout } from '../../composer/uniform-layout.js';
import { makePickDiscardTypesFragment } from '../../fragments/pick-discard.js';
import { makePickOutputFragment } from '../../fragments/pick-output.js';

/** Word index of each `PickUniforms` / `PickFrameUniforms` field the pick pass writes (inside its binding). */
interface PickUniformOffsets {
  pickAt: Readonly<Record<'id' | 'hasThinInstance' | 'vertexDataComponents', number>>;
  pickFrameAt: Readonly<Record<'pixelOffset', number>>;
}

let offsets: PickUniformOffsets | undefined;

/**
 * The pick pass's uniform offsets, from its fragments' structs laid out by the WGSL rules (made on first use).
 * @internal
 */
export function getPickUniformOffsets(): PickUniformOffsets {
  offsets ??= {
    pickAt: makeLayoutWordOffsets(makeWgslStructLayout(makePickOutputFragment().source, 'PickUniforms'), [
      'id',
      'hasThinInstance',
      'vertexDataComponents',
    ]),
    pickFrameAt: makeLayoutWordOffsets(
      makeWgslStructLayout(makePickDiscardTypesFragment().source, 'PickFrameUniforms'),
      ['pixelOffset'],
    ),
  };
  return offsets;
}
