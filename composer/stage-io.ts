import type {
  Fragment,
  FragmentBuiltin,
  FragmentOutputDecl,
  FragmentVarying,
  InterpolationType,
} from '../fragments/fragment-types.js';
import type { Conditions } from './conditions.js';
import { describeValue } from '../core/errors.js';
import { ComposeError } from './errors.js';
import { activeItems } from './fragment-graph.js';
import { type GeneratedModule, makeModuleWriter } from './generated-module.js';
import type { ComposedVertexInput } from './vertex-layout.js';
import { isWgslIdentifier, wgslScalarKind } from './wgsl-names.js';

/** A varying of a composed shader with its assigned location (varyings are sorted by name). */
export interface ComposedVarying {
  name: string;
  location: number;
  wgslType: string;
  interpolation?: InterpolationType;
  sampling?: string;
  fragments: string[];
}

/** A colour output of a composed shader: build `fragment.targets[location]` with `format`. */
export interface ComposedTarget {
  name: string;
  location: number;
  wgslType: string;
  /** The declared format, or null when the caller chooses (e.g. the canvas format). */
  format: GPUTextureFormat | null;
  fragment: string;
}

/** Fragment-input builtins and their `io::FragmentInput` member names and types. */
const fragmentBuiltinMembers: Readonly<Record<FragmentBuiltin['builtin'], { member: string; type: string }>> = {
  front_facing: { member: 'frontFacing', type: 'bool' },
  primitive_index: { member: 'primitiveIndex', type: 'u32' },
  sample_index: { member: 'sampleIndex', type: 'u32' },
  sample_mask: { member: 'sampleMask', type: 'u32' },
};

const reservedVaryings: readonly string[] = ['position', 'frontFacing', 'primitiveIndex', 'sampleIndex', 'sampleMask'];

/**
 * Colour-renderable texture formats by the sample type a fragment output writes (WebGPU "renderable" formats; the
 * ones behind a device feature — snorm, 16-bit norm, rg11b10ufloat — are listed too, the device checks the feature)
 * and their component counts. An f32/f16 output needs a float format, u32 a uint one, i32 a sint one, and the output
 * must have at least as many components as the format.
 */
const renderableFormats: Readonly<Record<'float' | 'uint' | 'sint', Readonly<Record<string, number>>>> = {
  float: {
    r8unorm: 1,
    r8snorm: 1,
    r16unorm: 1,
    r16snorm: 1,
    r16float: 1,
    r32float: 1,
    rg8unorm: 2,
    rg8snorm: 2,
    rg16unorm: 2,
    rg16snorm: 2,
    rg16float: 2,
    rg32float: 2,
    rg11b10ufloat: 3,
    rgba8unorm: 4,
    'rgba8unorm-srgb': 4,
    rgba8snorm: 4,
    bgra8unorm: 4,
    'bgra8unorm-srgb': 4,
    rgb10a2unorm: 4,
    rgba16unorm: 4,
    rgba16snorm: 4,
    rgba16float: 4,
    rgba32float: 4,
  },
  uint: {
    r8uint: 1,
    r16uint: 1,
    r32uint: 1,
    rg8uint: 2,
    rg16uint: 2,
    rg32uint: 2,
    rgba8uint: 4,
    rgb10a2uint: 4,
    rgba16uint: 4,
    rgba32uint: 4,
  },
  sint: {
    r8sint: 1,
    r16sint: 1,
    r32sint: 1,
    rg8sint: 2,
    rg16sint: 2,
    rg32sint: 2,
    rgba8sint: 4,
    rgba16sint: 4,
    rgba32sint: 4,
  },
};

/** Components of a WGSL numeric scalar or vector type (`vec3f` → 3, `f32` → 1). */
function componentCount(type: string): number {
  const m = /^vec([234])/.exec(type.replace(/\s+/g, ''));
  return m ? Number(m[1]) : 1;
}

