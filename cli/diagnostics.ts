import type { MappedShaderMessage } from '../composer/errors.js';
import { locateRuleMessages } from '../picking/discard-rules.js';
import type { RuleFiles } from './registry.js';

/** One message of `weft validate --json`, for editors: 1-based line and column in `file`. */
export interface CliDiagnostic {
  /** The rule file's path as given, a fragment id, or `weft:<module>` for composer-generated code. */
  file: string;
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** The first variant that reported the message (the same message of other variants is not repeated). */
  variant?: string;
  /**
   * Which WGSL front end reported a compile message: `naga` (the check without a GPU, also Firefox's compiler) or
   * `dawn` (Tint on a Dawn device, Chrome's). Absent for compose errors (wesl, the composer).
   */
  checkedBy?: WgslFrontEnd;
}

/** The WGSL front ends `weft validate` runs: naga (no GPU) first, then Dawn when the `webgpu` package is installed. */
export type WgslFrontEnd = 'naga' | 'dawn';

/** A diagnostic with the source line it points at (for the text output). */
export interface LocatedDiagnostic extends CliDiagnostic {
  lineText: string;
}

/** Device or wesl messages of a variant as diagnostics; a rule variant's point into the rule's own files. */
export function toDiagnostics(
  variant: string,
  messages: readonly MappedShaderMessage[],
  ruleFiles: RuleFiles | null,
  checkedBy?: WgslFrontEnd,
  signatureMismatch = false,
): LocatedDiagnostic[] {
  const located = ruleFiles
    ? locateRuleMessages(ruleFiles.rule, messages, signatureMismatch).map((m) => ({
        ...m,
        file: ruleFiles.paths[m.file as keyof RuleFiles['paths']] ?? m.file,
      }))
    : messages.map((m) => ({ ...m, file: m.fragmentId }));
  return located.map((m) => ({
    file: m.file,
    line: m.line,
    column: m.column,
    severity: m.type,
    message: m.message,
    variant,
    ...(checkedBy ? { checkedBy } : {}),
    lineText: m.lineText,
  }));
}

/** Collects diagnostics once each, by (file, line, column, message), in the order first seen. */
export interface DiagnosticSet {
  readonly seen: Map<string, LocatedDiagnostic>;
}

/** Makes an empty diagnostic set. */
export function makeDiagnosticSet(): DiagnosticSet {
  return { seen: new Map() };
}

/** Adds diagnostics; returns the ones not seen before. */
export function addDiagnostics(set: DiagnosticSet, diagnostics: readonly LocatedDiagnostic[]): LocatedDiagnostic[] {
  const added: LocatedDiagnostic[] = [];
  for (const d of diagnostics) {
    const key = JSON.stringify([d.file, d.line, d.column, d.message]);
    if (set.seen.has(key)) continue;
    set.seen.set(key, d);
    added.push(d);
  }
  return added;
}

/** The diagnostics as `--json` prints them. */
export function listDiagnostics(set: DiagnosticSet): CliDiagnostic[] {
  return [...set.seen.values()].map(({ lineText: _lineText, ...d }) => d);
}

/** `file:line:column: message`, the quoted line and a caret (warnings and infos say so). */
export function formatDiagnostic(d: LocatedDiagnostic): string {
  const severity = d.severity === 'error' ? '' : `${d.severity}: `;
  const caret = `${' '.repeat(Math.max(0, d.column - 1))}^`;
  // Dawn has always been the reference here; naga's messages say so (its wording differs from Tint's).
  const by = d.checkedBy === 'naga' ? ' [naga]' : '';
  return `${d.file}:${d.line}:${d.column}: ${severity}${d.message}${by}${d.lineText ? `\n  ${d.lineText}\n  ${caret}` : ''}`;
}
