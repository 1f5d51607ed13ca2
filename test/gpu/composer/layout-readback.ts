// The device as the reference of a buffer layout: values written into a buffer are read back scalar by scalar by a
// compute pass that names each one in WGSL. Shared by the layout tests and the TypeGPU interop test (whose buffers
// TypeGPU writes).
import { expect } from 'vitest';
import {
  type BufferLayout,
  bufferLayoutByteSize,
  composeVariant,
  type LayoutValue,
  listVariants,
  setUniforms,
  type TypeLayout,
} from '../../../composer/index.js';
import { makeWeftVariantRegistry } from '../../../variants/index.js';

/**
 * The device is the reference: values are written through weft's layout, then a compute pass reads every scalar back
 * by its WGSL name (`input.lights[1].color[2]`) and stores its bits into an output array. If an offset, stride or
 * padding were wrong, the device would read other bytes than the ones written.
 */

export interface Leaf {
  /** WGSL expression reading the scalar. */
  expr: string;
  scalar: 'f32' | 'i32' | 'u32' | 'f16';
  atomic: boolean;
  /** The expected 32-bit pattern, computed here (float64 → f32 rounding by Math.fround). */
  bits: number;
}

/** Elements written into a runtime-sized array. */
export const runtimeElements = 3;

/** Builds a value for `type` whose every scalar is distinct, and the leaves in WGSL access order. */
export function makeValue(type: TypeLayout, expr: string, leaves: Leaf[], variant: number): LayoutValue {
  const scalarValue = (scalar: Leaf['scalar'], atomic: boolean, at: string): number => {
    const k = leaves.length + 1;
    const value = scalar === 'u32' ? 0x10000 * k + 7 : scalar === 'i32' ? -37 * k : k * 1.375 - 0.1;
    const f32 = new Float32Array([value]);
    const bits = scalar === 'f32' ? new Uint32Array(f32.buffer)[0] : value >>> 0;
    leaves.push({ expr: at, scalar, atomic, bits });
    return value;
  };
  switch (type.kind) {
    case 'scalar':
      return scalarValue(type.scalar, type.atomic, expr);
    case 'vector':
      return Array.from({ length: type.components }, (_, c) => scalarValue(type.scalar, false, `${expr}[${c}]`));
    case 'matrix': {
      const flat: number[] = [];
      for (let c = 0; c < type.columns; c++)
        for (let r = 0; r < type.rows; r++) flat.push(scalarValue(type.scalar, false, `${expr}[${c}][${r}]`));
      if (type.rows !== 3 || variant % 2 === 0) return flat;
      // The padded form (wgpu-matrix's mat3): 4 numbers per column, the 4th ignored.
      return Array.from({ length: type.columns * 4 }, (_, i) => (i % 4 === 3 ? 99 : flat[(i >> 2) * 3 + (i % 4)]));
    }
    case 'array': {
      const count = type.length ?? runtimeElements;
      // Alternate the two accepted shapes: elements, or all numbers flat (matrices unpadded then).
      const numeric =
        type.element.kind !== 'struct' && !(type.element.kind === 'array' && type.element.element.kind === 'struct');
      const flat = numeric && variant % 2 === 1;
      const elements = Array.from({ length: count }, (_, e) =>
        makeValue(type.element, `${expr}[${e}]`, leaves, flat ? 0 : variant + e),
      );
      return flat ? (elements.flat(3) as number[]) : elements;
    }
    case 'struct': {
      const value: Record<string, LayoutValue> = {};
      for (const field of type.fields)
        value[field.name] = makeValue(field.type, `${expr}.${field.name}`, leaves, variant + 1);
      return value;
    }
  }
}

function readExpr(leaf: Leaf): string {
  const read = leaf.atomic ? `atomicLoad(&${leaf.expr})` : leaf.expr;
  return leaf.scalar === 'u32' ? read : `bitcast<u32>(${read})`;
}

/**
 * Writes a value with every scalar distinct through `write` (default: weft's `setUniforms` into a buffer whose padding
 * holds 0xa5), then reads every scalar back on the device through `declarations` and `layout.type.wgsl`.
 */
