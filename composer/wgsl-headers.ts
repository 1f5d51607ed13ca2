import { isPredeclaredWgslName } from './wgsl-names.js';

/** A function header as written in a fragment's source. */
/** A wesl conditional attribute: `@if(expr)`, `@elif(expr)` or `@else` (expr empty). */
interface WgslCondition {
  kind: 'if' | 'elif' | 'else';
  expression: string;
}

/** @internal A function header as written in a fragment's source. */
export interface WgslFunctionHeader {
  name: string;
  /** `when`: the parameter's `@if` expression (present only under it). */
  params: readonly { name: string; type: string; when?: string }[];
  /** The return type as written, or null. */
  returns: string | null;
  /** 1-based position of the `fn` keyword in the source. */
  line: number;
  column: number;
  /** The `@if` / `@elif` / `@else` on the function, or null when it is always declared. */
  condition: WgslCondition | null;
  /** A parameter carries `@elif`/`@else`: its parameter list cannot be told without wesl. */
  unreadableParams: boolean;
}

/**
 * The module-scope names of one fragment source that a type may use: its function headers, the structs and aliases
 * it declares, and the names it imports (from `import` statements and `Fragment.imports`) with their full paths.
 * @internal
 */
export interface WgslModuleScan {
  functions: ReadonlyMap<string, readonly WgslFunctionHeader[]>;
  structs: ReadonlySet<string>;
  /** 1-based line and column of each struct's name. */
  structPlaces: ReadonlyMap<string, { line: number; column: number }>;
  aliases: ReadonlyMap<string, string>;
  imports: ReadonlyMap<string, string>;
}

