/**
 * API report (run with `npm run api:report`): one markdown file per package subpath in `api/`, listing every exported
 * name with its kind and declared signature or type, sorted, so a change of the public surface shows in a diff.
 * test/unit/api-report.test.ts regenerates the reports in memory and fails when they differ from the files.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/** The package's npm name, used for the root subpath's report. */
export const PACKAGE_NAME = 'weft-gpu';

/** One subpath's report. */
export interface ApiReport {
  /** `.` or `./composer` … as in package.json `exports`. */
  subpath: string;
  /** Repo-relative source entry, e.g. `composer/index.ts`. */
  source: string;
  /** File name inside `api/`, e.g. `composer.api.md`. */
  fileName: string;
  exportCount: number;
  text: string;
}

interface ApiEntry {
  name: string;
  kinds: string[];
  declarations: string[];
}

const TYPE_FLAGS =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType |
  ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

/**
 * Builds the report of every subpath in `root/package.json` `exports` from one Program over the repo's compiler
 * options, formatted by the repo's Biome settings (so `biome check` accepts the checked-in files as they are).
 */
export async function makeApiReportsAsync(root: string): Promise<ApiReport[]> {
  const reports = makeUnformattedApiReports(root);
  // One Biome run for all reports (a process start costs more than formatting): joined by marker comments, split after.
  const marker = (report: ApiReport) => `<!-- api-report-file: ${report.fileName} -->`;
  const joined = reports.map((report) => `${marker(report)}\n\n${report.text}`).join('\n');
  const formatted = await formatWithBiomeAsync(root, 'api/all.api.md', joined);
  return reports.map((report, i) => {
    const start = formatted.indexOf(marker(report));
    const end = i + 1 < reports.length ? formatted.indexOf(marker(reports[i + 1])) : formatted.length;
    if (start < 0 || end < start) throw new Error(`api-report: lost ${report.fileName} while formatting`);
    return { ...report, text: `${formatted.slice(start + marker(report).length, end).trim()}\n` };
  });
}

function makeUnformattedApiReports(root: string): ApiReport[] {
  const subpaths = listExportedSubpaths(root);
  const program = ts.createProgram(
    subpaths.map((entry) => join(root, entry.source)),
    readCompilerOptions(root),
  );
  const checker = program.getTypeChecker();
  const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
  return subpaths.map((entry) => {
    const sourceFile = program.getSourceFile(join(root, entry.source));
    const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
    if (!moduleSymbol) throw new Error(`api-report: ${entry.source} is not a module`);
    const entries = checker
      .getExportsOfModule(moduleSymbol)
      .map((exported) => describeExport(exported, checker, printer, root))
      .sort((a, b) => compareNames(a.name, b.name));
    return { ...entry, exportCount: entries.length, text: renderReport(entry.subpath, entry.source, entries) };
  });
}

function formatWithBiomeAsync(root: string, path: string, text: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const biome = join(root, 'node_modules', '.bin', 'biome');
    const args = ['format', `--stdin-file-path=${path}`];
    const child = execFile(biome, args, { cwd: root, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`api-report: biome could not format ${path}: ${stderr || error.message}`));
      else resolvePromise(stdout);
    });
    child.stdin?.end(text);
  });
}

