/**
 * Internal exports (run with `npx tsx scripts/internal-exports.ts --check|--fix|--unused`): every exported declaration
 * of a library module that no package entry exports. DESIGN.md §3 keeps them importable by tests only; each carries an
 * `@internal` JSDoc tag so a reader (and TypeDoc) tells them from the curated public API.
 *
 * - `--check` prints each untagged internal export as `path:line name` and exits 1 when there is one;
 * - `--fix` tags them: ` * @internal` before the closing line of a JSDoc block, `/** @internal text *\/` for a one-line
 *   block, `/** @internal *\/` above a declaration without one;
 * - `--unused` prints the internal exports nothing outside their own module imports (candidates to un-export or delete).
 *
 * test/unit/internal-exports.test.ts runs the finder in-process and fails on an untagged internal export.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { listLibraryEntries, WEFT_LAYER_PLAN } from '../test/support/architecture-rules.js';
import { compareNames, listExportedSubpaths, readCompilerOptions } from './api-report.js';

/** One exported declaration of a library module that no package entry exports. */
export interface InternalExport {
  /** Repo-relative posix path of the declaring module. */
  path: string;
  /** 1-based line of the (first) declaration. */
  line: number;
  /** The exported name. */
  name: string;
  /** `function`, `const`, `let`, `class`, `interface`, `type`, `enum` or `namespace`. */
  kind: string;
  /** Whether the JSDoc of every declaration statement carries `@internal`. */
  tagged: boolean;
  /** Repo-relative paths of the other modules that import it (library and apps), sorted. */
  importers: string[];
  /** Whether its own module refers to it (beyond declaring and exporting it). */
  usedInModule: boolean;
  /** The text edits that tag it (empty when tagged): replace `[start, end)` of the file with `text`. */
  edits: TextEdit[];
}

/** A replacement in one file. */
export interface TextEdit {
  path: string;
  start: number;
  end: number;
  text: string;
}

/** Where library code is and which folders hold the code that may import it. */
export interface InternalExportOptions {
  /** Top-level files and folders of library code (default: the layer plan's). */
  libraryEntries?: readonly string[];
  /** Top-level folders of apps, tests and tools whose imports count as uses (default: the layer plan's app folders). */
  appFolders?: readonly string[];
  /**
   * Module → modules that stand in for it in some build and so must export the same names: a name imported from the
   * first counts as imported from each stand-in. Default: weft-gpu/vite swaps composer/link.ts for precomposed-link.ts.
   */
  standIns?: Readonly<Record<string, readonly string[]>>;
}

const WEFT_STAND_INS: Readonly<Record<string, readonly string[]>> = {
  'composer/link.ts': ['composer/precomposed-link.ts'],
};

const LINE_WIDTH = 120;
const SOURCE_EXTENSIONS = ['.ts', '.mts', '.tsx'];

/**
 * Every internal export of the library under `root`, sorted by path, line and name. Public means reachable as an
 * export of a package entry (package.json `exports`), through any chain of re-exports and aliases.
 */
export function findInternalExports(root: string, options: InternalExportOptions = {}): InternalExport[] {
  const libraryFiles = listSourceFiles(root, options.libraryEntries ?? listLibraryEntries(WEFT_LAYER_PLAN));
  const appFiles = listSourceFiles(root, [
    ...(options.appFolders ?? WEFT_LAYER_PLAN.appFolders),
    ...listRootFiles(root),
  ]);
  const program = createSyntaxProgram(root, [...libraryFiles, ...appFiles]);
  const checker = program.getTypeChecker();
  const repoPath = (file: ts.SourceFile): string => relative(root, file.fileName).split('\\').join('/');

  const publicDeclarations = new Set<ts.Node>();
  for (const entry of listExportedSubpaths(root)) {
    const moduleSymbol = moduleSymbolOf(program, checker, join(root, entry.source));
    if (!moduleSymbol) throw new Error(`internal-exports: ${entry.source} is not a module`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      for (const declaration of resolveAlias(exported, checker).declarations ?? []) publicDeclarations.add(declaration);
    }
  }

  const importers = collectImporters(program, checker, root, options.standIns ?? WEFT_STAND_INS);
  const found: InternalExport[] = [];
  for (const fileName of libraryFiles) {
    const sourceFile = program.getSourceFile(fileName);
    const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
    if (!sourceFile || !moduleSymbol) continue;
    const path = repoPath(sourceFile);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const declarations = (resolveAlias(exported, checker).declarations ?? []).filter(
        (declaration) => declaration.getSourceFile() === sourceFile && isNamedDeclaration(declaration),
      );
      if (declarations.length === 0 || declarations.some((declaration) => publicDeclarations.has(declaration))) {
        continue;
      }
      const hosts = findHostStatements(declarations);
      const untagged = hosts.filter((host) => !hasInternalTag(host));
      const users = new Set(declarations.flatMap((declaration) => [...(importers.get(declaration) ?? [])]));
      users.delete(path);
      found.push({
        path,
        line: sourceFile.getLineAndCharacterOfPosition(hosts[0].getStart(sourceFile)).line + 1,
        name: exported.name,
        kind: describeKind(declarations[0]),
        tagged: untagged.length === 0,
        importers: [...users].sort(compareNames),
        usedInModule: isUsedInModule(sourceFile, declarations, checker),
        edits: untagged.map((host) => makeTagEdit(path, sourceFile, host)),
      });
    }
  }
  return found.sort((a, b) => compareNames(a.path, b.path) || a.line - b.line || compareNames(a.name, b.name));
}

