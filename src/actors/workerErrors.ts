/**
 * The errors an agent worker's end produces, one factory per code (STYLE 20): a crash, and a call made to a
 * worker that has already stopped.
 */
export { workerCrashed, workerStopped } from '../core/errors/runtimeErrors.js';
