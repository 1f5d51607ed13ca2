import {
  declsOfKind,
  LinkedWesl,
  linkRegistry,
  mapGPUCompilationInfo,
  type ModuleResolver,
  parseSrcModule,
  throwOnParseError,
  type WeslAST,
  type WeslGPUCompilationInfo,
  withLoggerAsync,
} from 'wesl';
import { type Fragment, fragmentModuleName } from '../fragments/fragment-types.js';
import type { Conditions } from './conditions.js';
import { ComposeError, formatShaderMessage, type MappedShaderMessage } from './errors.js';
import type { GeneratedModule } from './generated-module.js';
import {
  generatedPath,
  type LinkRegistry,
  type LinkResult,
  type LinkSource,
  locate,
  makeLinkRegistry,
  sourceMessage,
} from './link-sources.js';

// The wesl-free half of the linker's API lives in link-sources.ts (a build without the linker keeps it): re-exported.
export { generatedPath, type LinkRegistry, type LinkResult, type LinkSource, locate, makeLinkRegistry, sourceMessage };

/** @internal True: this build links at run time (the precomposed build's stand-in, precomposed-link.ts, says false). */
export const linkerAvailable = true;

/**
 * wesl's mapping of a device's compilation info back to the linked sources (compile-errors.ts reads it from here).
 * @internal
 */
export function mapLinkedCompilationInfo(linked: LinkedWesl, info: GPUCompilationInfo): WeslGPUCompilationInfo {
  return mapGPUCompilationInfo(linked, info);
}

function cachedAst(registry: LinkRegistry, key: string, parse: () => WeslAST): WeslAST {
  const cached = registry.asts.get(key);
  if (cached) {
    registry.asts.delete(key);
    registry.asts.set(key, cached);
    return cached;
  }
  const ast = parse();
  registry.asts.set(key, ast);
  if (registry.asts.size > registry.maxModules) registry.asts.delete(registry.asts.keys().next().value!);
  return ast;
}

function parseCounted(registry: LinkRegistry, modulePath: string, source: LinkSource): WeslAST {
  registry.counters.parses++;
  return parseSrcModule({ modulePath, debugFilePath: source.path, src: source.text });
}

/**
 * Parses a module; `imports` (a fragment's composer-supplied imports) join its AST as if written at its top. wesl
 * reads imports only from a module's own header, so they are parsed as a module of their own and their import
 * elements added to the fragment's AST: its text is parsed as written, and wesl and the device report positions in
 * it unshifted. The key holds both texts, so an AST with added imports is never shared with a plain parse.
 */
function parseModule(registry: LinkRegistry, modulePath: string, source: LinkSource, imports?: LinkSource): WeslAST {
  if (!imports)
    return cachedAst(registry, `${source.path}\n${source.text}`, () => parseCounted(registry, modulePath, source));
  return cachedAst(registry, `${source.path}\n${imports.text}\n${source.text}`, () => {
    const header = parseCounted(registry, modulePath, imports);
    throwOnParseError(header);
    const ast = parseCounted(registry, modulePath, source);
    ast.moduleElem.decls.unshift(...declsOfKind(header.moduleElem, 'import'));
    ast.imports.unshift(...header.imports);
    return ast;
  });
}

function linkError(api: string, error: unknown, sources: ReadonlyMap<string, LinkSource>): ComposeError {
  const e = error as Error & {
    src?: { debugFilePath: string };
    span?: [number, number];
    diagnostics?: { message: string; start: number; severity: string }[];
    weslLocation?: { file: string; line: number; column: number };
  };
  let message: MappedShaderMessage | null = null;
  if (e?.src && e.diagnostics) {
    const source = sources.get(e.src.debugFilePath);
    const diagnostic = e.diagnostics.find((d) => d.severity === 'error') ?? e.diagnostics[0];
    if (source && diagnostic) {
      const at = locate(source.text, diagnostic.start);
      message = sourceMessage(source, at.line, at.column, 'error', diagnostic.message);
    }
  } else if (e?.weslLocation) {
    const source = sources.get(e.weslLocation.file);
    if (source)
      message = sourceMessage(
        source,
        e.weslLocation.line,
        e.weslLocation.column,
        'error',
        String(e.message)
          .split('\n')[0]
          .replace(/ in file: .*$/, ''),
      );
  }
  if (!message)
    return new ComposeError(api, 'link-error', [], `wesl could not link the fragments: ${String(e?.message ?? error)}`);
  const ids = [message.origin ?? message.fragmentId].filter((id) => !id.startsWith('weft:'));
  return new ComposeError(api, 'link-error', ids, formatShaderMessage(message), [message]);
}

/**
 * Links the fragments and generated modules from `root` with wesl's `linkRegistry` (synchronous), reusing parsed
 * modules from the registry. wesl errors become ComposeError `link-error` located in the fragment's own source.
 * @internal
 */
export function linkFragments(
  api: string,
  registry: LinkRegistry,
  fragments: readonly Fragment[],
  generated: readonly GeneratedModule[],
  root: GeneratedModule,
  conditions: Conditions,
): LinkResult {
  const byModule = new Map<string, LinkSource & { modulePath: string; imports?: LinkSource }>();
  for (const f of fragments) {
    const imports = f.imports?.length
      ? {
          path: generatedPath(`${f.id}/imports`),
          text: f.imports.map((i) => `import ${i};`).join('\n'),
          origins: f.imports.map(() => f.id),
        }
      : undefined;
    byModule.set(`package::${fragmentModuleName(f.id)}`, {
      modulePath: `package::${fragmentModuleName(f.id)}`,
      path: f.id,
      text: f.source,
      imports,
    });
  }
  for (const g of [...generated, root]) {
    const modulePath = `package::${g.name}`;
    // Generated libraries are imported as `bindings::x`; the root as `package::weft_main`.
    byModule.set(g === root ? modulePath : g.name, {
      modulePath,
      path: generatedPath(g.name),
      text: g.text,
      origins: g.origins,
    });
  }
  const sources = new Map<string, LinkSource>(
    [...byModule.values()].flatMap((s) => [s, ...(s.imports ? [s.imports] : [])]).map((s) => [s.path, s]),
  );
  const resolved = new Map<string, WeslAST>();
  const resolver: ModuleResolver = {
    resolveModule(modulePath) {
      let ast = resolved.get(modulePath);
      if (ast) return ast;
      const source = byModule.get(modulePath);
      if (!source) return undefined;
      ast = parseModule(registry, source.modulePath, source, source.imports);
      resolved.set(modulePath, ast);
      return ast;
    },
  };
  let result: LinkedWesl | null = null;
  let failure: unknown = null;
  // wesl logs a caret listing before it throws; we report the error ourselves, so silence it during this
  // (synchronous) link. wesl restores its logger a microtask later, possibly to this sink: after the link the
  // sink forwards to console.log, wesl's default, so it stays transparent.
  const call = { quiet: true };
  void withLoggerAsync(
    (...data: unknown[]) => {
      if (!call.quiet) console.log(...data);
    },
    async () => {
      try {
        result = new LinkedWesl(
          linkRegistry({ resolver, rootModuleName: `package::${root.name}`, conditions: { ...conditions } }),
        );
      } catch (error) {
        failure = error;
      }
    },
  );
  call.quiet = false;
  registry.counters.links++;
  if (!result) throw linkError(api, failure, sources);
  const linked = result as LinkedWesl;
  return { code: linked.dest, linked, sources };
}