/** The `path:line name` line of an internal export. */
export function describeInternalExport(found: InternalExport): string {
  return `${found.path}:${found.line} ${found.name}`;
}

/** Applies the tagging edits of the given exports to the files under `root`; returns the repo-relative paths changed. */
export function tagInternalExports(root: string, exports: readonly InternalExport[]): string[] {
  const byPath = new Map<string, TextEdit[]>();
  for (const edit of exports.flatMap((found) => found.edits)) {
    const edits = byPath.get(edit.path) ?? [];
    // Two names of one statement (`export const a = 1, b = 2;`) share an edit.
    if (!edits.some((other) => other.start === edit.start)) edits.push(edit);
    byPath.set(edit.path, edits);
  }
  const changed = [...byPath.keys()].sort(compareNames);
  for (const path of changed) {
    const file = join(root, path);
    let text = readFileSync(file, 'utf8');
    for (const edit of (byPath.get(path) ?? []).sort((a, b) => b.start - a.start)) {
      text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    }
    writeFileSync(file, text);
  }
  return changed;
}

function listSourceFiles(root: string, entries: readonly string[]): string[] {
  const files: string[] = [];
  const visit = (path: string): void => {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (!stats) return;
    if (stats.isDirectory()) {
      for (const name of readdirSync(path).sort()) {
        if (name !== 'node_modules' && !name.startsWith('.')) visit(join(path, name));
      }
    } else if (SOURCE_EXTENSIONS.some((ext) => path.endsWith(ext)) && !/\.d\.[mc]?ts$/.test(path)) {
      files.push(path);
    }
  };
  for (const entry of entries) visit(join(root, entry));
  return files;
}

// Top-level tool files (vitest.config.ts …) are apps too; index.ts and other library files are not.
function listRootFiles(root: string): string[] {
  const library = new Set(listLibraryEntries(WEFT_LAYER_PLAN));
  return readdirSync(root)
    .filter((name) => SOURCE_EXTENSIONS.some((ext) => name.endsWith(ext)) && !library.has(name))
    .filter((name) => statSync(join(root, name)).isFile())
    .sort();
}

/**
 * A Program that binds the repository's own modules and nothing else: no default library, no `types`, no packages
 * (bare specifiers stay unresolved). Symbols of imports and exports are all this tool asks for; types are not checked.
 */
function createSyntaxProgram(root: string, files: readonly string[]): ts.Program {
  const options: ts.CompilerOptions = { ...readCompilerOptions(root), noLib: true, types: [], noEmit: true };
  const host = ts.createCompilerHost(options, true);
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map((literal) => ({
      resolvedModule: literal.text.startsWith('.')
        ? ts.resolveModuleName(literal.text, containingFile, options, host).resolvedModule
        : undefined,
    }));
  return ts.createProgram({ rootNames: files, options, host });
}

function moduleSymbolOf(program: ts.Program, checker: ts.TypeChecker, fileName: string): ts.Symbol | undefined {
  const sourceFile = program.getSourceFile(fileName);
  return sourceFile && checker.getSymbolAtLocation(sourceFile);
}

function resolveAlias(symbol: ts.Symbol, checker: ts.TypeChecker): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

function isNamedDeclaration(node: ts.Node): boolean {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isEnumDeclaration(node) ||
    ts.isModuleDeclaration(node) ||
    ts.isVariableDeclaration(node) ||
    ts.isBindingElement(node)
  );
}