export async function roundTrip(
  device: GPUDevice,
  declarations: string,
  layout: BufferLayout,
  label: string,
  write: (values: LayoutValue, usage: GPUBufferUsageFlags) => GPUBuffer = (values, usage) =>
    writeWithWeft(device, layout, values, usage, label),
): Promise<void> {
  const leaves: Leaf[] = [];
  const values = makeValue(layout.type, 'input', leaves, 0);
  const space =
    layout.addressSpace === 'uniform'
      ? 'uniform'
      : `storage, ${layout.access === 'read_write' ? 'read_write' : 'read'}`;
  const code = `${declarations}
@group(0) @binding(0) var<${space}> input: ${layout.type.wgsl};
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@compute @workgroup_size(1) fn copyFields() {
${leaves.map((leaf, i) => `  output[${i}] = ${readExpr(leaf)};`).join('\n')}
}
`;
  const module = device.createShaderModule({ label: `${label}:module`, code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  expect(
    errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`),
    `${label} compiles`,
  ).toEqual([]);
  const usage = layout.addressSpace === 'uniform' ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE;
  const input = write(values, usage);
  const outputSize = leaves.length * 4;
  const output = device.createBuffer({
    label: `${label}:output`,
    size: outputSize,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
  });
  const staging = device.createBuffer({
    label: `${label}:staging`,
    size: outputSize,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const pipeline = await device.createComputePipelineAsync({
    label: `${label}:pipeline`,
    layout: 'auto',
    compute: { module, entryPoint: 'copyFields' },
  });
  const bindGroup = device.createBindGroup({
    label: `${label}:bind-group`,
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: input } },
      { binding: 1, resource: { buffer: output } },
    ],
  });
  const encoder = device.createCommandEncoder({ label: `${label}:encoder` });
  const pass = encoder.beginComputePass({ label: `${label}:pass` });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(1);
  pass.end();
  encoder.copyBufferToBuffer(output, 0, staging, 0, outputSize);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const read = [...new Uint32Array(staging.getMappedRange().slice(0))];
  staging.unmap();
  for (const buffer of [input, output, staging]) buffer.destroy();
  const mismatches = leaves
    .map((leaf, i) => ({ expr: leaf.expr, expected: leaf.bits, got: read[i] }))
    .filter((m) => m.expected !== m.got);
  expect(mismatches, `${label}: ${leaves.length} scalars read back`).toEqual([]);
}

function writeWithWeft(
  device: GPUDevice,
  layout: BufferLayout,
  values: LayoutValue,
  usage: GPUBufferUsageFlags,
  label: string,
): GPUBuffer {
  const size = layout.runtimeArray ? bufferLayoutByteSize(layout, runtimeElements) : layout.minBindingSize;
  const data = new ArrayBuffer(Math.max(16, Math.ceil(size / 16) * 16));
  // Padding bytes hold a pattern that matches no written value.
  new Uint8Array(data).fill(0xa5);
  setUniforms(layout, data, values);
  const input = device.createBuffer({
    label: `${label}:input`,
    size: data.byteLength,
    usage: usage | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(input, 0, data);
  return input;
}

/** Every WGSL type the traps below cover, and the alignment traps named in WGSL's layout rules. */
export const storageTraps = `
struct Inner { a: vec3f, b: f32, c: vec2i }
struct Mid { inner: Inner, m: mat3x3f, s: u32 }
struct Traps {
  f: f32, u: u32, i: i32,
  v2f: vec2f, v2u: vec2u, v2i: vec2i,
  v3f: vec3f, afterVec3: f32,
  v3u: vec3u, v3i: vec3i,
  v4f: vec4f, v4u: vec4u, v4i: vec4i,
  m3: mat3x3f, m4: mat4x4f, m2: mat2x2f, m34: mat3x4f, m43: mat4x3f, m32: mat3x2f,
  af: array<f32, 3>, au: array<u32, 2>, ai: array<i32, 2>,
  av3: array<vec3f, 3>, av2: array<vec2f, 3>, av4: array<vec4u, 2>,
  am3: array<mat3x3f, 2>, am4: array<mat4x4f, 2>,
  structs: array<Mid, 2>, nested: Mid, grid: array<array<vec3f, 2>, 2>,
  lone: f32,
  @align(32) aligned: vec3f, @size(20) sized: f32, afterSized: u32,
  tail: array<Inner>,
}
`;

/** Alignment traps in the uniform address space. */
export const uniformTraps = `
struct Light { color: vec3f, intensity: f32 }
struct Odd { x: f32, y: vec2f }
struct Frame {
  a: f32,
  light: Light,
  v3: vec3f, s: u32,
  basis: mat3x3f,
  world: mat4x4f,
  lights: array<Light, 2>,
  rows: array<vec4f, 3>,
  odd: Odd,
  i: i32,
  @align(16) h: vec2u,
  k: vec3i,
}
`;

/** Atomics, for a read_write storage buffer. */
export const atomics = `
struct Counters { hits: atomic<u32>, balance: atomic<i32>, bins: array<atomic<u32>, 3> }
`;

/** The struct declarations of a module's code (what a read-back program needs to name a buffer's type). */
export function structDeclarationsOf(code: string): string {
  return (code.match(/struct\s+\w+\s*\{[^}]*\}/g) ?? []).join('\n');
}

/**
 * One buffer layout per distinct (address space, WGSL type) over every registered weft variant, with the struct
 * declarations of the shader it came from (what a read-back program needs to name the type).
 */
export function variantBufferLayouts(): Map<string, { declarations: string; layout: BufferLayout }> {
  const registry = makeWeftVariantRegistry();
  const seen = new Map<string, { declarations: string; layout: BufferLayout }>();
  for (const variant of listVariants(registry)) {
    const shader = composeVariant(registry, variant.name);
    for (const layout of Object.values(shader.bufferLayouts)) {
      const key = `${layout.addressSpace}:${layout.type.wgsl}`;
      if (seen.has(key)) continue;
      seen.set(key, { declarations: structDeclarationsOf(shader.code), layout });
    }
  }
  return seen;
}
