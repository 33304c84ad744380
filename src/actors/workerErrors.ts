/**
 * The errors an agent worker's end produces, one factory per code (STYLE 20): a crash, and a call made to a
 * worker that has already stopped.
 */
import { FuseforksError } from '../core/errors.js';

/** The worker of `agentId` died (threw, exited, hit its resource limits, or failed to boot). */
export function workerCrashed(agentId: string, reason: string): FuseforksError {
  return new FuseforksError('WORKER_CRASHED', `agent "${agentId}" worker stopped unexpectedly (${reason})`, {
    agentId,
    fix: 'see workspace/fuseforks.log for the cause, then start the agent again',
  });
}

/** A call reached a worker that ended normally (stopped) before it could answer. */
export function workerStopped(agentId: string): FuseforksError {
  return new FuseforksError('NOT_RUNNING', `agent "${agentId}" stopped before it answered`, {
    agentId,
    fix: 'start the agent again if you still need it',
  });
}
