import type { FragmentBuiltin } from '../fragments/fragment-types.js';
import { type GeneratedModule, makeModuleWriter } from './generated-module.js';
import type { OutputMode } from './output-mode.js';
import type { ComposedTarget, ComposedVarying } from './stage-io.js';
import type { ComposedVertexInput } from './vertex-layout.js';

/** @internal Fragment-input builtins and their `io::FragmentInput` member names and types. */
export const fragmentBuiltinMembers: Readonly<Record<FragmentBuiltin['builtin'], { member: string; type: string }>> = {
  front_facing: { member: 'frontFacing', type: 'bool' },
  primitive_index: { member: 'primitiveIndex', type: 'u32' },
  sample_index: { member: 'sampleIndex', type: 'u32' },
  sample_mask: { member: 'sampleMask', type: 'u32' },
};

/** @internal A fragment-input builtin of a composed shader and the fragments that read it. */
export interface ComposedBuiltin {
  builtin: FragmentBuiltin['builtin'];
  fragments: string[];
}

/** @internal The one `frag_depth` output of a shader and its declaring fragment. */
export interface DepthOutput {
  name: string;
  fragment: string;
}

/** @internal What the `io` module declares, with every location assigned. */
export interface StageIo {
  readonly vertexInputs: readonly ComposedVertexInput[];
  readonly varyings: readonly ComposedVarying[];
  readonly builtins: readonly ComposedBuiltin[];
  readonly targets: readonly ComposedTarget[];
  readonly depthOutput: DepthOutput | null;
}

/** @internal The `@interpolate(…) ` attribute of a varying, or '' for the default. */
export function interpolate(v: { interpolation?: string; sampling?: string }): string {
  if (!v.interpolation) return '';
  return v.sampling ? `@interpolate(${v.interpolation}, ${v.sampling}) ` : `@interpolate(${v.interpolation}) `;
}

type ModuleWriter = ReturnType<typeof makeModuleWriter>;

/**
 * Writes the `io` module (VertexInput, PulledVertexInput when pulled, VertexOutput, FragmentInput, FragmentOutput).
 * A library's structs carry no attributes: the host's own entry points declare them.
 * @internal
 */
export function writeIoModule(io: StageIo, mode: OutputMode): GeneratedModule {
  const w = makeModuleWriter('io');
  const attr = (text: string) => (mode.library ? '' : text);
  writeVertexInputs(w, io.vertexInputs, mode.pulled, attr);
  for (const struct of ['VertexOutput', 'FragmentInput']) {
    w.line(`struct ${struct} {`);
    w.line(`  ${attr('@builtin(position) ')}position: vec4f,`);
    for (const v of io.varyings)
      w.line(`  ${attr(`@location(${v.location}) ${interpolate(v)}`)}${v.name}: ${v.wgslType},`, v.fragments[0]);
    if (struct === 'FragmentInput') {
      for (const b of io.builtins)
        w.line(
          `  ${attr(`@builtin(${b.builtin}) `)}${fragmentBuiltinMembers[b.builtin].member}: ${fragmentBuiltinMembers[b.builtin].type},`,
          b.fragments[0],
        );
    }
    w.line('}');
    w.line('');
  }
  const { targets, depthOutput } = io;
  if (targets.length || depthOutput) {
    w.line('struct FragmentOutput {');
    for (const t of targets) w.line(`  ${attr(`@location(${t.location}) `)}${t.name}: ${t.wgslType},`, t.fragment);
    if (depthOutput) w.line(`  ${attr('@builtin(frag_depth) ')}${depthOutput.name}: f32,`, depthOutput.fragment);
    w.line('}');
  }
  return w.done();
}

function writeVertexInputs(
  w: ModuleWriter,
  vertexInputs: readonly ComposedVertexInput[],
  pulled: boolean,
  attr: (text: string) => string,
): void {
  w.line('struct VertexInput {');
  // A vertexIndex vertex input (e.g. the original index of a de-indexed mesh's corner) stands in for the builtin,
  // which stays readable as drawVertexIndex.
  if (vertexInputs.some((input) => input.semantic === 'vertexIndex'))
    w.line(`  ${attr('@builtin(vertex_index) ')}drawVertexIndex: u32,`);
  else w.line(`  ${attr('@builtin(vertex_index) ')}vertexIndex: u32,`);
  w.line(`  ${attr('@builtin(instance_index) ')}instanceIndex: u32,`);
  // A pulled variant builds VertexInput itself (composer/vertex-pulling.ts): pulled inputs have no location.
  if (pulled) w.line('  drawVertexIndex: u32,');
  for (const input of vertexInputs)
    w.line(
      `  ${input.location < 0 || pulled ? '' : attr(`@location(${input.location}) `)}${input.semantic}: ${input.wgslType},`,
      input.fragments[0],
    );
  w.line('}');
  w.line('');
  if (pulled) {
    // The vertex entry's own input: the builtins and the inputs that stay vertex buffers (instance-step).
    w.line('struct PulledVertexInput {');
    w.line('  @builtin(vertex_index) drawVertexIndex: u32,');
    w.line('  @builtin(instance_index) instanceIndex: u32,');
    for (const input of vertexInputs)
      if (input.location >= 0)
        w.line(`  @location(${input.location}) ${input.semantic}: ${input.wgslType},`, input.fragments[0]);
    w.line('}');
    w.line('');
  }
}
