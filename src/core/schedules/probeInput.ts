/**
 * A schedule pre-check as a person enters it (GUI / host command), checked before it reaches the store
 * (reference ops.md §2.5). The probe runs in argv form with no shell, so `command` must be ONE program: shell
 * syntax in it (pipes, `;`, `&&`, redirects, `$()`, backticks) would never be interpreted and only mislead the
 * person approving it. Every refusal is INVALID_SCHEDULE naming the field (`probe.command`, `probe.args`, …).
 * Pure: no file or process access (cwd existence is checked at run time, as in the original).
 */
import { isAbsolute } from 'node:path';
import { PROBE_TIMEOUT_DEFAULT_SECS, PROBE_TIMEOUT_MAX_SECS } from './scheduleRow.js';
import type { ScheduleProbe } from './types.js';
import { probeInvalid } from '../errors/scheduleErrors.js';

/** Characters a shell would interpret; the argv runner never does, so they are refused in `command`. */
const SHELL_SYNTAX = /[|;&<>`$\n\r]/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads `{command, args[], cwd?, expect, timeoutSecs?}` into a `ScheduleProbe`. `cwd` empty/absent = null
 * (the workspace); `timeoutSecs` absent = 60 s. Text is kept as written (the approval hash covers it verbatim),
 * except that `command` and `cwd` lose surrounding blanks, which a form field adds by accident.
 */
export function parseProbeInput(value: unknown): ScheduleProbe {
  if (!isObject(value)) throw probeInvalid('probe', 'the pre-check must be an object {command, args, cwd, expect}', 'Send the pre-check fields as one object.');
  if (typeof value.command !== 'string' || value.command.trim() === '') {
    throw probeInvalid('probe.command', 'probe.command must not be empty', 'Enter the program to run, e.g. "git" or "/usr/bin/test".');
  }
  const command = value.command.trim();
  if (SHELL_SYNTAX.test(command)) {
    throw probeInvalid(
      'probe.command',
      'probe.command contains shell syntax (| ; & < > $ ` or a line break); pre-checks run without a shell',
      'Put only the program in "command" and each argument on its own line in "args"; to use a pipeline, put it in a script and run that.',
    );
  }
  if (/\s/.test(command) && !isAbsolute(command)) {
    throw probeInvalid('probe.command', 'probe.command holds a space: it must be one program, not a command line', 'Put the program in "command" and each argument on its own line in "args".');
  }
  const args = value.args ?? [];
  if (!Array.isArray(args) || !args.every((a): a is string => typeof a === 'string')) {
    throw probeInvalid('probe.args', 'probe.args must be a list of strings', 'Give one argument per line.');
  }
  const rawCwd = value.cwd ?? null;
  if (rawCwd !== null && typeof rawCwd !== 'string') throw probeInvalid('probe.cwd', 'probe.cwd must be a path or empty', 'Enter an absolute folder path, or leave it empty for the workspace.');
  const cwd = rawCwd === null || rawCwd.trim() === '' ? null : rawCwd.trim();
  if (cwd !== null && !isAbsolute(cwd)) {
    throw probeInvalid('probe.cwd', 'probe.cwd must be an absolute path', 'Enter an absolute folder path, or leave it empty for the workspace.');
  }
  if (typeof value.expect !== 'string' || value.expect.trim() === '') {
    throw probeInvalid('probe.expect', 'probe.expect must not be empty', 'Enter the first line the command prints when the request should go out (e.g. "yes").');
  }
  const timeout = value.timeoutSecs ?? PROBE_TIMEOUT_DEFAULT_SECS;
  if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1 || timeout > PROBE_TIMEOUT_MAX_SECS) {
    throw probeInvalid('probe.timeoutSecs', `probe.timeoutSecs must be a whole number from 1 to ${PROBE_TIMEOUT_MAX_SECS}`, 'Pick a timeout in seconds (default 60).');
  }
  return { command, args: [...args], expect: value.expect, timeoutSecs: timeout, cwd };
}

/**
 * The exact command line a person approves, for display only (never executed): each part that is empty or holds
 * blanks/quotes is shown in double quotes, so `a b` as one argument and `a`,`b` as two look different.
 */
export function probeCommandLine(probe: Pick<ScheduleProbe, 'command' | 'args'>): string {
  const quote = (part: string): string => (part === '' || /[\s"'\\]/.test(part) ? JSON.stringify(part) : part);
  return [probe.command, ...probe.args].map(quote).join(' ');
}
