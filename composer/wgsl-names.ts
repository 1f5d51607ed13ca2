const predeclared: readonly string[] = [
  'bool',
  'f16',
  'f32',
  'i32',
  'u32',
  'array',
  'atomic',
  'ptr',
  'sampler',
  'sampler_comparison',
  'binding_array',
  'function',
  'private',
  'workgroup',
  'uniform',
  'storage',
  'handle',
  'read',
  'write',
  'read_write',
  'rgb10a2unorm',
  'rgb10a2uint',
  'rg11b10ufloat',
];

/** @internal True for WGSL's predeclared type names, address spaces, access modes and texel formats. */
export function isPredeclaredWgslName(name: string): boolean {
  return (
    predeclared.includes(name) ||
    /^(vec[234][fihu]?|mat[234]x[234][fh]?|texture_\w+|(r|rg|rgba|bgra)(8|16|32)(unorm|snorm|uint|sint|float))$/.test(
      name,
    )
  );
}

/** @internal True when `name` is a plain WGSL identifier. */
export function isWgslIdentifier(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && name !== '_' && !name.startsWith('__');
}

/**
 * Rewrites the user-defined names of a WGSL type expression to fully qualified wesl paths
 * (`array<Light, 4>` → `array<package::lights::Light, 4>`), so generated modules need no imports.
 * @internal
 */
export function qualifyWgslType(type: string, qualify: (name: string) => string): string {
  return type.replace(/[0-9][0-9A-Za-z_.]*|[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*/g, (token) => {
    if (/^[0-9]/.test(token) || token.includes('::') || isPredeclaredWgslName(token)) return token;
    return qualify(token);
  });
}

/** @internal Scalar kind of a WGSL numeric scalar or vector type, or null for anything else. */
export function wgslScalarKind(type: string): 'float' | 'uint' | 'sint' | null {
  const t = type.replace(/\s+/g, '');
  const m = /^(?:vec[234](?:<(f32|f16|u32|i32)>|([fhui])))$|^(f32|f16|u32|i32)$/.exec(t);
  if (!m) return null;
  const s = m[1] ?? m[3] ?? { f: 'f32', h: 'f16', u: 'u32', i: 'i32' }[m[2] as 'f' | 'h' | 'u' | 'i'];
  return s === 'u32' ? 'uint' : s === 'i32' ? 'sint' : 'float';
}
