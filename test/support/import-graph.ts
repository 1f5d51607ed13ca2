// The import graph of weft's library modules, parsed with the TypeScript compiler API (syntax only, no Program), so
// the architecture test can check layers, cycles and module-level side effects on any tree, even a synthetic one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import ts from 'typescript';
import { findTopLevelSideEffects, type SideEffect } from './module-side-effects.js';

/** `static`: a runtime import or re-export; `type`: erased at runtime (`import type`, `import('x').T`); `dynamic`: `import()`. */
export type ImportKind = 'static' | 'type' | 'dynamic';

/** One import of one module. `to` is a repo-relative path for relative specifiers, `null` for packages. */
export interface ImportEdge {
  from: string;
  specifier: string;
  to: string | null;
  /** Whether `to` names a module of the graph (false for packages, apps and missing files). */
  resolved: boolean;
  kind: ImportKind;
  line: number;
}

/** A parsed module: its imports and the top-level statements that run code when it is imported. */
export interface ModuleInfo {
  path: string;
  imports: ImportEdge[];
  sideEffects: SideEffect[];
}

/** Modules keyed by repo-relative posix path (`picking/pick-pass.ts`). */
export interface ImportGraph {
  modules: Map<string, ModuleInfo>;
}

/** Builds the graph of the given sources (path → text); imports are resolved against these paths only. */
export function makeImportGraph(sources: Readonly<Record<string, string>>): ImportGraph {
  const paths = new Set(Object.keys(sources));
  const modules = new Map<string, ModuleInfo>();
  for (const path of [...paths].sort()) {
    const sourceFile = ts.createSourceFile(path, sources[path], ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const imports = collectImports(sourceFile).map((found) => resolveImport(path, found, paths));
    modules.set(path, { path, imports, sideEffects: findTopLevelSideEffects(sourceFile) });
  }
  return { modules };
}

/** Reads every `.ts` module (declaration files excluded) of the given top-level files and folders under `root`. */
export function readModuleSources(root: string, entries: readonly string[]): Record<string, string> {
  const sources: Record<string, string> = {};
  const visit = (relative: string): void => {
    const absolute = posix.join(root, relative);
    if (statSync(absolute).isDirectory()) {
      for (const name of readdirSync(absolute).sort()) visit(posix.join(relative, name));
    } else if (relative.endsWith('.ts') && !relative.endsWith('.d.ts')) {
      sources[relative] = readFileSync(absolute, 'utf8');
    }
  };
  for (const entry of entries) {
    if (existsQuietly(posix.join(root, entry))) visit(entry);
  }
  return sources;
}

function existsQuietly(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

interface FoundImport {
  specifier: string;
  kind: ImportKind;
  line: number;
}

function collectImports(sourceFile: ts.SourceFile): FoundImport[] {
  const found: FoundImport[] = [];
  const add = (specifier: ts.Node | undefined, kind: ImportKind, at: ts.Node): void => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const line = sourceFile.getLineAndCharacterOfPosition(at.getStart(sourceFile)).line + 1;
    found.push({ specifier: specifier.text, kind, line });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      // Only a whole-clause `import type` is erased; `import { type A }` still loads the module (verbatimModuleSyntax).
      add(node.moduleSpecifier, node.importClause?.isTypeOnly ? 'type' : 'static', node);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly ? 'type' : 'static', node);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly ? 'type' : 'static', node);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], 'dynamic', node);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, 'type', node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function resolveImport(from: string, found: FoundImport, paths: ReadonlySet<string>): ImportEdge {
  const edge = { from, specifier: found.specifier, kind: found.kind, line: found.line };
  if (!found.specifier.startsWith('.')) return { ...edge, to: null, resolved: false };
  const target = posix.normalize(posix.join(posix.dirname(from), found.specifier));
  const candidates = [target.replace(/\.(js|mjs|ts)$/, '.ts'), `${target}.ts`, posix.join(target, 'index.ts')];
  const hit = candidates.find((candidate) => paths.has(candidate));
  return { ...edge, to: hit ?? candidates[0], resolved: hit !== undefined };
}