function describeKind(declaration: ts.Node): string {
  if (ts.isFunctionDeclaration(declaration)) return 'function';
  if (ts.isClassDeclaration(declaration)) return 'class';
  if (ts.isInterfaceDeclaration(declaration)) return 'interface';
  if (ts.isTypeAliasDeclaration(declaration)) return 'type';
  if (ts.isEnumDeclaration(declaration)) return 'enum';
  if (ts.isModuleDeclaration(declaration)) return 'namespace';
  const list = ts.findAncestor(declaration, ts.isVariableDeclarationList);
  return list && list.flags & ts.NodeFlags.Const ? 'const' : 'let';
}

// The statements whose JSDoc documents the declarations; an overloaded function is documented at its first signature.
function findHostStatements(declarations: readonly ts.Node[]): ts.Statement[] {
  const hosts: ts.Statement[] = [];
  let sawFunction = false;
  for (const declaration of [...declarations].sort((a, b) => a.pos - b.pos)) {
    if (ts.isFunctionDeclaration(declaration)) {
      if (sawFunction) continue;
      sawFunction = true;
    }
    const host =
      ts.isVariableDeclaration(declaration) || ts.isBindingElement(declaration)
        ? ts.findAncestor(declaration, ts.isVariableStatement)
        : (declaration as ts.Statement);
    if (host && !hosts.includes(host)) hosts.push(host);
  }
  return hosts;
}

// The JSDoc block nearest the statement (the one TypeDoc reads, the one --fix edits).
function lastJsDoc(host: ts.Statement): ts.JSDoc | undefined {
  return ts.getJSDocCommentsAndTags(host).filter(ts.isJSDoc).at(-1);
}

function hasInternalTag(host: ts.Statement): boolean {
  return lastJsDoc(host)?.tags?.some((tag) => tag.tagName.text === 'internal') ?? false;
}

function makeTagEdit(path: string, sourceFile: ts.SourceFile, host: ts.Statement): TextEdit {
  const jsDoc = lastJsDoc(host);
  const at = (jsDoc ?? host).getStart(sourceFile);
  const indent = ' '.repeat(sourceFile.getLineAndCharacterOfPosition(at).character);
  if (!jsDoc) return { path, start: at, end: at, text: `/** @internal */\n${indent}` };
  const text = sourceFile.text.slice(at, jsDoc.end);
  const close = text.length - 2;
  if (!text.includes('\n')) {
    const body = text.slice(3, close).trim();
    const oneLine = body ? `/** @internal ${body} */` : '/** @internal */';
    const replacement =
      indent.length + oneLine.length <= LINE_WIDTH
        ? oneLine
        : `/**\n${indent} * ${body}\n${indent} * @internal\n${indent} */`;
    return { path, start: at, end: jsDoc.end, text: replacement };
  }
  const lineStart = text.lastIndexOf('\n', close) + 1;
  if (text.slice(lineStart, close).trim() === '') {
    return { path, start: at + lineStart, end: at + lineStart, text: `${indent} * @internal\n` };
  }
  // Text before the closing `*/` on its line: the tag and the closing go on lines of their own.
  const trimmed = text.slice(0, close).trimEnd().length;
  return { path, start: at + trimmed, end: jsDoc.end, text: `\n${indent} * @internal\n${indent} */` };
}

/**
 * Declaration → repo-relative paths of the modules that import it: named imports and re-exports (`import type` too)
 * count the names they take; `import * as`, `export *`, `import()` and `typeof import()` take every export.
 */
