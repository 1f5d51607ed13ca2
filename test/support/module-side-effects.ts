// Finds the top-level statements of a module that run code when it is imported: weft promises no module-level side
// effects (no registries filled, no caches allocated, no globals written at import), so a bundler may drop any module.
import ts from 'typescript';

/** One top-level statement (or initialiser) that runs code at import. */
export interface SideEffect {
  line: number;
  /** What kind of code runs: `call`, `new`, `assignment`, `await`, `statement`, … */
  reason: string;
  /** The offending code, on one line and shortened. */
  text: string;
}

/** Lists the side effects of a module's top level; declarations whose initialisers only build values are allowed. */
export function findTopLevelSideEffects(sourceFile: ts.SourceFile): SideEffect[] {
  const found: SideEffect[] = [];
  const report = (node: ts.Node, reason: string): void => {
    const line = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;
    const text = node
      .getText(sourceFile)
      .replace(/\s+/g, ' ')
      .replace(/([([{]) /g, '$1');
    found.push({ line, reason, text: text.length > 90 ? `${text.slice(0, 87)}...` : text });
  };
  const checkValue = (expression: ts.Expression | undefined): void => {
    const impure = expression && findImpureExpression(expression);
    if (impure) report(impure.node, impure.reason);
  };
  for (const statement of sourceFile.statements) {
    if (isDeclarationOnly(statement)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) checkValue(declaration.initializer);
    } else if (ts.isClassDeclaration(statement)) {
      checkClassStatics(statement, checkValue, report);
    } else if (ts.isExportAssignment(statement)) {
      checkValue(statement.expression);
    } else if (ts.isExpressionStatement(statement)) {
      checkValue(statement.expression);
    } else {
      report(statement, 'statement');
    }
  }
  return found;
}

function isDeclarationOnly(statement: ts.Statement): boolean {
  if (ts.getModifiers(statement as ts.HasModifiers)?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) return true;
  return (
    ts.isImportDeclaration(statement) ||
    ts.isExportDeclaration(statement) ||
    ts.isImportEqualsDeclaration(statement) ||
    ts.isFunctionDeclaration(statement) ||
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isEnumDeclaration(statement) ||
    ts.isEmptyStatement(statement)
  );
}

// Static initialisers, static blocks and decorators run when the class declaration is evaluated, i.e. at import.
function checkClassStatics(
  declaration: ts.ClassDeclaration,
  checkValue: (expression: ts.Expression | undefined) => void,
  report: (node: ts.Node, reason: string) => void,
): void {
  for (const modifier of ts.getDecorators(declaration) ?? []) report(modifier, 'decorator');
  for (const member of declaration.members) {
    if (ts.isClassStaticBlockDeclaration(member)) report(member, 'static block');
    const isStatic = ts.getModifiers(member as ts.HasModifiers)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
    if (isStatic && ts.isPropertyDeclaration(member)) checkValue(member.initializer);
  }
}

interface Impurity {
  node: ts.Node;
  reason: string;
}

const ASSIGNMENT_OPERATORS = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.AsteriskEqualsToken,
  ts.SyntaxKind.AsteriskAsteriskEqualsToken,
  ts.SyntaxKind.SlashEqualsToken,
  ts.SyntaxKind.PercentEqualsToken,
  ts.SyntaxKind.LessThanLessThanEqualsToken,
  ts.SyntaxKind.GreaterThanGreaterThanEqualsToken,
  ts.SyntaxKind.GreaterThanGreaterThanGreaterThanEqualsToken,
  ts.SyntaxKind.AmpersandEqualsToken,
  ts.SyntaxKind.BarEqualsToken,
  ts.SyntaxKind.CaretEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
]);

/**
 * The first part of an expression evaluated at import that runs code, or null when it only builds a value: literals,
 * templates without calls, identifiers and property reads, function/arrow/class expressions (their bodies run later),
 * object/array literals of such values, operators on them, `as`/`satisfies`/`!`, and `Object.freeze(value)`.
 */
