import { LayoutError } from './layout-errors.js';

/**
 * A WGSL type as written: a name and its template arguments (types, or expression text such as an array length).
 * @internal
 */
export interface WgslTypeExpr {
  name: string;
  args: readonly (WgslTypeExpr | string)[];
}

/** A struct member as written: its `@align` / `@size` expressions when present. */
interface WgslStructMember {
  name: string;
  type: WgslTypeExpr;
  align?: string;
  size?: string;
}

/** A module-scope `var` with its address space, access mode and `@group` / `@binding` (null when absent). */
interface WgslModuleVar {
  name: string;
  addressSpace: string | null;
  access: string | null;
  type: WgslTypeExpr;
  group: number | null;
  binding: number | null;
}

/** The module-scope declarations a buffer layout needs. */
interface WgslDeclarations {
  structs: Map<string, WgslStructMember[]>;
  aliases: Map<string, WgslTypeExpr>;
  /** `const` declarations whose initialiser is a single token (a literal or a name), by name. */
  constants: Map<string, string>;
  vars: WgslModuleVar[];
}

const api = 'makeWgslBufferLayouts';

/** Comments become spaces (block comments nest in WGSL), then the text splits into names, numbers and punctuation. */
function tokenize(code: string): string[] {
  let text = '';
  let i = 0;
  for (;;) {
    const slash = code.indexOf('/', i);
    if (slash < 0) {
      text += code.slice(i);
      break;
    }
    const next = code[slash + 1];
    if (next === '/') {
      text += `${code.slice(i, slash)} `;
      const end = code.indexOf('\n', slash);
      if (end < 0) break;
      i = end;
    } else if (next === '*') {
      text += `${code.slice(i, slash)} `;
      let depth = 1;
      i = slash + 2;
      while (depth > 0 && i < code.length) {
        const open = code.indexOf('/*', i);
        const close = code.indexOf('*/', i);
        if (close < 0) {
          i = code.length;
        } else if (open >= 0 && open < close) {
          depth++;
          i = open + 2;
        } else {
          depth--;
          i = close + 2;
        }
      }
    } else {
      text += code.slice(i, slash + 1);
      i = slash + 1;
    }
  }
  return (
    text.match(
      /[A-Za-z_][A-Za-z0-9_]*|0[xX][0-9a-fA-F.]+(?:[pP][+-]?[0-9]+)?[fhiu]?|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?[fhiu]?|\S/g,
    ) ?? []
  );
}

/** The token list and the parser's position in it. */
interface Cursor {
  readonly tokens: readonly string[];
  i: number;
}

function fail(c: Cursor, why: string): never {
  throw new LayoutError(
    api,
    'bad-wgsl',
    '',
    `cannot read the WGSL near "${c.tokens.slice(c.i, c.i + 8).join(' ')}": ${why}`,
  );
}

function expectToken(c: Cursor, token: string): void {
  if (c.tokens[c.i] !== token) fail(c, `expected "${token}"`);
  c.i++;
}

function parseType(c: Cursor): WgslTypeExpr {
  const { tokens } = c;
  const name = tokens[c.i++];
  if (!name || !/^[A-Za-z_]/.test(name)) fail(c, 'expected a type name');
  const args: (WgslTypeExpr | string)[] = [];
  if (tokens[c.i] === '<') {
    c.i++;
    while (tokens[c.i] !== '>') {
      // An argument is a type when it starts with a name, else expression text; an array's count is always text.
      const isCount = name === 'array' && args.length === 1;
      if (!isCount && /^[A-Za-z_]/.test(tokens[c.i] ?? '') && tokens[c.i + 1] !== '(') args.push(parseType(c));
      else args.push(expressionUntil(c, [',', '>']));
      if (tokens[c.i] === ',') c.i++;
      else if (tokens[c.i] !== '>') fail(c, 'expected "," or ">" in a template list');
    }
    c.i++;
  }
  return { name, args };
}

/** The text up to (not including) the first stop token outside parentheses. */
function expressionUntil(c: Cursor, stops: readonly string[]): string {
  const { tokens } = c;
  const start = c.i;
  let depth = 0;
  while (c.i < tokens.length && !(depth === 0 && stops.includes(tokens[c.i]))) {
    if (tokens[c.i] === '(') depth++;
    else if (tokens[c.i] === ')') depth--;
    c.i++;
  }
  return tokens.slice(start, c.i).join(' ');
}

