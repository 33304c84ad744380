/**
 * The work-status record of `plan` waves: a pure fold over the plan events, so the host can keep the latest waves
 * for every face (the GUI's work-status grid) and a test can drive it from a table. A wave is one `plan` call's
 * set of tasks; each task is `running` until its `planTaskResolved` comes, the wave is open until
 * `planWaveFinished`. Events of waves no longer kept (or never started) change nothing.
 */
import type { CoreEvent, PlanTaskState } from '../events.js';

/** How many waves are kept, newest last (older ones drop off the front). */
export const PLAN_WAVES_KEPT = 50;

/** One task of a recorded wave. */
export interface PlanWaveTask {
  to: string;
  /** Length of the task's message (the body itself is never kept here). */
  msgChars: number;
  state: PlanTaskState;
  /** Milliseconds from the wave's start to this task's outcome; null while it runs. */
  elapsedMs: number | null;
}

/** One recorded wave. */
export interface PlanWave {
  planId: number;
  /** The agent whose `plan` call this is. */
  agentId: string;
  /** The wave's number within that agent's turn (1 = the turn's first plan call). */
  wave: number;
  startedAtMs: number;
  tasks: PlanWaveTask[];
  /** Null while the wave runs; then the size of the bundle handed back (0 when the wave was cut). */
  bundleChars: number | null;
  /** Null while the wave runs; then its whole duration. */
  elapsedMs: number | null;
}

/**
 * The list after one event: a new array when the event changed a wave, the same array otherwise (a caller can
 * tell whether anything moved by identity).
 */
export function foldPlanWaves(waves: readonly PlanWave[], event: CoreEvent): readonly PlanWave[] {
  switch (event.type) {
    case 'planWaveStarted': {
      const started: PlanWave = {
        planId: event.planId,
        agentId: event.agentId,
        wave: event.wave,
        startedAtMs: event.startedAtMs,
        tasks: event.tasks.map((t) => ({ to: t.to, msgChars: t.msgChars, state: 'running', elapsedMs: null })),
        bundleChars: null,
        elapsedMs: null,
      };
      return [...waves.filter((w) => w.planId !== event.planId), started].slice(-PLAN_WAVES_KEPT);
    }
    case 'planTaskResolved':
      return replace(waves, event.planId, (w) => {
        // A wave may hold several tasks for one agent: the first one still running takes the outcome.
        const at = w.tasks.findIndex((t) => t.to === event.to && t.state === 'running');
        if (at < 0) return null;
        const tasks = w.tasks.map((t, i) => (i === at ? { ...t, state: event.state, elapsedMs: event.elapsedMs } : t));
        return { ...w, tasks };
      });
    case 'planWaveFinished':
      return replace(waves, event.planId, (w) => ({ ...w, bundleChars: event.bundleChars, elapsedMs: event.elapsedMs }));
    default:
      return waves;
  }
}

function replace(waves: readonly PlanWave[], planId: number, change: (w: PlanWave) => PlanWave | null): readonly PlanWave[] {
  const at = waves.findIndex((w) => w.planId === planId);
  if (at < 0) return waves;
  const next = change(waves[at]!);
  if (next === null) return waves;
  return waves.map((w, i) => (i === at ? next : w));
}
