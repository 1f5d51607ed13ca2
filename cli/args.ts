import { parseArgs } from 'node:util';
import { CliError } from './cli-error.js';

/** The commands of `weft`. */
export const commandNames = ['list', 'compose', 'validate', 'snapshot', 'types', 'help'] as const;
export type CommandName = (typeof commandNames)[number];

const options = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  condition: { type: 'string', multiple: true },
  registry: { type: 'string', multiple: true },
  rule: { type: 'string' },
  'world-adjust': { type: 'string' },
  storage: { type: 'string', multiple: true },
} as const;

type OptionName = keyof typeof options;

const registryOptions: readonly OptionName[] = ['help', 'registry', 'rule', 'world-adjust', 'storage'];
const acceptedOptions: Readonly<Record<CommandName, readonly OptionName[]>> = {
  list: registryOptions,
  compose: [...registryOptions, 'condition', 'json'],
  validate: [...registryOptions, 'json'],
  snapshot: registryOptions,
  types: registryOptions,
  help: ['help'],
};

/** A storage buffer of a discard rule, from `--storage name:type[:vertex]`. */
export interface StorageOption {
  name: string;
  type: string;
  vertex: boolean;
}

/** A parsed `weft` command line. */
export interface CommandLine {
  /** Undefined when no command was given (`weft`, `weft --help`). */
  command: CommandName | undefined;
  /** The arguments after the command. */
  operands: string[];
  help: boolean;
  json: boolean;
  /** From `--condition name[=true|false]`. */
  conditions: Record<string, boolean>;
  registries: string[];
  rule: string | undefined;
  worldAdjust: string | undefined;
  storage: StorageOption[];
}

function isCommand(value: string | undefined): value is CommandName {
  return (commandNames as readonly string[]).includes(value ?? '');
}

/** Parses `weft`'s arguments (without `node` and the script); a line it cannot run throws CliError `usage`. */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  // A first lenient pass finds the command, so that an error names it.
  const first = parseArgs({ args: [...argv], options, allowPositionals: true, strict: false }).positionals[0];
  const api = isCommand(first) ? `weft ${first}` : 'weft';
  let parsed: ReturnType<typeof parseStrict>;
  try {
    parsed = parseStrict(argv);
  } catch (error) {
    throw new CliError(api, 'usage', (error as Error).message);
  }
  const [command, ...operands] = parsed.positionals;
  if (command !== undefined && !isCommand(command))
    throw new CliError(
      'weft',
      'usage',
      `unknown command ${JSON.stringify(command)}; commands: ${commandNames.join(', ')}`,
    );
  const values = parsed.values;
  if (command) {
    const refused = (Object.keys(values) as OptionName[]).filter((name) => !acceptedOptions[command].includes(name));
    if (refused.length)
      throw new CliError(
        api,
        'usage',
        `${refused.map((name) => `--${name}`).join(', ')} ${refused.length > 1 ? 'are' : 'is'} not an option of ${command}; its options: ${acceptedOptions[command].map((name) => `--${name}`).join(', ')}`,
      );
  }
  if (!values.rule && (values['world-adjust'] || values.storage))
    throw new CliError(api, 'usage', '--world-adjust and --storage describe a rule: they need --rule <file.wgsl>');
  return {
    command,
    operands,
    help: values.help === true,
    json: values.json === true,
    conditions: Object.fromEntries((values.condition ?? []).map((text) => parseCondition(api, text))),
    registries: values.registry ?? [],
    rule: values.rule,
    worldAdjust: values['world-adjust'],
    storage: (values.storage ?? []).map((text) => parseStorage(api, text)),
  };
}

function parseStrict(argv: readonly string[]) {
  return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
}

function parseCondition(api: string, text: string): [string, boolean] {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:=(true|false))?$/.exec(text);
  if (!match)
    throw new CliError(
      api,
      'usage',
      `--condition ${JSON.stringify(text)} must be name, name=true or name=false (name: a WGSL identifier)`,
    );
  return [match[1], match[2] !== 'false'];
}

function parseStorage(api: string, text: string): StorageOption {
  const [name, type, vertex, ...rest] = text.split(':');
  if (!name || !type || (vertex !== undefined && vertex !== 'vertex') || rest.length)
    throw new CliError(
      api,
      'usage',
      `--storage ${JSON.stringify(text)} must be name:type or name:type:vertex (e.g. flags:array<f32>)`,
    );
  return { name, type, vertex: vertex === 'vertex' };
}
