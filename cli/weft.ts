// The `weft` command (package.json `bin`; built to dist/cli/weft.js). `weft --help` describes it.
import { runWeftCliAsync } from './run.js';

runWeftCliAsync(process.argv.slice(2)).then((code) => {
  // Dawn's instance can keep the event loop alive: exit once the output is flushed.
  process.stdout.write('', () => process.exit(code));
});
