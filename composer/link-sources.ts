// The parts of the linker's API that need no wesl: the parsed-module registry, source paths and message locations.
// A page built with precomposed shaders (weft-gpu/vite) keeps these and drops link.ts with wesl.
import type { LinkedWesl, WeslAST } from 'wesl';
import type { MappedShaderMessage } from './errors.js';

/** @internal Parsed wesl modules kept across links (keyed by exact source), so a warm re-link parses nothing. */
export interface LinkRegistry {
  readonly asts: Map<string, WeslAST>;
  readonly maxModules: number;
  readonly counters: { parses: number; links: number };
}

/** @internal Makes an empty registry; beyond `maxModules` parsed modules the least recently used is dropped. */
export function makeLinkRegistry(maxModules = 512): LinkRegistry {
  return { asts: new Map(), maxModules, counters: { parses: 0, links: 0 } };
}

/**
 * Where a source text in the link came from: a fragment (`path` = its id) or a generated module (`weft:<name>`).
 * @internal
 */
export interface LinkSource {
  path: string;
  text: string;
  origins?: readonly (string | null)[];
}

/** @internal The output of one link: WGSL plus what maps device diagnostics back to sources. */
export interface LinkResult {
  code: string;
  linked: LinkedWesl;
  sources: ReadonlyMap<string, LinkSource>;
}

/** @internal Debug path of a generated module (`weft:bindings`); it is also the fragmentId reported for its lines. */
export function generatedPath(name: string): string {
  return `weft:${name}`;
}

/** @internal Maps an offset of a source to a 1-based line and column plus the line's text. */
export function locate(text: string, offset: number): { line: number; column: number; lineText: string } {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = text.indexOf('\n', lineStart);
  return { line, column: offset - lineStart + 1, lineText: text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd) };
}

/** @internal The message for one position in a linked source (fragment or generated module). */
export function sourceMessage(
  source: LinkSource,
  line: number,
  column: number,
  type: GPUCompilationMessageType,
  message: string,
): MappedShaderMessage {
  const lineText = source.text.split('\n')[line - 1] ?? '';
  const origin = source.origins?.[line - 1] ?? undefined;
  return { fragmentId: source.path, line, column, type, message, lineText, ...(origin ? { origin } : {}) };
}
