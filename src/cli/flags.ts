/**
 * The flag sets shared by fuseforks-cli commands (SPEC §6). Commands spread these in, so a flag means the same
 * thing everywhere and `check` accepts exactly the arguments of the command it checks.
 */
import { Flags } from '@oclif/core';
import { ASK_FLAG_SPECS as SPEC } from './flagSpecs.js';
import { CliOutput, noteLevelOf, processStreams, type NoteLevel } from './output.js';

/** A spec's oclif properties (everything but the kind, which picks the Flags function). */
function props<T extends { kind: string }>({ kind: _kind, ...rest }: T): Omit<T, 'kind'> {
  return rest;
}

/** Values of `check --for`. */
export const CHECK_TARGETS = ['ask', 'serve'] as const;

/** `--data-dir` / `-d` (or FUSEFORKS_DATA_DIR): required, never defaulted (never touch the GUI's village by accident). */
export const dataDirFlag = Flags.string(props(SPEC['data-dir']));

/** `--start`: required; which agents start. */
export const startFlag = Flags.string(props(SPEC.start));

/** `--start` of the commands that run a village without a request (serve, bake): `reception` is ask's only. */
export const serveStartFlag = Flags.string({
  ...props(SPEC.start),
  helpValue: 'batch|a,b,c',
  description: 'Agents to start: "batch" (the batch-start set, as the GUI\'s start-all) or a comma-separated list of agent ids.',
});

/** `--secrets keyring|env`. */
export const secretsFlag = Flags.option(props(SPEC.secrets))();

/** The flags of every command that opens (or checks) a village. */
export const villageFlags = {
  'data-dir': dataDirFlag,
  start: startFlag,
  secrets: secretsFlag,
  'bypass-plan-review': Flags.boolean({ ...props(SPEC['bypass-plan-review']), default: false }),
  'run-approval': Flags.option(props(SPEC['run-approval']))(),
};

/** villageFlags for serve and bake: their `--start` never offers `reception`. */
export const serveVillageFlags = { ...villageFlags, start: serveStartFlag };

/** `--events jsonl` (ask, serve): every stderr line becomes one JSON object (SPEC §6.5). */
export const eventsFlags = { events: Flags.option(props(SPEC.events))() };

/** `--quiet` and `--log-level`: how much goes to stderr (answers and reports on stdout are never affected). */
export const outputFlags = {
  quiet: Flags.boolean({ ...props(SPEC.quiet), default: false }),
  'log-level': Flags.option(props(SPEC['log-level']))(),
};

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
  client: Flags.string(props(SPEC.client)),
  'continue-session': Flags.boolean({ ...props(SPEC['continue-session']), default: false }),
  verbose: Flags.boolean({ ...props(SPEC.verbose), default: false }),
  json: Flags.boolean({ ...props(SPEC.json), default: false }),
  timeout: Flags.integer(props(SPEC.timeout)),
};

/** The flags of every management command (`door`, `schedules`, `secrets`, `agents`, `approvals`). */
export const manageFlags = {
  'data-dir': dataDirFlag,
  json: Flags.boolean({ default: false, description: 'Print one JSON object on stdout.' }),
  ...outputFlags,
};
