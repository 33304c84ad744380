#!/usr/bin/env node
// fuseforks-cli: loads the compiled CLI (npm run build) and runs it. Exit codes: SPEC §6.4.
// The signal handlers go in first, from a module with no imports, and the CLI is loaded only after them: a Ctrl+C
// during the ~0.3 s of loading must end in the command's close path (ask 8, serve 0), never kill the process.
// A cold `ask` spawns its agent workers next, so they boot on the other core while this one loads the CLI
// (dist/cli/ask/earlyPrewarm.js; a wrong guess from argv only costs time).
import { installProcessSignals } from '../dist/cli/signals.js';

const argv = process.argv.slice(2);
installProcessSignals(argv);
if (argv[0] === 'ask') await (await import('../dist/cli/bundle/askEarly.js')).prewarmFromArgv(argv, process.env);
const { main } = await import('../dist/cli/bundle/cli.js');
await main(argv);