/** Comments become spaces (newlines kept, so offsets and lines stay those of the source); block comments nest. */
function blankComments(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? source.length : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (c === '/' && source[i + 1] === '*') {
      let depth = 1;
      let j = i + 2;
      while (j < source.length && depth > 0) {
        if (source[j] === '/' && source[j + 1] === '*') depth++, j++;
        else if (source[j] === '*' && source[j + 1] === '/') depth--, j++;
        j++;
      }
      out += source.slice(i, j).replace(/[^\n]/g, ' ');
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Splits `text` at commas outside (), <> and []. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '<' || c === '[') depth++;
    else if (c === ')' || c === '>' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

const attributePattern = /@\s*([A-Za-z_]\w*)\s*(?:\(((?:[^()]|\([^()]*\))*)\))?/g;

/** The attributes right before `at` (whitespace between), e.g. `@if(a && b)` before `fn`. */
function conditionBefore(text: string, at: number): WgslCondition | null {
  const before = text.slice(Math.max(0, at - 300), at);
  const run = /(?:@\s*[A-Za-z_]\w*\s*(?:\((?:[^()]|\([^()]*\))*\))?\s*)+$/.exec(before);
  if (!run) return null;
  for (const a of run[0].matchAll(attributePattern))
    if (a[1] === 'if' || a[1] === 'elif' || a[1] === 'else') return { kind: a[1], expression: (a[2] ?? '').trim() };
  return null;
}

/** Reads the import tree after `import` (`a::b::{ c, d::e as f }`) into local name → full path. */
function readImports(text: string, into: Map<string, string>): void {
  const tokens = text.match(/[A-Za-z_]\w*|::|[{},]/g) ?? [];
  let i = 0;
  const item = (prefix: string[]): void => {
    const path = [...prefix];
    while (i < tokens.length) {
      const token = tokens[i];
      if (token === '{') {
        i++;
        while (i < tokens.length && tokens[i] !== '}') {
          item(path);
          if (tokens[i] === ',') i++;
        }
        i++;
        return;
      }
      if (token === '::') i++;
      else if (token === 'as') {
        into.set(tokens[i + 1], path.join('::'));
        i += 2;
        return;
      } else if (/^[A-Za-z_]/.test(token) && (path.length === prefix.length || tokens[i - 1] === '::')) {
        path.push(token);
        i++;
      } else break;
    }
    if (path.length > prefix.length) into.set(path[path.length - 1], path.join('::'));
  };
  item([]);
}

/**
 * Scans a WESL source's module scope (function bodies skipped): function headers with their lines, struct and alias
 * declarations and imports. `extraImports` are `Fragment.imports` entries (each as after `import`).
 * @internal
 */
export function scanWgslModule(source: string, extraImports: readonly string[] = []): WgslModuleScan {
  const text = blankComments(source);
  const functions = new Map<string, WgslFunctionHeader[]>();
  const structs = new Set<string>();
  const structPlaces = new Map<string, { line: number; column: number }>();
  const aliases = new Map<string, string>();
  const imports = new Map<string, string>();
  for (const extra of extraImports) readImports(extra, imports);
  const keyword = /\b(fn|struct|alias|import)\b/g;
  let depth = 0;
  let scanned = 0;
  for (let m = keyword.exec(text); m; m = keyword.exec(text)) {
    for (; scanned < m.index; scanned++) {
      if (text[scanned] === '{') depth++;
      else if (text[scanned] === '}') depth--;
    }
    if (depth !== 0) continue;
    const rest = text.slice(m.index + m[0].length);
    if (m[1] === 'import') {
      const end = rest.indexOf(';');
      readImports(end < 0 ? rest : rest.slice(0, end), imports);
    } else if (m[1] === 'struct') {
      const name = /^(\s*)([A-Za-z_]\w*)/.exec(rest);
      if (name) {
        structs.add(name[2]);
        const at = m.index + m[0].length + name[1].length;
        const before = text.slice(0, at);
        structPlaces.set(name[2], { line: before.split('\n').length, column: at - before.lastIndexOf('\n') });
      }
    } else if (m[1] === 'alias') {
      const decl = /^\s*([A-Za-z_]\w*)\s*=\s*([^;]+);/.exec(rest);
      if (decl) aliases.set(decl[1], decl[2].trim());
    } else {
      const header = readHeader(source, m.index, rest, conditionBefore(text, m.index));
      if (!header) continue;
      const list = functions.get(header.name) ?? [];
      list.push(header);
      functions.set(header.name, list);
    }
  }
  return { functions, structs, structPlaces, aliases, imports };
}

function readHeader(
  source: string,
  at: number,
  rest: string,
  condition: WgslCondition | null,
): WgslFunctionHeader | null {
  const start = /^\s*([A-Za-z_]\w*)\s*\(/.exec(rest);
  if (!start) return null;
  let depth = 1;
  let i = start[0].length;
  for (; i < rest.length && depth > 0; i++) {
    if (rest[i] === '(') depth++;
    else if (rest[i] === ')') depth--;
  }
  const paramsText = rest.slice(start[0].length, i - 1);
  const body = rest.indexOf('{', i);
  const tail = rest.slice(i, body < 0 ? rest.length : body).trim();
  let unreadableParams = false;
  const params = splitTopLevel(paramsText).map((param) => {
    let when: string | undefined;
    const bare = param.replace(attributePattern, (_all, name: string, args: string | undefined) => {
      if (name === 'if') when = (args ?? '').trim();
      else if (name === 'elif' || name === 'else') unreadableParams = true;
      return ' ';
    });
    const colon = bare.indexOf(':');
    const read = { name: bare.slice(0, colon).trim(), type: bare.slice(colon + 1).trim() };
    return when === undefined ? read : { ...read, when };
  });
  const returns = tail.startsWith('->') ? tail.slice(2).replace(attributePattern, ' ').trim() : null;
  const before = source.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  return {
    name: start[1],
    params,
    returns: returns || null,
    line: before.split('\n').length,
    column: at - lineStart + 1,
    condition,
    unreadableParams,
  };
}

interface TypeTree {
  name: string;
  args: (TypeTree | string)[];
}

function parseType(type: string): TypeTree | null {
  const tokens =
    type.match(/[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*|[0-9][0-9A-Za-z_.]*|\S/g)?.map((t) => t.replace(/\s+/g, '')) ??
    [];
  let i = 0;
  const tree = (): TypeTree | null => {
    const name = tokens[i++];
    if (!name || !/^[A-Za-z_]/.test(name)) return null;
    const args: (TypeTree | string)[] = [];
    if (tokens[i] === '<') {
      i++;
      while (i < tokens.length && tokens[i] !== '>') {
        if (/^[A-Za-z_]/.test(tokens[i]) && tokens[i + 1] !== '(') {
          const arg = tree();
          if (!arg) return null;
          args.push(arg);
        } else {
          const from = i;
          let depth = 0;
          while (i < tokens.length && !(depth === 0 && (tokens[i] === ',' || tokens[i] === '>'))) {
            if (tokens[i] === '(' || tokens[i] === '<') depth++;
            else if (tokens[i] === ')' || tokens[i] === '>') depth--;
            i++;
          }
          args.push(tokens.slice(from, i).join(''));
        }
        if (tokens[i] === ',') i++;
      }
      if (tokens[i] !== '>') return null;
      i++;
    }
    return { name, args };
  };
  const result = tree();
  return result && i === tokens.length ? result : null;
}

const scalarSuffix: Readonly<Record<string, string>> = { f32: 'f', f16: 'h', i32: 'i', u32: 'u' };

/**
 * The canonical spelling of a WGSL type: no whitespace, `vec3<f32>` as `vec3f`, `mat4x4<f32>` as `mat4x4f`, a `ptr`
 * with its default access mode written out, and every other name through `resolve` (a full path such as
 * `io::VertexInput`; a name `resolve` cannot place is prefixed with `?`). Unparseable text is returned without spaces.
 * @internal
 */
export function canonicalWgslType(type: string, resolve: (name: string) => string): string {
  const tree = parseType(type);
  if (!tree) return type.replace(/\s+/g, '');
  const write = (t: TypeTree | string): string => {
    if (typeof t === 'string') return t;
    const args = t.args.map(write);
    const vector = /^(vec[234]|mat[234]x[234])$/.exec(t.name);
    if (vector && args.length === 1 && scalarSuffix[args[0]]) return `${t.name}${scalarSuffix[args[0]]}`;
    if (t.name === 'ptr' && args.length === 2)
      args.push(args[0] === 'storage' || args[0] === 'uniform' ? 'read' : 'read_write');
    const name = isPredeclaredWgslName(t.name) ? t.name : resolve(t.name);
    return args.length ? `${name}<${args.join(',')}>` : name;
  };
  return write(tree);
}