function checkOutputFormat(api: string, fragment: Fragment, o: FragmentOutputDecl): void {
  if (o.format === undefined) return;
  const kind = wgslScalarKind(o.type)!;
  const components = componentCount(o.type);
  const formats = renderableFormats[kind];
  const size = typeof o.format === 'string' && Object.hasOwn(formats, o.format) ? formats[o.format] : 0;
  if (size > 0 && size <= components) return;
  const allowed = Object.keys(formats).filter((f) => formats[f] <= components);
  throw new ComposeError(
    api,
    'output-format',
    [fragment.id],
    `fragment "${fragment.id}" output "${o.name}" (${o.type}) has format ${describeValue(o.format)}; a ${o.type} output writes a colour-renderable ${kind} format of at most ${components} component(s): ${allowed.join(', ')}`,
  );
}

function interpolate(v: { interpolation?: string; sampling?: string }): string {
  if (!v.interpolation) return '';
  return v.sampling ? `@interpolate(${v.interpolation}, ${v.sampling}) ` : `@interpolate(${v.interpolation}) `;
}

/**
 * Collects varyings, fragment builtins and outputs; assigns varying locations by name and output locations in
 * fragment order then declaration order; writes the `io` module (VertexInput, VertexOutput, FragmentInput, FragmentOutput).
 * @internal
 */
