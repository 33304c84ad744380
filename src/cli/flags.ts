/**
 * The flag sets shared by fuseforks-cli commands (SPEC §6). Commands spread these in, so a flag means the same
 * thing everywhere and `check` accepts exactly the arguments of the command it checks.
 */
import { Flags } from '@oclif/core';
import { CliOutput, NOTE_LEVELS, processStreams, type NoteLevel } from './output.js';

/** Values of `--secrets`. */
export const SECRET_SOURCES = ['keyring', 'env'] as const;
/** Values of `--run-approval`. */
export const RUN_APPROVAL_MODES = ['required', 'auto-approve', 'no-approval'] as const;
/** Values of `check --for`. */
export const CHECK_TARGETS = ['ask', 'serve'] as const;

/** `--data-dir` / `-d` (or FUSEFORKS_DATA_DIR): required, never defaulted (never touch the GUI's village by accident). */
export const dataDirFlag = Flags.string({
  char: 'd',
  env: 'FUSEFORKS_DATA_DIR',
  required: true,
  helpValue: '<dir>',
  description:
    'Folder holding the village: <dir>/workspace is the village, files beside it are this machine\'s shelf. ' +
    'Required (or FUSEFORKS_DATA_DIR), with no default, so a command never opens the GUI\'s village by accident.',
});

/** `--start`: required; which agents start. */
export const startFlag = Flags.string({
  required: true,
  helpValue: 'batch|reception|a,b,c',
  description:
    'Agents to start: "batch" (the batch-start set, as the GUI\'s start-all), "reception" (ask only) or a ' +
    'comma-separated list of agent ids. ask always adds the reception.',
});

/** `--secrets keyring|env`. */
export const secretsFlag = Flags.option({
  options: SECRET_SOURCES,
  default: 'keyring' as const,
  description: 'Where API keys come from: the OS keyring, or FUSEFORKS_SECRET_* environment variables (read-only).',
})();

/** The flags of every command that opens (or checks) a village. */
export const villageFlags = {
  'data-dir': dataDirFlag,
  start: startFlag,
  secrets: secretsFlag,
  'bypass-plan-review': Flags.boolean({
    default: false,
    description: 'Let plan waves of agents with plan review go out without a human approval.',
  }),
  'run-approval': Flags.option({
    options: RUN_APPROVAL_MODES,
    default: 'required' as const,
    description: 'How the run tool treats unapproved commands: refuse and queue (required), run them, or refuse run entirely.',
  })(),
};

/** `--events jsonl` (ask, serve): every stderr line becomes one JSON object (SPEC §6.5). */
export const eventsFlags = {
  events: Flags.option({
    options: ['jsonl'] as const,
    description: 'Stream core events and CLI notes on stderr as JSON lines; no plain text line is ever written.',
  })(),
};

/** `--quiet` and `--log-level`: how much goes to stderr (answers and reports on stdout are never affected). */
export const outputFlags = {
  quiet: Flags.boolean({
    char: 'q',
    default: false,
    description: 'Write only errors to stderr (the same as --log-level error); nothing at all when the command succeeds.',
  }),
  'log-level': Flags.option({
    options: NOTE_LEVELS,
    default: 'info' as const,
    helpValue: 'info|warn|error',
    description: 'Lowest level of notes and log lines written to stderr. The log file always gets every line.',
  })(),
};

/** The stderr level the output flags ask for (`--quiet` wins). */
export function noteLevelOf(flags: { quiet: boolean; 'log-level': NoteLevel }): NoteLevel {
  return flags.quiet ? 'error' : flags['log-level'];
}

/** A management command's output: plain text on stderr at the level its output flags ask for. */
export function humanOutputOf(flags: { quiet: boolean; 'log-level': NoteLevel }): CliOutput {
  return new CliOutput('human', processStreams, noteLevelOf(flags));
}

/** `check` only. */
export const checkFlags = {
  for: Flags.option({
    options: CHECK_TARGETS,
    required: true,
    description: 'The command to check: ask or serve (they need different things).',
  })(),
  json: Flags.boolean({
    default: false,
    description: 'Print exactly one JSON line {"findings":[…],"start":[ids]} on stdout.',
  }),
};

/** `ask` only. */
export const askFlags = {
  client: Flags.string({ description: 'Name the request comes from (default fuseforks-cli; the village\'s externalName wins).' }),
  'continue-session': Flags.boolean({ default: false, description: 'Continue the current conversation instead of a new one.' }),
  verbose: Flags.boolean({ default: false, description: 'Also show informational preflight findings.' }),
  json: Flags.boolean({
    default: false,
    description: 'Print exactly one JSON object on stdout: {answer, outcome, exitCode, sessionId, tokens, cost}.',
  }),
  timeout: Flags.integer({
    min: 1,
    helpValue: '<secs>',
    description: 'Longest wait for the answer, in seconds (default the village\'s askTimeoutSecs); past it the ask exits 7.',
  }),
};

/** The flags of every management command (`door`, `schedules`, `secrets`, `agents`, `approvals`). */
export const manageFlags = {
  'data-dir': dataDirFlag,
  json: Flags.boolean({ default: false, description: 'Print one JSON object on stdout.' }),
  ...outputFlags,
};
