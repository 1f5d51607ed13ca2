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
import { checkOutputFormat } from './output-formats.js';
import type { GeneratedModule } from './generated-module.js';
import type { OutputMode } from './output-mode.js';
import {
  type ComposedBuiltin,
  type DepthOutput,
  fragmentBuiltinMembers,
  interpolate,
  writeIoModule,
} from './stage-io-module.js';
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

const reservedVaryings: readonly string[] = ['position', 'frontFacing', 'primitiveIndex', 'sampleIndex', 'sampleMask'];

/** What the collect phase gathers, per fragment in order; locations are assigned afterwards. */
interface StageIoFound {
  readonly varyingByName: Map<string, ComposedVarying>;
  readonly builtinByName: Map<FragmentBuiltin['builtin'], string[]>;
  readonly targets: ComposedTarget[];
  depthOutput: DepthOutput | null;
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
  mode: OutputMode,
): {
  varyings: ComposedVarying[];
  builtins: ComposedBuiltin[];
  targets: ComposedTarget[];
  module: GeneratedModule;
} {
  const found: StageIoFound = { varyingByName: new Map(), builtinByName: new Map(), targets: [], depthOutput: null };
  for (const fragment of ordered) {
    for (const v of activeItems<FragmentVarying>(api, fragment, fragment.varyings, conditions)) {
      collectVarying(api, fragment, v, found.varyingByName);
    }
    for (const b of activeItems<FragmentBuiltin>(api, fragment, fragment.builtins, conditions)) {
      collectBuiltin(api, fragment, b, found.builtinByName);
    }
    for (const o of activeItems<FragmentOutputDecl>(api, fragment, fragment.outputs, conditions)) {
      collectOutput(api, fragment, o, found);
    }
  }
  const varyings = [...found.varyingByName.values()]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((v, location) => ({ ...v, location }));
  const builtins = [...found.builtinByName]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([builtin, fragments]) => ({ builtin, fragments }));
  const io = { vertexInputs, varyings, builtins, targets: found.targets, depthOutput: found.depthOutput };
  return { varyings, builtins, targets: found.targets, module: writeIoModule(io, mode) };
}

function checkVarying(api: string, fragment: Fragment, v: FragmentVarying): void {
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
}

/** Adds one varying declaration; fragments declaring the same varying must agree on its type and interpolation. */
function collectVarying(
  api: string,
  fragment: Fragment,
  v: FragmentVarying,
  varyingByName: Map<string, ComposedVarying>,
): void {
  checkVarying(api, fragment, v);
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

function collectBuiltin(
  api: string,
  fragment: Fragment,
  b: FragmentBuiltin,
  builtinByName: Map<FragmentBuiltin['builtin'], string[]>,
): void {
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

function checkOutput(api: string, fragment: Fragment, o: FragmentOutputDecl): void {
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
}

function checkDepthOutput(api: string, fragment: Fragment, o: FragmentOutputDecl, clash: DepthOutput | null): void {
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
  if (clash)
    throw new ComposeError(
      api,
      'interface-clash',
      [clash.fragment, fragment.id],
      `output "${o.name}": fragments "${clash.fragment}" and "${fragment.id}" both declare it (one frag_depth output per shader)`,
    );
}

/** Adds one output: a colour target at the next location, or the one frag_depth output. */
function collectOutput(api: string, fragment: Fragment, o: FragmentOutputDecl, found: StageIoFound): void {
  checkOutput(api, fragment, o);
  const { targets, depthOutput } = found;
  const clash = targets.find((t) => t.name === o.name) ?? (depthOutput?.name === o.name ? depthOutput : undefined);
  if (o.builtin !== undefined) {
    checkDepthOutput(api, fragment, o, depthOutput ?? clash ?? null);
    found.depthOutput = { name: o.name, fragment: fragment.id };
    return;
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