export function assignStageIo(
  api: string,
  ordered: readonly Fragment[],
  conditions: Conditions,
  vertexInputs: readonly ComposedVertexInput[],
  pulled = false,
  library = false,
): {
  varyings: ComposedVarying[];
  builtins: { builtin: FragmentBuiltin['builtin']; fragments: string[] }[];
  targets: ComposedTarget[];
  module: GeneratedModule;
} {
  const varyingByName = new Map<string, ComposedVarying>();
  const builtinByName = new Map<FragmentBuiltin['builtin'], string[]>();
  const targets: ComposedTarget[] = [];
  let depthOutput: { name: string; fragment: string } | null = null;
  for (const fragment of ordered) {
    for (const v of activeItems<FragmentVarying>(api, fragment, fragment.varyings, conditions)) {
      if (typeof v?.name !== 'string' || !isWgslIdentifier(v.name) || reservedVaryings.includes(v.name)) {
        throw new ComposeError(
          api,
          'invalid-fragment',
          [fragment.id],
          `fragment "${fragment.id}" varying name ${describeValue(v?.name)} must be a WGSL identifier other than ${reservedVaryings.join(', ')}`,
        );
      }
      const kind = typeof v.type === 'string' ? wgslScalarKind(v.type) : null;
      if (!kind)
        throw new ComposeError(
          api,
          'invalid-fragment',
          [fragment.id],
          `fragment "${fragment.id}" varying "${v.name}" has type ${describeValue(v.type)}; a varying is a numeric scalar or vector`,
        );
      if (kind !== 'float' && v.interpolation !== 'flat') {
        throw new ComposeError(
          api,
          'invalid-fragment',
          [fragment.id],
          `fragment "${fragment.id}" varying "${v.name}" is ${v.type} with interpolation ${describeValue(v.interpolation)}; integer varyings must use interpolation "flat"`,
        );
      }
      const existing = varyingByName.get(v.name);
      const candidate: ComposedVarying = {
        name: v.name,
        location: -1,
        wgslType: v.type.replace(/\s+/g, ''),
        interpolation: v.interpolation,
        sampling: v.sampling,
        fragments: [fragment.id],
      };
      if (!existing) {
        varyingByName.set(v.name, candidate);
      } else if (
        existing.wgslType !== candidate.wgslType ||
        existing.interpolation !== candidate.interpolation ||
        existing.sampling !== candidate.sampling
      ) {
        throw new ComposeError(
          api,
          'interface-clash',
          [existing.fragments[0], fragment.id],
          `varying "${v.name}" is declared by fragment "${existing.fragments[0]}" as ${interpolate(existing)}${existing.wgslType} and by fragment "${fragment.id}" as ${interpolate(candidate)}${candidate.wgslType}; declarations of one varying must agree`,
        );
      } else if (!existing.fragments.includes(fragment.id)) {
        existing.fragments.push(fragment.id);
      }
    }
    for (const b of activeItems<FragmentBuiltin>(api, fragment, fragment.builtins, conditions)) {
      if (!(b?.builtin in fragmentBuiltinMembers)) {
        throw new ComposeError(
          api,
          'invalid-fragment',
          [fragment.id],
          `fragment "${fragment.id}" builtin ${describeValue(b?.builtin)} is not one of ${Object.keys(fragmentBuiltinMembers).join(', ')}`,
        );
      }
      const users = builtinByName.get(b.builtin) ?? [];
      if (!users.includes(fragment.id)) users.push(fragment.id);
      builtinByName.set(b.builtin, users);
    }
    for (const o of activeItems<FragmentOutputDecl>(api, fragment, fragment.outputs, conditions)) {
      if (typeof o?.name !== 'string' || !isWgslIdentifier(o.name))
        throw new ComposeError(
          api,
          'invalid-fragment',
          [fragment.id],
          `fragment "${fragment.id}" output name ${describeValue(o?.name)} must be a WGSL identifier`,
        );
      if (typeof o.type !== 'string' || !wgslScalarKind(o.type))
        throw new ComposeError(
          api,
          'invalid-fragment',
          [fragment.id],
          `fragment "${fragment.id}" output "${o.name}" has type ${describeValue(o.type)}; an output is a numeric scalar or vector`,
        );
      const clash = targets.find((t) => t.name === o.name) ?? (depthOutput?.name === o.name ? depthOutput : undefined);
      if (o.builtin !== undefined) {
        if (o.builtin !== 'frag_depth')
          throw new ComposeError(
            api,
            'invalid-fragment',
            [fragment.id],
            `fragment "${fragment.id}" output "${o.name}" has builtin ${describeValue(o.builtin)}; the only output builtin is "frag_depth"`,
          );
        if (o.type !== 'f32')
          throw new ComposeError(
            api,
            'invalid-fragment',
            [fragment.id],
            `fragment "${fragment.id}" output "${o.name}" is frag_depth with type ${describeValue(o.type)}; frag_depth is f32`,
          );
        if (depthOutput || clash)
          throw new ComposeError(
            api,
            'interface-clash',
            [(depthOutput ?? clash)!.fragment, fragment.id],
            `output "${o.name}": fragments "${(depthOutput ?? clash)!.fragment}" and "${fragment.id}" both declare it (one frag_depth output per shader)`,
          );
        depthOutput = { name: o.name, fragment: fragment.id };
        continue;
      }
      if (clash)
        throw new ComposeError(
          api,
          'interface-clash',
          [clash.fragment, fragment.id],
          `output "${o.name}" is declared by fragments "${clash.fragment}" and "${fragment.id}"; each output (render target) has one declaring fragment`,
        );
      checkOutputFormat(api, fragment, o);
      targets.push({
        name: o.name,
        location: targets.length,
        wgslType: o.type.replace(/\s+/g, ''),
        format: o.format ?? null,
        fragment: fragment.id,
      });
    }
  }
  const varyings = [...varyingByName.values()]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((v, location) => ({ ...v, location }));
  const builtins = [...builtinByName]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([builtin, fragments]) => ({ builtin, fragments }));

  const w = makeModuleWriter('io');
  const attr = (text: string) => (library ? '' : text);
  w.line('struct VertexInput {');
  w.line(`  ${attr('@builtin(vertex_index) ')}vertexIndex: u32,`);
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
  for (const struct of ['VertexOutput', 'FragmentInput']) {
    w.line(`struct ${struct} {`);
    w.line(`  ${attr('@builtin(position) ')}position: vec4f,`);
    for (const v of varyings)
      w.line(`  ${attr(`@location(${v.location}) ${interpolate(v)}`)}${v.name}: ${v.wgslType},`, v.fragments[0]);
    if (struct === 'FragmentInput') {
      for (const b of builtins)
        w.line(
          `  ${attr(`@builtin(${b.builtin}) `)}${fragmentBuiltinMembers[b.builtin].member}: ${fragmentBuiltinMembers[b.builtin].type},`,
          b.fragments[0],
        );
    }
    w.line('}');
    w.line('');
  }
  if (targets.length || depthOutput) {
    w.line('struct FragmentOutput {');
    for (const t of targets) w.line(`  ${attr(`@location(${t.location}) `)}${t.name}: ${t.wgslType},`, t.fragment);
    if (depthOutput) w.line(`  ${attr('@builtin(frag_depth) ')}${depthOutput.name}: f32,`, depthOutput.fragment);
    w.line('}');
  }
  return { varyings, builtins, targets, module: w.done() };
}
