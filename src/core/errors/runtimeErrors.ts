/**
 * Agents and the work in flight on them (ALREADY_RUNNING, NOT_RUNNING, MAILBOX_FULL, EXTERNAL_RECEPTION_UNSET,
 * EXTERNAL_BUSY, WORKER_CRASHED, COMPUTE_BUSY, COMPUTE_FAILED, BUG). Worker-side safe: imports only errors.ts.
 */
import { errorFactory } from './errorFactory.js';

/** Starting an agent that is already starting or running. */
export const agentAlreadyRunning = errorFactory('ALREADY_RUNNING', (id: string, status: string) => ({
  message: `agent "${id}" is already ${status}`,
  agentId: id,
  fix: 'nothing to do; to restart it, stop it first',
}));

/** What was asked of an agent that does not run: a delivery, a stop, or a summary. */
export type NotRunningFor = 'deliver' | 'stop' | 'summarize';

const NOT_RUNNING_TAIL: Record<NotRunningFor, string> = { deliver: '', stop: '', summarize: ', so it cannot be summarized' };

/** An agent that does not run was asked to take a delivery, to stop, or to summarize. */
export const agentNotRunning = errorFactory('NOT_RUNNING', (id: string, asked: NotRunningFor) => ({
  message: `agent "${id}" is not running${NOT_RUNNING_TAIL[asked]}`,
  agentId: id,
  fix:
    asked === 'deliver'
      ? `start it first (startAgent("${id}") or --start ${id})`
      : asked === 'stop'
        ? 'nothing to stop; start it first if you meant to restart it'
        : 'start the agent first; a stopped agent keeps its history until it runs again',
}));

/** An external ask while the reception agent does not run. */
export const receptionNotRunning = errorFactory('NOT_RUNNING', (reception: string) => ({
  message: `reception "${reception}" is not running`,
  agentId: reception,
  fix: `start it first (--start ${reception})`,
}));

/** A worker that ended normally (stopped) before it answered a call. */
export const workerStopped = errorFactory('NOT_RUNNING', (agentId: string) => ({
  message: `agent "${agentId}" stopped before it answered`,
  agentId,
  fix: 'start the agent again if you still need it',
}));

/** A delivery after the village began to close. */
export const villageClosing = errorFactory('NOT_RUNNING', () => ({
  message: 'this village is closing; no new deliveries are accepted',
  fix: 'Open the village again to send more requests.',
}));

/** A GUI API call before the village finished opening. */
export const villageNotOpenYet = errorFactory('NOT_RUNNING', () => ({
  message: 'The village is not open yet (see /api/boot).',
  retryable: false,
}));

/** The target's mailbox is full (retryable). */
export const mailboxFull = errorFactory('MAILBOX_FULL', (agentId: string, capacity: number) => ({
  message: `agent "${agentId}" has ${capacity} messages waiting`,
  agentId,
  fix: 'wait for the agent to work through its mailbox, then send again',
}));

/** An external ask with no reception set. */
export const receptionUnset = errorFactory('EXTERNAL_RECEPTION_UNSET', () => ({
  message: 'no reception agent is set in world.json',
  fix: 'choose a reception agent (world.json "reception")',
}));

/** The external mailbox already holds `waiting` asks (its capacity); retryable. */
export const externalBusy = errorFactory('EXTERNAL_BUSY', (waiting: number, capacity: number) => ({
  message: `${waiting} external requests are already waiting for this village.`,
  fix: 'Wait for the queued requests to be answered, then ask again.',
  details: { waiting, capacity },
  retryable: true,
}));

/** The worker of `agentId` died (threw, exited, hit its resource limits, or failed to boot). */
export const workerCrashed = errorFactory('WORKER_CRASHED', (agentId: string, reason: string) => ({
  message: `agent "${agentId}" worker stopped unexpectedly (${reason})`,
  agentId,
  fix: 'see workspace/fuseforks.log for the cause, then start the agent again',
}));

/** The shared search pool's queue is full (retryable). */
export const computeBusy = errorFactory('COMPUTE_BUSY', (queued: number) => ({
  message: `the shared search pool is busy (${queued} jobs waiting); try again`,
  fix: 'try again in a moment, or narrow the search with path or include',
  details: { queued },
}));

/** A search job on the pool failed or passed its deadline (retryable). */
export const computeFailed = errorFactory('COMPUTE_FAILED', (reason: string, fix: string) => ({
  message: `the search stopped: ${reason}`,
  fix,
}));

/** A broken internal invariant: never an expected outcome, never caught to become one. */
export const bug = errorFactory('BUG', (what: string) => ({ message: what }));