function parseAttributes(c: Cursor): ReadonlyMap<string, string> {
  const { tokens } = c;
  const found = new Map<string, string>();
  while (tokens[c.i] === '@') {
    const name = tokens[c.i + 1];
    c.i += 2;
    let value = '';
    if (tokens[c.i] === '(') {
      c.i++;
      value = expressionUntil(c, [')']);
      expectToken(c, ')');
    }
    found.set(name, value);
  }
  return found;
}

/**
 * Reads WGSL's module-scope struct, alias, const and var declarations; function bodies and other text are skipped.
 * @internal
 */
export function parseWgslDeclarations(code: string): WgslDeclarations {
  const c: Cursor = { tokens: tokenize(code), i: 0 };
  const { tokens } = c;
  const out: WgslDeclarations = { structs: new Map(), aliases: new Map(), constants: new Map(), vars: [] };
  let depth = 0;
  while (c.i < tokens.length) {
    const attrs = depth === 0 ? parseAttributes(c) : new Map<string, string>();
    const token = tokens[c.i];
    if (token === undefined) break;
    if (depth > 0 || (token !== 'struct' && token !== 'alias' && token !== 'const' && token !== 'var')) {
      if (token === '{') depth++;
      else if (token === '}') depth--;
      c.i++;
      continue;
    }
    c.i++;
    if (token === 'struct') parseStruct(c, out);
    else if (token === 'alias') parseAlias(c, out);
    else if (token === 'const') parseConst(c, out);
    else parseVar(c, attrs, out);
  }
  return out;
}

function parseStruct(c: Cursor, out: WgslDeclarations): void {
  const { tokens } = c;
  const name = tokens[c.i++];
  expectToken(c, '{');
  const members: WgslStructMember[] = [];
  while (tokens[c.i] !== '}') {
    const memberAttrs = parseAttributes(c);
    const memberName = tokens[c.i++];
    expectToken(c, ':');
    const member: WgslStructMember = { name: memberName, type: parseType(c) };
    if (memberAttrs.has('align')) member.align = memberAttrs.get('align');
    if (memberAttrs.has('size')) member.size = memberAttrs.get('size');
    members.push(member);
    if (tokens[c.i] === ',') c.i++;
    else if (tokens[c.i] !== '}') fail(c, 'expected "," or "}" after a struct member');
  }
  c.i++;
  out.structs.set(name, members);
}

function parseAlias(c: Cursor, out: WgslDeclarations): void {
  const name = c.tokens[c.i++];
  expectToken(c, '=');
  out.aliases.set(name, parseType(c));
  expectToken(c, ';');
}

/** A const whose value is one token (a literal or a name) is kept; others are skipped. */
function parseConst(c: Cursor, out: WgslDeclarations): void {
  const name = c.tokens[c.i++];
  if (c.tokens[c.i] === ':') {
    c.i++;
    parseType(c);
  }
  expectToken(c, '=');
  const start = c.i;
  const value = expressionUntil(c, [';']);
  if (c.i - start === 1) out.constants.set(name, value);
  expectToken(c, ';');
}

function parseVar(c: Cursor, attrs: ReadonlyMap<string, string>, out: WgslDeclarations): void {
  const { tokens } = c;
  let addressSpace: string | null = null;
  let access: string | null = null;
  if (tokens[c.i] === '<') {
    c.i++;
    addressSpace = tokens[c.i++];
    if (tokens[c.i] === ',') {
      c.i++;
      access = tokens[c.i++];
    }
    expectToken(c, '>');
  }
  const name = tokens[c.i++];
  if (tokens[c.i] !== ':') {
    expressionUntil(c, [';']);
    c.i++;
    return;
  }
  c.i++;
  const varType = parseType(c);
  expressionUntil(c, [';']);
  c.i++;
  const index = (key: string): number | null => (attrs.has(key) ? Number.parseInt(attrs.get(key)!, 10) : null);
  out.vars.push({ name, addressSpace, access, type: varType, group: index('group'), binding: index('binding') });
}
