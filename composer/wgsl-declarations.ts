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

/**
 * Reads WGSL's module-scope struct, alias, const and var declarations; function bodies and other text are skipped.
 * @internal
 */
export function parseWgslDeclarations(code: string): WgslDeclarations {
  const tokens = tokenize(code);
  const out: WgslDeclarations = { structs: new Map(), aliases: new Map(), constants: new Map(), vars: [] };
  let i = 0;
  const fail = (why: string): never => {
    throw new LayoutError(
      api,
      'bad-wgsl',
      '',
      `cannot read the WGSL near "${tokens.slice(i, i + 8).join(' ')}": ${why}`,
    );
  };
  const expect = (token: string): void => {
    if (tokens[i] !== token) fail(`expected "${token}"`);
    i++;
  };
  const type = (): WgslTypeExpr => {
    const name = tokens[i++];
    if (!name || !/^[A-Za-z_]/.test(name)) fail('expected a type name');
    const args: (WgslTypeExpr | string)[] = [];
    if (tokens[i] === '<') {
      i++;
      while (tokens[i] !== '>') {
        // An argument is a type when it starts with a name, else expression text; an array's count is always text.
        const isCount = name === 'array' && args.length === 1;
        if (!isCount && /^[A-Za-z_]/.test(tokens[i] ?? '') && tokens[i + 1] !== '(') args.push(type());
        else args.push(expressionUntil([',', '>']));
        if (tokens[i] === ',') i++;
        else if (tokens[i] !== '>') fail('expected "," or ">" in a template list');
      }
      i++;
    }
    return { name, args };
  };
  const expressionUntil = (stops: readonly string[]): string => {
    const start = i;
    let depth = 0;
    while (i < tokens.length && !(depth === 0 && stops.includes(tokens[i]))) {
      if (tokens[i] === '(') depth++;
      else if (tokens[i] === ')') depth--;
      i++;
    }
    return tokens.slice(start, i).join(' ');
  };
  const none: ReadonlyMap<string, string> = new Map();
  const attributes = (): ReadonlyMap<string, string> => {
    if (tokens[i] !== '@') return none;
    const found = new Map<string, string>();
    while (tokens[i] === '@') {
      const name = tokens[i + 1];
      i += 2;
      let value = '';
      if (tokens[i] === '(') {
        i++;
        value = expressionUntil([')']);
        expect(')');
      }
      found.set(name, value);
    }
    return found;
  };
  let depth = 0;
  while (i < tokens.length) {
    const attrs = depth === 0 ? attributes() : none;
    const token = tokens[i];
    if (token === undefined) break;
    if (depth > 0 || (token !== 'struct' && token !== 'alias' && token !== 'const' && token !== 'var')) {
      if (token === '{') depth++;
      else if (token === '}') depth--;
      i++;
      continue;
    }
    i++;
    if (token === 'struct') {
      const name = tokens[i++];
      expect('{');
      const members: WgslStructMember[] = [];
      while (tokens[i] !== '}') {
        const memberAttrs = attributes();
        const memberName = tokens[i++];
        expect(':');
        const member: WgslStructMember = { name: memberName, type: type() };
        if (memberAttrs.has('align')) member.align = memberAttrs.get('align');
        if (memberAttrs.has('size')) member.size = memberAttrs.get('size');
        members.push(member);
        if (tokens[i] === ',') i++;
        else if (tokens[i] !== '}') fail('expected "," or "}" after a struct member');
      }
      i++;
      out.structs.set(name, members);
    } else if (token === 'alias') {
      const name = tokens[i++];
      expect('=');
      out.aliases.set(name, type());
      expect(';');
    } else if (token === 'const') {
      const name = tokens[i++];
      if (tokens[i] === ':') i++, type();
      expect('=');
      const start = i;
      const value = expressionUntil([';']);
      if (i - start === 1) out.constants.set(name, value);
      expect(';');
    } else {
      let addressSpace: string | null = null;
      let access: string | null = null;
      if (tokens[i] === '<') {
        i++;
        addressSpace = tokens[i++];
        if (tokens[i] === ',') i++, (access = tokens[i++]);
        expect('>');
      }
      const name = tokens[i++];
      if (tokens[i] !== ':') {
        expressionUntil([';']);
        i++;
        continue;
      }
      i++;
      const varType = type();
      expressionUntil([';']);
      i++;
      const index = (key: string): number | null => (attrs.has(key) ? Number.parseInt(attrs.get(key)!, 10) : null);
      out.vars.push({ name, addressSpace, access, type: varType, group: index('group'), binding: index('binding') });
    }
  }
  return out;
}