/** The code entries of `root/package.json` `exports`: subpath, repo-relative source entry and report file name. */
export function listExportedSubpaths(root: string): Omit<ApiReport, 'exportCount' | 'text'>[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { import?: string }>;
  };
  return (
    Object.entries(pkg.exports)
      // Code entries only: `./package.json` is exported as data for tools, `./vite/client` is declarations only.
      .filter(([, target]) => (typeof target === 'string' ? target : (target.import ?? '')).endsWith('.js'))
      .map(([subpath, target]) => {
        const built = typeof target === 'string' ? target : (target.import ?? '');
        const source = posix.normalize(built.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'));
        const name = subpath === '.' ? PACKAGE_NAME : subpath.replace(/^\.\//, '').replaceAll('/', '-');
        return { subpath, source, fileName: `${name}.api.md` };
      })
      .sort((a, b) => compareNames(a.fileName, b.fileName))
  );
}

/** The compiler options of `root/tsconfig.json`. */
export function readCompilerOptions(root: string): ts.CompilerOptions {
  const configPath = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(config.config, ts.sys, root, undefined, configPath).options;
}

/** Case-insensitive first so `pickAsync` sits next to `PickError`; code units break ties, never the locale. */
export function compareNames(a: string, b: string): number {
  const lowerA = a.toLowerCase();
  const lowerB = b.toLowerCase();
  if (lowerA !== lowerB) return lowerA < lowerB ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function describeExport(exported: ts.Symbol, checker: ts.TypeChecker, printer: ts.Printer, root: string): ApiEntry {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const kinds: string[] = [];
  const declarations: string[] = [];
  for (const declaration of symbol.declarations ?? []) {
    const described = describeDeclaration(declaration, symbol, exported.name, checker, printer);
    if (!described) continue;
    if (!kinds.includes(described.kind)) kinds.push(described.kind);
    declarations.push(withRelativeImports(described.text, root));
  }
  return { name: exported.name, kinds, declarations };
}

// Types from modules the declaration does not import print as import("<absolute path>"); keep the report portable.
function withRelativeImports(text: string, root: string): string {
  return text.replace(/import\("([^"]+)"\)/g, (_, path: string) => `import("./${relative(root, path)}")`);
}

function describeDeclaration(
  declaration: ts.Declaration,
  symbol: ts.Symbol,
  name: string,
  checker: ts.TypeChecker,
  printer: ts.Printer,
): { kind: string; text: string } | null {
  const print = (node: ts.Node): string =>
    printer.printNode(ts.EmitHint.Unspecified, node, declaration.getSourceFile());
  if (ts.isFunctionDeclaration(declaration)) {
    // An overloaded function's implementation signature is not callable from outside.
    if (declaration.body && (symbol.declarations?.length ?? 0) > 1) return null;
    const signature = checker.getSignatureFromDeclaration(declaration);
    const text = signature ? checker.signatureToString(signature, declaration, TYPE_FLAGS) : '()';
    return { kind: 'function', text: `function ${name}${text}` };
  }
  if (ts.isVariableDeclaration(declaration)) {
    const keyword = declaration.parent.flags & ts.NodeFlags.Const ? 'const' : 'let';
    const type = checker.typeToString(checker.getTypeOfSymbolAtLocation(symbol, declaration), declaration, TYPE_FLAGS);
    return { kind: keyword, text: `${keyword} ${name}: ${type}` };
  }
  if (ts.isClassDeclaration(declaration)) {
    return { kind: 'class', text: print(stripClass(declaration, checker)) };
  }
  if (ts.isInterfaceDeclaration(declaration)) {
    const { typeParameters, heritageClauses, members } = declaration;
    const stripped = ts.factory.updateInterfaceDeclaration(
      declaration,
      undefined,
      declaration.name,
      typeParameters,
      heritageClauses,
      members,
    );
    return { kind: 'interface', text: print(stripped) };
  }
  if (ts.isTypeAliasDeclaration(declaration)) {
    const { typeParameters, type } = declaration;
    return {
      kind: 'type',
      text: print(
        ts.factory.updateTypeAliasDeclaration(declaration, undefined, declaration.name, typeParameters, type),
      ),
    };
  }
  if (ts.isEnumDeclaration(declaration)) {
    const keepConst = declaration.modifiers?.filter((m) => m.kind === ts.SyntaxKind.ConstKeyword);
    const stripped = ts.factory.updateEnumDeclaration(declaration, keepConst, declaration.name, declaration.members);
    return { kind: 'enum', text: print(stripped) };
  }
  if (ts.isModuleDeclaration(declaration)) return { kind: 'namespace', text: `namespace ${name}` };
  return { kind: ts.SyntaxKind[declaration.kind], text: name };
}

const KEPT_MEMBER_MODIFIERS = new Set([
  ts.SyntaxKind.StaticKeyword,
  ts.SyntaxKind.ReadonlyKeyword,
  ts.SyntaxKind.AbstractKeyword,
  ts.SyntaxKind.AsyncKeyword,
]);

// A class as its users see it: public members only, no bodies, no initialisers, every property typed.
function stripClass(declaration: ts.ClassDeclaration, checker: ts.TypeChecker): ts.ClassDeclaration {
  const f = ts.factory;
  const isPublic = (member: ts.ClassElement): boolean => {
    const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
    const hidden = modifiers.some(
      (m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword,
    );
    return !hidden && !(member.name && ts.isPrivateIdentifier(member.name));
  };
  const keptModifiers = (member: ts.HasModifiers): ts.Modifier[] =>
    (ts.getModifiers(member) ?? []).filter((m) => KEPT_MEMBER_MODIFIERS.has(m.kind));
  const declaredParameter = (p: ts.ParameterDeclaration): ts.ParameterDeclaration =>
    f.updateParameterDeclaration(
      p,
      keptModifiers(p),
      p.dotDotDotToken,
      p.name,
      p.initializer ? f.createToken(ts.SyntaxKind.QuestionToken) : p.questionToken,
      p.type,
      undefined,
    );
  const members = declaration.members.filter(isPublic).flatMap((member): ts.ClassElement[] => {
    if (ts.isPropertyDeclaration(member)) {
      const type =
        member.type ??
        checker.typeToTypeNode(checker.getTypeAtLocation(member), declaration, ts.NodeBuilderFlags.NoTruncation);
      return [
        f.updatePropertyDeclaration(member, keptModifiers(member), member.name, member.questionToken, type, undefined),
      ];
    }
    if (ts.isConstructorDeclaration(member)) {
      return [f.updateConstructorDeclaration(member, [], member.parameters.map(declaredParameter), undefined)];
    }
    if (ts.isMethodDeclaration(member)) {
      const { name, questionToken, typeParameters, parameters, type } = member;
      const params = parameters.map(declaredParameter);
      const modifiers = keptModifiers(member);
      return [
        f.updateMethodDeclaration(
          member,
          modifiers,
          undefined,
          name,
          questionToken,
          typeParameters,
          params,
          type,
          undefined,
        ),
      ];
    }
    if (ts.isGetAccessorDeclaration(member)) {
      return [f.updateGetAccessorDeclaration(member, keptModifiers(member), member.name, [], member.type, undefined)];
    }
    if (ts.isSetAccessorDeclaration(member)) {
      const params = member.parameters.map(declaredParameter);
      return [f.updateSetAccessorDeclaration(member, keptModifiers(member), member.name, params, undefined)];
    }
    return ts.isIndexSignatureDeclaration(member) ? [member] : [];
  });
  const classModifiers = (ts.getModifiers(declaration) ?? []).filter((m) => m.kind === ts.SyntaxKind.AbstractKeyword);
  const { name, typeParameters, heritageClauses } = declaration;
  return f.updateClassDeclaration(declaration, classModifiers, name, typeParameters, heritageClauses, members);
}

function renderReport(subpath: string, source: string, entries: readonly ApiEntry[]): string {
  const importPath = subpath === '.' ? PACKAGE_NAME : `${PACKAGE_NAME}/${subpath.replace(/^\.\//, '')}`;
  const lines = [
    `# API report: \`${importPath}\``,
    '',
    `<!-- Generated by \`npm run api:report\` from ${source}; do not edit by hand. -->`,
    '',
    `${entries.length} exports.`,
  ];
  for (const entry of entries) {
    lines.push('', `## \`${entry.name}\` (${entry.kinds.join(', ')})`, '', '```ts', ...entry.declarations, '```');
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the reports to `root/api/`, removing reports of subpaths that no longer exist, and returns them. */
export async function writeApiReportsAsync(root: string): Promise<ApiReport[]> {
  const reports = await makeApiReportsAsync(root);
  const folder = join(root, 'api');
  mkdirSync(folder, { recursive: true });
  const current = new Set(reports.map((report) => report.fileName));
  for (const file of readdirSync(folder)) {
    if (file.endsWith('.api.md') && !current.has(file)) rmSync(join(folder, file));
  }
  for (const report of reports) writeFileSync(join(folder, report.fileName), report.text);
  return reports;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  for (const report of await writeApiReportsAsync(root)) {
    console.log(
      `${report.subpath.padEnd(14)} ${String(report.exportCount).padStart(4)} exports  api/${report.fileName}`,
    );
  }
}
