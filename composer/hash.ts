/**
 * FNV-1a 64-bit hash of a string's UTF-16 code units (low byte, then high byte when non-zero), as 16 hex digits. Synchronous and browser-safe.
 * @internal
 */
export function fnv1a64(text: string): string {
  // Four 16-bit limbs, low first: 0xcbf29ce484222325.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  const n = text.length;
  for (let i = 0, high = -1; i < n || high >= 0; ) {
    let byte: number;
    if (high >= 0) {
      byte = high;
      high = -1;
    } else {
      const c = text.charCodeAt(i++);
      byte = c & 0xff;
      if (c > 0xff) high = c >>> 8;
    }
    h0 ^= byte;
    // h × 0x100000001b3 = h × 0x1b3 + (h << 40)
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (h0 << 8) + (t1 >>> 16);
    h3 = (h3 * 0x1b3 + (h1 << 8) + (t2 >>> 16)) & 0xffff;
    h2 = t2 & 0xffff;
    h1 = t1 & 0xffff;
    h0 = t0 & 0xffff;
  }
  const hex = (v: number) => v.toString(16).padStart(4, '0');
  return hex(h3) + hex(h2) + hex(h1) + hex(h0);
}

/** @internal JSON with object keys sorted and `undefined` members dropped: equal data always gives an equal string. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : stableStringify(v))).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`).join(',')}}`;
}
