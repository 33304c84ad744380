/**
 * The fuseforks-cli entry (`bin/run.js` calls `main`). Scans argv for `--events jsonl` BEFORE oclif parses, so
 * even an argument error is a JSON line on stderr (SPEC §6.5), then hands over to oclif with the CLI's own
 * package config, and maps whatever escapes to an exit code from the one table (SPEC §6.4).
 */
import { fileURLToPath } from 'node:url';
import { run } from '@oclif/core';
import { bootMark } from '../core/bootTrace.js';
import { wantsEventsJsonl } from './argvScan.js';
import { reportEscaped } from './escapedError.js';
import { COMMANDS } from './commandMap.js';
import { suggestCommand, typedCommand } from './commandSuggestion.js';
import { EXIT } from './exitCodes.js';
import { exitCodeOf, owedJsonLine } from './jsonReply.js';
import { CliOutput, type OutputStreams } from './output.js';
import { processReply } from './replyLedger.js';
import { readBuildVersion } from './version.js';

// oclif's explicit command map is this module's export: bundled, it is the bundle itself (scripts/bundleCli.mjs),
// so oclif and every command share the one copy of @oclif/core that the bundle holds.
export { COMMANDS } from './commandMap.js';

/** The package root (`dist/cli/main.js` → two levels up). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every oclif parse failure is an argument error: exit 2 (STYLE 11). */
const PARSE_EXIT_CODES = {
  default: 1,
  failedFlagParsing: 2,
  failedFlagValidation: 2,
  invalidArgsSpec: 2,
  nonExistentFlag: 2,
  requiredArgs: 2,
  unexpectedArgs: 2,
  violatedFlagConstraint: 2,
};

/** The `oclif` block of package.json (keep the two equal), also handed to oclif directly so the CLI never depends on it being there. */
export const OCLIF_CONFIG = {
  bin: 'fuseforks-cli',
  dirname: 'fuseforks',
  commands: { strategy: 'explicit', target: './dist/cli/bundle/cli.js', identifier: 'COMMANDS' },
  // `help <command>`, "did you mean …?" for a mistyped command, and shell completion (`autocomplete`).
  plugins: ['@oclif/plugin-help', '@oclif/plugin-not-found', '@oclif/plugin-autocomplete'],
  topicSeparator: ' ',
  // `-h` and `-v` as people type them (oclif's own are --help and --version; `version` is a command).
  additionalHelpFlags: ['-h'],
  additionalVersionFlags: ['-v'],
  // The management topics' one-line summaries in `--help` (kept equal to package.json's oclif block by a test).
  topics: {
    agents: { description: "The village's agents: id, name, status, model template, ties." },
    approvals: { description: "Commands agents asked to run: list, approve (once, always, prefix), reject." },
    door: { description: "The MCP door on this machine's shelf: status, on/off, port, token." },
    mcp: { description: 'OAuth logins of HTTP MCP servers: login, logout, status (tokens in the keyring).' },
    schedules: { description: "The village's schedules: list, add, remove, pause, resume, fire one now." },
    sessions: { description: "Stored conversations: list, show, export, fork, summarize." },
    secrets: { description: "API keys of the model templates: list (names only), set from stdin or a hidden prompt, delete." },
    templates: { description: "The village's model templates: list, add, edit, remove (keys: secrets)." },
    village: { description: 'Village-wide settings: set reception.' },
  },
  exitCodes: PARSE_EXIT_CODES,
} as const;

/** Runs the CLI with `argv` (without node and script). Sets `process.exitCode`; never calls `process.exit`. */
export async function main(argv: readonly string[], streams?: OutputStreams): Promise<void> {
  bootMark('cli loaded');
  const output = new CliOutput(wantsEventsJsonl(argv) ? 'jsonl' : 'human', streams);
  try {
    const version = readBuildVersion();
    // oclif loads only the plugins that are also dependencies of the root package.
    const dependencies = Object.fromEntries(OCLIF_CONFIG.plugins.map((name) => [name, '*']));
    const pjson = { name: 'fuseforks-cli', version, type: 'module', dependencies, oclif: OCLIF_CONFIG };
    // oclif's PJSON type is wider than this literal; the cast is the only seam to it.
    await run([...argv], { root: PACKAGE_ROOT, version, pjson: pjson as never });
  } catch (error) {
    process.exitCode = notFound(error) ? reportUnknownCommand(argv, output) : reportEscaped(error, output);
  }
  // `--json`: a failure that printed nothing on stdout (an argument error, a refusal) still prints one object.
  const owed = owedJsonLine(argv, exitCodeOf(process.exitCode), processReply);
  if (owed !== null) output.stdout(owed);
}

/** oclif's not-found plugin ends an unknown command with exit 127. */
function notFound(error: unknown): boolean {
  return (error as { oclif?: { exit?: number } } | null)?.oclif?.exit === 127;
}

/** An unknown command: one note with the nearest command as the fix (in a terminal or not), exit 2. */
function reportUnknownCommand(argv: readonly string[], output: CliOutput): number {
  const typed = typedCommand(argv);
  const suggestion = suggestCommand(typed, Object.keys(COMMANDS));
  output.note({
    level: 'error',
    code: 'ARGUMENT',
    message: `${typed.split(':').join(' ')} is not a fuseforks-cli command.`,
    fix: suggestion === null ? 'fuseforks-cli --help lists every command.' : `Did you mean: fuseforks-cli ${suggestion}? (fuseforks-cli --help lists every command.)`,
  });
  return EXIT.argumentError;
}
