import { WeftError } from '../core/errors.js';
import { type CommandLine, type CommandName, commandNames, parseCommandLine } from './args.js';
import { CliError } from './cli-error.js';
import { runCompose } from './commands/compose.js';
import { runList } from './commands/list.js';
import { runSnapshot } from './commands/snapshot.js';
import { runTypes } from './commands/types.js';
import { runValidateAsync } from './commands/validate.js';
import { formatHelp, toolUsage, usageLines } from './help.js';
import { loadVariantsAsync } from './registry.js';

/**
 * Runs `weft` with its arguments (without `node` and the script) and returns the exit code: 0 success, 1 a variant
 * failed (or an unknown variant), 2 a command line it cannot run or a missing package. Prints to stdout and stderr.
 */
export async function runWeftCliAsync(argv: readonly string[]): Promise<number> {
  let line: CommandLine | undefined;
  try {
    line = parseCommandLine(argv);
    if (line.command === undefined || line.command === 'help' || line.help) {
      console.log(formatHelp(helpTopic(line)));
      return line.command === undefined && !line.help ? 2 : 0;
    }
    const api = `weft ${line.command}`;
    const loaded = await loadVariantsAsync(api, line);
    switch (line.command) {
      case 'list':
        return runList(loaded);
      case 'compose':
        return runCompose(line, loaded);
      case 'validate':
        return await runValidateAsync(line, loaded);
      case 'snapshot':
        return runSnapshot(line, loaded);
      case 'types':
        return runTypes(line, loaded);
    }
  } catch (error) {
    return reportError(error);
  }
}

function helpTopic(line: CommandLine): CommandName | undefined {
  if (line.command !== 'help') return line.command;
  const [topic] = line.operands;
  if (topic === undefined) return undefined;
  if ((commandNames as readonly string[]).includes(topic)) return topic as CommandName;
  throw new CliError('weft help', 'usage', `no command ${JSON.stringify(topic)}; commands: ${commandNames.join(', ')}`);
}

function reportError(error: unknown): number {
  if (error instanceof CliError) {
    console.error(error.message);
    if (error.code === 'usage') {
      const command = error.api.replace(/^weft ?/, '') as CommandName | '';
      console.error(command ? usageLines[command] : toolUsage);
      console.error(`Run \`weft ${command ? `${command} ` : ''}--help\` for more.`);
    }
    return 2;
  }
  console.error(
    error instanceof WeftError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error),
  );
  return 1;
}