export function findImpureExpression(expression: ts.Expression): Impurity | null {
  const first = (nodes: readonly (ts.Expression | undefined)[]): Impurity | null => {
    for (const node of nodes) {
      const impure = node && findImpureExpression(node);
      if (impure) return impure;
    }
    return null;
  };
  const e = expression;
  if (ts.isLiteralExpression(e) || ts.isIdentifier(e) || isKeywordValue(e)) return null;
  if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return null;
  if (ts.isClassExpression(e)) return classExpressionImpurity(e);
  if (ts.isTemplateExpression(e)) return first(e.templateSpans.map((span) => span.expression));
  if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e)) {
    return findImpureExpression(e.expression);
  }
  if (ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e) || ts.isTypeOfExpression(e)) {
    return findImpureExpression(e.expression);
  }
  if (ts.isVoidExpression(e) || ts.isSpreadElement(e)) return findImpureExpression(e.expression);
  if (ts.isPropertyAccessExpression(e)) return findImpureExpression(e.expression);
  if (ts.isElementAccessExpression(e)) return first([e.expression, e.argumentExpression]);
  if (ts.isPrefixUnaryExpression(e)) {
    const mutates = e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken;
    return mutates ? { node: e, reason: 'assignment' } : findImpureExpression(e.operand);
  }
  if (ts.isPostfixUnaryExpression(e)) return { node: e, reason: 'assignment' };
  if (ts.isBinaryExpression(e)) {
    if (ASSIGNMENT_OPERATORS.has(e.operatorToken.kind)) return { node: e, reason: 'assignment' };
    return first([e.left, e.right]);
  }
  if (ts.isConditionalExpression(e)) return first([e.condition, e.whenTrue, e.whenFalse]);
  if (ts.isArrayLiteralExpression(e)) return first(e.elements);
  if (ts.isObjectLiteralExpression(e)) return objectLiteralImpurity(e);
  if (ts.isCallExpression(e) && isObjectFreeze(e.expression)) return first(e.arguments);
  // A call or `new` annotated `/* @__PURE__ */` promises bundlers it has no side effect: only its arguments count.
  if ((ts.isCallExpression(e) || ts.isNewExpression(e)) && hasPureAnnotation(e)) return first(e.arguments ?? []);
  if (ts.isCallExpression(e) || ts.isTaggedTemplateExpression(e)) return { node: e, reason: 'call' };
  if (ts.isNewExpression(e)) return { node: e, reason: 'new' };
  if (ts.isAwaitExpression(e)) return { node: e, reason: 'await' };
  if (ts.isDeleteExpression(e)) return { node: e, reason: 'delete' };
  return { node: e, reason: ts.SyntaxKind[e.kind] };
}

function hasPureAnnotation(node: ts.Node): boolean {
  const sourceFile = node.getSourceFile();
  return /[@#]__PURE__/.test(sourceFile.text.slice(node.pos, node.getStart(sourceFile)));
}

function isKeywordValue(e: ts.Expression): boolean {
  const kinds = [ts.SyntaxKind.TrueKeyword, ts.SyntaxKind.FalseKeyword, ts.SyntaxKind.NullKeyword];
  return kinds.includes(e.kind) || ts.isNoSubstitutionTemplateLiteral(e);
}

function isObjectFreeze(callee: ts.Expression): boolean {
  return (
    ts.isPropertyAccessExpression(callee) &&
    ts.isIdentifier(callee.expression) &&
    callee.expression.text === 'Object' &&
    callee.name.text === 'freeze'
  );
}

function objectLiteralImpurity(literal: ts.ObjectLiteralExpression): Impurity | null {
  for (const property of literal.properties) {
    const name = property.name && ts.isComputedPropertyName(property.name) ? property.name.expression : undefined;
    const value = ts.isPropertyAssignment(property)
      ? property.initializer
      : ts.isSpreadAssignment(property)
        ? property.expression
        : undefined;
    for (const part of [name, value]) {
      const impure = part && findImpureExpression(part);
      if (impure) return impure;
    }
  }
  return null;
}

function classExpressionImpurity(expression: ts.ClassExpression): Impurity | null {
  for (const member of expression.members) {
    if (ts.isClassStaticBlockDeclaration(member)) return { node: member, reason: 'static block' };
    const isStatic = ts.getModifiers(member as ts.HasModifiers)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
    const impure = isStatic && ts.isPropertyDeclaration(member) && member.initializer;
    const found = impure && findImpureExpression(impure);
    if (found) return found;
  }
  return null;
}
