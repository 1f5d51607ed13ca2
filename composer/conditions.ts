/** Boolean conditions of a compose spec, by name; a missing name is false (as in wesl's `@if`). */
export type Conditions = Readonly<Record<string, boolean>>;

/**
 * Evaluates a `when` expression (`a`, `!a`, `a && b`, `a || (b && !c)`, `true`, `false`) against the conditions.
 * Throws a plain Error describing the syntax problem; callers wrap it with the fragment's id.
 * @internal
 */
export function evaluateCondition(expression: string, conditions: Conditions): boolean {
  const tokens = expression.match(/\s*(&&|\|\||!|\(|\)|[A-Za-z_][A-Za-z0-9_]*|\S)/g)?.map((t) => t.trim()) ?? [];
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`condition ${JSON.stringify(expression)}: ${what}; use names, !, &&, || and parentheses`);
  };
  const primary = (): boolean => {
    const token = tokens[at++];
    if (token === undefined) return fail('ends early');
    if (token === '!') return !primary();
    if (token === '(') {
      const value = or();
      if (tokens[at++] !== ')') fail('missing )');
      return value;
    }
    if (!/^[A-Za-z_]/.test(token)) return fail(`unexpected ${JSON.stringify(token)}`);
    if (token === 'true') return true;
    if (token === 'false') return false;
    return conditions[token] === true;
  };
  const and = (): boolean => {
    let value = primary();
    while (tokens[at] === '&&') {
      at++;
      value = primary() && value;
    }
    return value;
  };
  const or = (): boolean => {
    let value = and();
    while (tokens[at] === '||') {
      at++;
      value = and() || value;
    }
    return value;
  };
  const value = or();
  if (at !== tokens.length) fail(`unexpected ${JSON.stringify(tokens[at])}`);
  return value;
}

/** @internal The true conditions, sorted by name: the canonical form used in keys and outputs. */
export function canonicalConditions(conditions: Conditions | undefined): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const name of Object.keys(conditions ?? {}).sort()) if (conditions![name] === true) out[name] = true;
  return out;
}
