#!/usr/bin/env node
// fuseforks-cli: loads the compiled CLI (npm run build) and runs it. Exit codes: SPEC §6.4.
import { main } from '../dist/cli/main.js';

await main(process.argv.slice(2));
