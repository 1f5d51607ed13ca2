// Keeps the composer's passes short: every function in composer/*.ts (declarations, methods, and arrow or function
// expressions assigned to a const) spans at most 80 lines, counted from its first line to its last.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const MAX_LINES = 80;
const composerDir = fileURLToPath(new URL('../../../composer/', import.meta.url));

interface FunctionLength {
  readonly where: string;
  readonly lines: number;
}

function functionName(node: ts.Node): string | undefined {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) {
    return node.name.getText();
  }
  if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && ts.isVariableDeclaration(node.parent)) {
    return node.parent.name.getText();
  }
  return undefined;
}

/** Every named function of one source file with its line count. */
function listFunctionLengths(fileName: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    const name = functionName(node);
    if (name !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ where: `${fileName}:${first + 1} ${name}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function composerFunctionLengths(): FunctionLength[] {
  return readdirSync(composerDir)
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .flatMap((name) => listFunctionLengths(`composer/${name}`, readFileSync(composerDir + name, 'utf8')));
}

test('the length count sees declarations, methods and const arrows', () => {
  const text = 'function a() {\n}\nconst b = () => {\n\n};\nclass C {\n  m() {}\n}\n';
  expect(listFunctionLengths('x.ts', text).map((f) => `${f.where}=${f.lines}`)).toEqual([
    'x.ts:1 a=2',
    'x.ts:3 b=3',
    'x.ts:7 m=1',
  ]);
});

test(`no composer function is longer than ${MAX_LINES} lines`, () => {
  const lengths = composerFunctionLengths();
  expect(lengths.length).toBeGreaterThan(100);
  const offenders = lengths
    .filter((f) => f.lines > MAX_LINES)
    .sort((a, b) => b.lines - a.lines)
    .map((f) => `${f.where} (${f.lines} lines)`);
  expect(offenders, `composer functions over ${MAX_LINES} lines`).toEqual([]);
});
