#!/usr/bin/env node
// fuseforks-cli: loads the compiled CLI (npm run build) and runs it. Exit codes: SPEC §6.4.
// The signal handlers go in first, from a module with no imports, and the CLI is loaded only after them: a Ctrl+C
// during the ~0.3 s of loading must end in the command's close path (ask 8, serve 0), never kill the process.
import { installProcessSignals } from '../dist/cli/signals.js';

installProcessSignals(process.argv.slice(2));
const { main } = await import('../dist/cli/bundle/cli.js');
await main(process.argv.slice(2));