function collectImporters(
  program: ts.Program,
  checker: ts.TypeChecker,
  root: string,
  standIns: Readonly<Record<string, readonly string[]>>,
): Map<ts.Node, Set<string>> {
  const importers = new Map<ts.Node, Set<string>>();
  const options = program.getCompilerOptions();
  for (const sourceFile of program.getSourceFiles()) {
    if (sourceFile.isDeclarationFile || sourceFile.fileName.includes('/node_modules/')) continue;
    const from = relative(root, sourceFile.fileName).split('\\').join('/');
    const mark = (specifier: ts.Expression | ts.LiteralTypeNode['literal'] | undefined, names: string[] | 'all') => {
      if (!specifier || !ts.isStringLiteralLike(specifier) || !specifier.text.startsWith('.')) return;
      const resolved = ts.resolveModuleName(specifier.text, sourceFile.fileName, options, ts.sys).resolvedModule;
      if (!resolved) return;
      const target = posix.normalize(relative(root, resolved.resolvedFileName).split('\\').join('/'));
      for (const path of [target, ...(standIns[target] ?? [])]) {
        const moduleSymbol = moduleSymbolOf(program, checker, join(root, path));
        if (!moduleSymbol) continue;
        for (const exported of checker.getExportsOfModule(moduleSymbol)) {
          if (names !== 'all' && !names.includes(exported.name)) continue;
          for (const declaration of resolveAlias(exported, checker).declarations ?? []) {
            const users = importers.get(declaration) ?? new Set<string>();
            users.add(from);
            importers.set(declaration, users);
          }
        }
      }
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node)) {
        const clause = node.importClause;
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) mark(node.moduleSpecifier, 'all');
        const names = bindings && ts.isNamedImports(bindings) ? bindings.elements.map(importedName) : [];
        if (clause?.name) names.push('default');
        mark(node.moduleSpecifier, names);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
        const clause = node.exportClause;
        mark(node.moduleSpecifier, clause && ts.isNamedExports(clause) ? clause.elements.map(importedName) : 'all');
      } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
        mark(node.moduleReference.expression, 'all');
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        mark(node.arguments[0], 'all');
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
        const qualifier = node.qualifier && leftmostName(node.qualifier);
        mark(node.argument.literal as ts.Expression, qualifier && !node.isTypeOf ? [qualifier] : 'all');
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  return importers;
}

function importedName(element: ts.ImportSpecifier | ts.ExportSpecifier): string {
  const name = element.propertyName ?? element.name;
  return ts.isIdentifier(name) ? name.text : name.text;
}

function leftmostName(name: ts.EntityName): string {
  return ts.isIdentifier(name) ? name.text : leftmostName(name.left);
}

// Any identifier of the module, other than the declarations' own names and `export { … }` lists, resolving to them.
function isUsedInModule(sourceFile: ts.SourceFile, declarations: readonly ts.Node[], checker: ts.TypeChecker): boolean {
  const names = new Set(declarations.map((declaration) => (declaration as ts.NamedDeclaration).name));
  const text = (declarations[0] as ts.NamedDeclaration).name?.getText(sourceFile);
  let used = false;
  const visit = (node: ts.Node): void => {
    if (used) return;
    if (ts.isIdentifier(node) && node.text === text && !names.has(node) && isReference(node)) {
      const symbol = checker.getSymbolAtLocation(node);
      const resolved = symbol?.declarations ?? [];
      if (resolved.some((declaration) => declarations.includes(declaration))) used = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return used;
}

// Property names and export specifiers name something else (a member, the export itself), never a local.
function isReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isQualifiedName(parent) && parent.right === node) return false;
  if (ts.isExportSpecifier(parent)) return false;
  if (
    (ts.isPropertyAssignment(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isMethodSignature(parent) ||
      ts.isEnumMember(parent)) &&
    parent.name === node
  ) {
    return false;
  }
  return true;
}

const USAGE = `usage: tsx scripts/internal-exports.ts --check | --fix | --unused
  --check   print each untagged internal export as path:line name; exit 1 if there is one
  --fix     add @internal to the JSDoc of each untagged internal export
  --unused  print the internal exports that nothing outside their own module imports`;

function main(root: string, mode: string | undefined): number {
  if (mode !== '--check' && mode !== '--fix' && mode !== '--unused') {
    console.error(USAGE);
    return 2;
  }
  const found = findInternalExports(root);
  const untagged = found.filter((entry) => !entry.tagged);
  if (mode === '--check') {
    for (const entry of untagged) console.log(describeInternalExport(entry));
    console.log(`${found.length} internal exports, ${untagged.length} without @internal`);
    if (untagged.length > 0) console.log('run `npx tsx scripts/internal-exports.ts --fix` to tag them');
    return untagged.length > 0 ? 1 : 0;
  }
  if (mode === '--fix') {
    const changed = tagInternalExports(root, untagged);
    console.log(`tagged ${untagged.length} internal exports in ${changed.length} files`);
    return 0;
  }
  const unused = found.filter((entry) => entry.importers.length === 0);
  for (const entry of unused) {
    const where = entry.usedInModule ? 'used in its module only' : 'unused';
    console.log(`${describeInternalExport(entry)} (${entry.kind}, ${where})`);
  }
  console.log(`${unused.length} of ${found.length} internal exports are imported by no other module`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(fileURLToPath(new URL('..', import.meta.url)), process.argv[2]);
}
