/**
 * The flags `ask` takes (most shared with other commands) as plain data, the one place they are defined: flags.ts
 * builds oclif's definitions from these, and ask's fast path (ask/askArgv.ts) parses them without loading oclif.
 */
import { NOTE_LEVELS, type NoteLevel } from './output.js';

/** Values of `--secrets`. */
export const SECRET_SOURCES = ['keyring', 'env'] as const;
/** Values of `--run-approval`. */
export const RUN_APPROVAL_MODES = ['required', 'auto-approve', 'no-approval'] as const;

interface SpecBase {
  description: string;
  /** One-letter alias (`-d`). */
  char?: 'd' | 'q';
  /** Environment variable read when the flag is absent. */
  env?: string;
  required?: boolean;
  helpValue?: string;
}

/** One flag: its kind decides how a value is read (string, on/off, one of `options`, a whole number ≥ `min`). */
export type FlagSpec =
  | (SpecBase & { kind: 'string' })
  | (SpecBase & { kind: 'boolean' })
  | (SpecBase & { kind: 'option'; options: readonly string[]; default?: string })
  | (SpecBase & { kind: 'integer'; min: number });

/** Every flag of `ask`, by name. */
export const ASK_FLAG_SPECS = {
  'data-dir': {
    kind: 'string',
    char: 'd',
    env: 'FUSEFORKS_DATA_DIR',
    required: true,
    helpValue: '<dir>',
    description:
      'Folder holding the village: <dir>/workspace is the village, files beside it are this machine\'s shelf. ' +
      'Required (or FUSEFORKS_DATA_DIR), with no default, so a command never opens the GUI\'s village by accident.',
  },
  start: {
    kind: 'string',
    required: true,
    helpValue: 'batch|reception|a,b,c',
    description:
      'Agents to start: "batch" (the batch-start set, as the GUI\'s start-all), "reception" (ask only) or a ' +
      'comma-separated list of agent ids. ask always adds the reception.',
  },
  secrets: {
    kind: 'option',
    options: SECRET_SOURCES,
    default: 'keyring',
    description: 'Where API keys come from: the OS keyring, or FUSEFORKS_SECRET_* environment variables (read-only).',
  },
  'bypass-plan-review': {
    kind: 'boolean',
    description: 'Let plan waves of agents with plan review go out without a human approval.',
  },
  'run-approval': {
    kind: 'option',
    options: RUN_APPROVAL_MODES,
    default: 'required',
    description: 'How the run tool treats unapproved commands: refuse and queue (required), run them, or refuse run entirely.',
  },
  events: {
    kind: 'option',
    options: ['jsonl'],
    description: 'Stream core events and CLI notes on stderr as JSON lines; no plain text line is ever written.',
  },
  quiet: {
    kind: 'boolean',
    char: 'q',
    description: 'Write only errors to stderr (the same as --log-level error); nothing at all when the command succeeds.',
  },
  'log-level': {
    kind: 'option',
    options: NOTE_LEVELS,
    default: 'info',
    helpValue: 'info|warn|error',
    description: 'Lowest level of notes and log lines written to stderr. The log file always gets every line.',
  },
  client: { kind: 'string', description: 'Name the request comes from (default fuseforks-cli; the village\'s externalName wins).' },
  'continue-session': { kind: 'boolean', description: 'Continue the current conversation instead of a new one.' },
  verbose: { kind: 'boolean', description: 'Also write the diagnostic log lines (boot, turns, tools) and informational findings to stderr; the log file always has them.' },
  json: {
    kind: 'boolean',
    description: 'Print exactly one JSON object on stdout: {answer, outcome, exitCode, sessionId, tokens, cost}.',
  },
  timeout: {
    kind: 'integer',
    min: 1,
    helpValue: '<secs>',
    description: 'Longest wait for the answer, in seconds (default the village\'s askTimeoutSecs); past it the ask exits 7.',
  },
} as const satisfies Record<string, FlagSpec>;

/** The flags of `ask` once read (oclif's parse and the fast path's give the same object). */
export interface AskFlagValues {
  'data-dir': string;
  start: string;
  secrets: (typeof SECRET_SOURCES)[number];
  'bypass-plan-review': boolean;
  'run-approval': (typeof RUN_APPROVAL_MODES)[number];
  events?: 'jsonl' | undefined;
  quiet: boolean;
  'log-level': NoteLevel;
  client?: string | undefined;
  'continue-session': boolean;
  verbose: boolean;
  json: boolean;
  timeout?: number | undefined;
}
