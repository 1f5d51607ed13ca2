import type { ComposedShader } from './compose-shader.js';
import { describeComposedShader } from './describe.js';

/** The marker line placed where a run of lines from one source begins. */
function markerLine(sourcePath: string): string {
  return sourcePath.startsWith('weft:') ? `// ── generated ${sourcePath} ──` : `// ── fragment ${sourcePath} ──`;
}

/** Per line of `code`: the path of the source its first non-blank character came from (null for blank lines). */
function lineSources(composed: ComposedShader, lines: readonly string[]): (string | null)[] {
  const map = composed.sourceMap?.linked?.sourceMap;
  if (!map || typeof map.destToSrc !== 'function') return lines.map(() => null);
  const sources: (string | null)[] = [];
  let offset = 0;
  for (const line of lines) {
    const first = line.search(/\S/);
    let path: string | null = null;
    if (first >= 0) {
      try {
        path = map.destToSrc(offset + first).src.path ?? null;
      } catch {
        path = null;
      }
    }
    sources.push(path);
    offset += line.length + 1;
  }
  return sources;
}

/**
 * Formats a composed shader for a snapshot file: valid WGSL that any WGSL tool (and a device) accepts.
 *
 * - At the top, `describeComposedShader`'s summary as `//` comments: the key, fragments, conditions, constants,
 *   features, every bind group and binding (visibility as stage names such as `vertex|fragment`), vertex buffers,
 *   varyings, colour targets and slots.
 * - Then the linked code, unchanged except for marker comments: `// ── fragment <id> ──` where a run of lines from
 *   fragment `<id>` begins, and `// ── generated weft:<module> ──` where composer-generated code (bindings, stage
 *   I/O, slots, entry points) begins. Markers come from the compose's source map; a shader without one gets none.
 *
 * Deterministic: the same compose gives the same text, so it is fit for `toMatchFileSnapshot` or a committed file.
 * Prepend your own `//` line to name the variant.
 */
export function formatShaderSnapshot(composed: ComposedShader): string {
  const header = describeComposedShader(composed).replace(/^/gm, '// ');
  const lines = composed.code.split('\n');
  const sources = lineSources(composed, lines);
  const out: string[] = [];
  let current: string | null = null;
  lines.forEach((line, i) => {
    const source = sources[i];
    if (source != null && source !== current) {
      out.push(markerLine(source));
      current = source;
    }
    out.push(line);
  });
  return `${header}\n${out.join('\n')}`;
}
