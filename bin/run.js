#!/usr/bin/env node
// fuseforks-cli: loads the compiled CLI (npm run build) and runs it. Exit codes: SPEC §6.4.
// The signal handlers go in first, from a module with no imports, and the CLI is loaded only after them: a Ctrl+C
// during the ~0.3 s of loading must end in the command's close path (ask 8, serve 0), never kill the process.
// `ask` with plain arguments runs on its fast path, without loading oclif (dist/cli/ask/askFromArgv.js); anything
// it does not read (help, unusual or wrong arguments) goes to the oclif CLI as every other command does.
import { installProcessSignals } from '../dist/cli/signals.js';

const argv = process.argv.slice(2);
installProcessSignals(argv);
const answered = argv[0] === 'ask' && (await (await import('../dist/cli/bundle/askFast.js')).askFromArgv(argv, process.env));
if (!answered) {
  const { main } = await import('../dist/cli/bundle/cli.js');
  await main(argv);
}
