/**
 * Requests a person (through the GUI, the CLI or the door) made in a shape the command cannot take
 * (INVALID_REQUEST, GUI_UNAUTHORIZED, EDIT_CONFLICT). Each names the field and how to send it right.
 */
import { errorFactory } from './errorFactory.js';

/** A form field that breaks its rule: "`subject`: `field` `problem`." (Village settings, Role, Model template, Group). */
export const fieldInvalid = errorFactory('INVALID_REQUEST', (subject: string, field: string, problem: string, fix: string) => ({
  message: `${subject}: ${field} ${problem}.`,
  fix,
  details: { field },
}));

/** A servant edit whose field fails the world.json schema (`why` = the schema's message). */
export const servantFieldInvalid = errorFactory('INVALID_REQUEST', (id: string, field: string, why: string) => ({
  message: `Servant "${id}": field ${field} is invalid (${why}).`,
  fix: `Correct ${field} and save again.`,
  agentId: id,
  details: { field },
}));

/** A run.json policy edit whose field breaks its rule. */
export const runPolicyFieldInvalid = errorFactory('INVALID_REQUEST', (field: string, problem: string, fix: string) => ({
  message: `run.json field ${field} ${problem}.`,
  fix,
  details: { field },
}));

/** A door port outside 1-65535. */
export const doorPortInvalid = errorFactory('INVALID_REQUEST', (port: unknown) => ({
  message: `The door port must be a whole number from 1 to 65535, not ${String(port)}.`,
  fix: 'Choose a free port such as 39641.',
  details: { field: 'port' },
}));

/** An API key registered empty. */
export const apiKeyEmpty = errorFactory('INVALID_REQUEST', () => ({
  message: 'The API key is empty.',
  fix: 'Paste the key, then press Register.',
  details: { field: 'key' },
}));

/** A file editor sent text that is not a string (`subject` = "Ordinance" or "file"). */
export const textNotString = errorFactory('INVALID_REQUEST', (subject: string) => ({
  message: `The ${subject} text must be a string.`,
  fix: 'Reload the page and save again.',
  details: { field: 'text' },
}));

/** An edit made from a revision that is no longer the document's current one (another window, process or agent saved first). */
export const editConflict = errorFactory('EDIT_CONFLICT', (target: { doc: string; file: string; agentId?: string }, current: string) => ({
  message: `${target.file} changed since this edit was started from it (another window, a command or a servant saved it first); nothing was written.`,
  fix: 'Reload to see the current version and edit that, or overwrite it with this edit.',
  ...(target.agentId === undefined ? {} : { agentId: target.agentId }),
  details: { doc: target.doc, file: target.file, current },
}));

/** An agent file kind that is not editable. */
export const unknownAgentFile = errorFactory('INVALID_REQUEST', (kind: unknown, known: readonly string[]) => ({
  message: `There is no agent file "${String(kind)}".`,
  fix: `Use one of ${known.join(', ')}.`,
  details: { field: 'kind' },
}));

/** A GUI API request field of the wrong type (`what` = the type it must be). */
export const requestFieldInvalid = errorFactory('INVALID_REQUEST', (key: string, what: string) => ({
  message: `The request field "${key}" must be ${what}.`,
  fix: 'Reload the page; the client and the server disagree about this request.',
  details: { field: key },
}));

/** A GUI API request body above the limit (bytes). */
export const bodyTooLarge = errorFactory('INVALID_REQUEST', (limit: number) => ({
  message: `The request body is larger than ${limit} bytes.`,
  fix: 'Send a smaller body.',
}));

/** A GUI API request body that is not a JSON object (`parsed` = it was JSON, but not an object). */
export const bodyNotObject = errorFactory('INVALID_REQUEST', (parsed: boolean) => ({
  message: parsed ? 'The request body must be a JSON object.' : 'The request body is not JSON.',
  fix: 'Send a JSON object.',
}));

/** A chat message sent empty. */
export const messageEmpty = errorFactory('INVALID_REQUEST', () => ({
  message: 'The message is empty.',
  fix: 'Type a message first.',
  details: { field: 'text' },
}));

/** A held plan wave withdrawn before a person decided (interrupted, or its agent stopped). */
export const planReviewWithdrawn = errorFactory('INVALID_REQUEST', (planId: number) => ({
  message: `plan ${planId} is no longer waiting for review`,
  fix: 'nothing to do: the wave was interrupted or its agent stopped',
  details: { planId },
}));

/** A decision for a plan that is not waiting (already decided, interrupted, agent stopped). */
export const planNotWaiting = errorFactory('INVALID_REQUEST', (planId: number) => ({
  message: `no plan ${planId} is waiting for review`,
  fix: 'reload the wave list: the plan was already decided, interrupted, or its agent stopped',
  details: { planId },
}));

/** A GUI API request without a session of this launch (or the launch token), or from a foreign Host/Origin. */
export const guiUnauthorized = errorFactory('GUI_UNAUTHORIZED', (reason: string) => ({
  message: `Refused: ${reason}.`,
  fix: 'Open the GUI from the window fuseforks-cli gui opened, or paste the URL it printed (each URL it prints works once); run it again for a new URL.',
}));

/** A ticket traded for a session a second time, or one this launch never issued. */
export const guiTicketSpent = errorFactory('GUI_UNAUTHORIZED', () => ({
  message: 'Refused: this URL was used already (each one opens one browser session, once) or is not from this launch.',
  fix: 'Use the browser that opened it first, or run fuseforks-cli gui again for a new URL.',
}));

/** An approval decision for a command request that is not pending (never asked, or decided already). */
export const commandRequestNotPending = errorFactory('INVALID_REQUEST', (agentId: string, line: string) => ({
  message: `${agentId} has no pending request to run ${JSON.stringify(line)}.`,
  fix: 'Run fuseforks-cli approvals list and give the agent id and the command line as it shows them (it may have been decided already).',
  details: { agentId },
}));

/** A path-completion query that leaves the servant's work folder (`reason` is the tools' own refusal text). */
export const workPathRefused = errorFactory('INVALID_REQUEST', (agentId: string, reason: string) => ({
  message: `Servant "${agentId}": ${reason}`,
  fix: "Type a path inside the servant's work folder; links that lead out of it are not followed.",
  agentId,
  details: { field: 'query' },
}));

/** A work folder that cannot be used (`reason` says why: not absolute, missing, not a folder, unreadable). */
export const workDirInvalid = errorFactory('INVALID_REQUEST', (folder: string, reason: string, fix: string) => ({
  message: `Work folder ${JSON.stringify(folder)}: ${reason}.`,
  fix,
  details: { field: 'workDir' },
}));
