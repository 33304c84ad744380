/**
 * Schedules and their pre-checks (SCHEDULE_NOT_FOUND, INVALID_SCHEDULE, SCHEDULE_STORE_BLOCKED, and
 * NOT_RUNNING for a run-now whose target is stopped). An unreadable
 * schedules.json blocks every write and is never overwritten.
 */
import { errorFactory } from './errorFactory.js';

/** A schedule id that schedules.json does not have; `fromList` = the GUI's approval list (it says reload). */
export const scheduleNotFound = errorFactory('SCHEDULE_NOT_FOUND', (id: string, file: string, fromList: boolean) => ({
  message: `No schedule with id ${id} in ${file}`,
  fix: fromList ? 'Reload the schedule list and pick one of its schedules.' : 'List the schedules and use one of their ids.',
  details: { id },
}));

/** A schedule row that breaks a rule (`problem` names it, `field` the key to correct). */
export const scheduleInvalid = errorFactory('INVALID_SCHEDULE', (field: string, problem: string) => ({
  message: `Invalid schedule: ${problem}`,
  fix: `Correct the field "${field}" and try again.`,
  details: { field },
}));

/** A schedule's pre-check that breaks a rule. */
export const probeInvalid = errorFactory('INVALID_SCHEDULE', (field: string, problem: string, fix: string) => ({
  message: `Invalid pre-check: ${problem}`,
  fix,
  details: { field },
}));

/** An approval asked for a schedule without a pre-check. */
export const scheduleHasNoProbe = errorFactory('INVALID_SCHEDULE', (id: string) => ({
  message: `Schedule ${id} has no pre-check to approve or revoke.`,
  fix: 'Set a pre-check command on the schedule first.',
  details: { field: 'probe', id },
}));

/** schedules.json could not be parsed, so no schedule may be changed (position of the first error). */
export const scheduleStoreBlocked = errorFactory('SCHEDULE_STORE_BLOCKED', (file: string, line: number, column: number, reason: string) => ({
  message: `Schedules cannot be changed: ${file} could not be read (line ${line}, column ${column}: ${reason})`,
  fix: `Fix or remove ${file} by hand and reopen the village; it is left untouched until then.`,
  details: { file, line, column },
}));

/** A schedule named by an id, or a start of one, that matches none or several (`matches` = how many it starts). */
export const scheduleIdUnresolved = errorFactory('SCHEDULE_NOT_FOUND', (idOrPrefix: string, matches: number) => ({
  message: matches > 1 ? `${idOrPrefix} is the start of ${matches} schedule ids.` : `No schedule has the id ${idOrPrefix}.`,
  fix: 'Run fuseforks-cli schedules list and give a full id (or a longer start of one).',
  details: { id: idOrPrefix },
}));

/** "Run now" on a schedule whose target agent is not started. */
export const scheduleTargetNotRunning = errorFactory('NOT_RUNNING', (id: string, to: string) => ({
  message: `Schedule ${id} sends to ${to}, which is not running.`,
  fix: `Start ${to} first (fuseforks-cli schedules run-now starts it for you).`,
  agentId: to,
}));

/** A schedule whose target's id is not a safe identifier: that agent is never started, so the schedule cannot run. */
export const scheduleTargetUnsafe = errorFactory('UNSAFE_IDENTIFIER', (id: string, shownTo: string) => ({
  message: `Schedule ${id} sends to the agent ${shownTo}, whose id is not 1-64 characters of A-Z a-z 0-9 _ -; that agent is never started, so nothing was sent.`,
  fix: `Give that agent a safe id in world.json and set this schedule's "to" to it in schedules.json, or remove the schedule (fuseforks-cli schedules remove ${id}).`,
  details: { id },
}));
