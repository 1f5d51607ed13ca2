import type { CommandName } from './args.js';

const sharedOptions = `options of every command:
  --registry <module>            also the variants of a module exporting registerVariants(registry) (repeatable)
  --rule <file.wgsl>             also the pick variants of a discard rule file, named rule-<file>-…
  --world-adjust <file.wgsl>     with --rule: the rule's adjustPickWorld function
  --storage <name:type[:vertex]> with --rule: a storage buffer the rule reads, e.g. flags:array<f32> (repeatable)
  -h, --help                     this help`;

/** One line per command: what `weft` prints after a usage error. */
export const usageLines: Readonly<Record<CommandName, string>> = {
  list: 'usage: weft list [options]',
  compose: 'usage: weft compose <variant> [--condition <name=true|false>]… [--json] [options]',
  validate: 'usage: weft validate [variant…] [--json] [options]',
  snapshot: 'usage: weft snapshot <dir> [options]',
  types: 'usage: weft types [file.d.ts] [options]',
  help: 'usage: weft help [command]',
};

/** The tool's usage line. */
export const toolUsage = 'usage: weft <list|compose|validate|snapshot|types|help> [arguments] [options]';

const commandHelp: Readonly<Record<CommandName, string>> = {
  list: `${usageLines.list}

Lists the registered shader variants, one per line: name, then description.

${sharedOptions}`,
  compose: `${usageLines.compose}

Prints one variant's WGSL as \`weft snapshot\` writes it: valid WGSL with its key, bind groups, vertex
buffers, varyings, targets and slots as comments.

  --condition <name=true|false>  set a compose condition of the variant (repeatable; "name" alone means true)
  --json                         print the composed shader as JSON (code, key, layouts), without the source map

${sharedOptions}`,
  validate: `${usageLines.validate}

Checks variants' WGSL with naga (no GPU), then compiles them on Dawn (the \`webgpu\` package, null
backend), and reports every error at the line and column of the fragment or rule file it comes from, each
distinct error once; naga's messages end in [naga], and one on a line Dawn also flags is left out. Without
variant names: every variant, or with --rule only the rule's variants. Exit code 1 when any variant fails.

  --json                         print [{ file, line, column, severity, message, variant, checkedBy }] instead
                                 (variant: the first variant that reported the message; checkedBy: naga or
                                 dawn, absent for compose errors)

${sharedOptions}

Compiling on Dawn needs the webgpu package (npm install webgpu); without it naga's check stands alone.`,
  snapshot: `${usageLines.snapshot}

Writes every variant's WGSL to <dir>/<variant>.wgsl, creating <dir> if needed: a "// <name>: <description>"
line, then formatShaderSnapshot's text (weft-gpu/composer): valid WGSL with the layouts as comments.

${sharedOptions}`,
  types: `${usageLines.types}

Prints (or writes to file.d.ts) TypeScript declarations of every variant's uniform and storage bindings: the
values setUniforms takes, merged into WeftUniforms of weft-gpu/composer. With them in your program,
getBufferLayout(composed, variant, binding) returns a typed layout, and a misspelled field or a vector of the
wrong length is a type error. Regenerate when a variant or a fragment's structs change.

${sharedOptions}`,
  help: `${usageLines.help}

Prints the help of weft or of one command.`,
};

/** The help of the tool, or of one command. */
export function formatHelp(command?: CommandName): string {
  if (command) return commandHelp[command];
  return `weft — list, print, validate, snapshot and type the WGSL shader variants of weft-gpu

${toolUsage}

commands:
  list                   the registered variants
  compose <variant>      one variant's WGSL and layouts (--json for data)
  validate [variant…]    check variants with naga, compile on Dawn; errors at file:line:column (--json)
  snapshot <dir>         write every variant's .wgsl into <dir>
  types [file.d.ts]      TypeScript types of every variant's uniforms, for setUniforms
  help [command]         this help, or a command's

${sharedOptions}

\`weft <command> --help\` describes a command. Exit codes: 0 success, 1 a variant failed or an unknown
variant, 2 a bad command line or a missing package.`;
}
