/**
 * The one close path shared by ask, serve, the GUI and a failure during boot (SPEC §6.3 "Closing"):
 * stop new deliveries → close the door → interrupt_all → stop the started agents in parallel (grace 30 s) →
 * close MCP connections → flush the session records → close the store → close the log → release the lock.
 * Every part is optional so a half-built host closes exactly what it built. Nothing here throws: a close that
 * fails half-way would leave the village lock held by a process that thinks it is done.
 */
import type { DiagSink } from '../core/diag.js';
import type { DiagLog } from '../core/log.js';
import type { SessionStore } from '../core/sessions/sessionStore.js';
import type { Supervisor } from '../actors/supervisor.js';
import type { Closable, HostMcp } from './bootSteps.js';
import type { HealthTracker } from './health/hostHealth.js';
import type { SessionRecorder } from './sessionRecorder.js';
import type { VillageLock } from './villageLock.js';

/** Grace for stopping every agent (ms); past it the host exits anyway and says spend records may be missing. */
export const CLOSE_GRACE_MS = 30_000;

/** What a (possibly half-built) host owns. */
export interface HostParts {
  lock: VillageLock;
  log?: DiagLog | null;
  stopDeliveries?: () => Promise<void>;
  door?: Closable | null;
  mcp?: HostMcp | null;
  supervisor?: Supervisor | null;
  recorder?: SessionRecorder | null;
  sessions?: SessionStore | null;
  diag?: DiagSink;
  /** Schedule ticks and failures seen, for `health()` (serve's heartbeat). */
  health?: HealthTracker;
}

/** How a close went. `graceExceeded`: some agent did not stop in time, so spend records may be missing. */
export interface CloseReport {
  graceExceeded: boolean;
}

async function quietly(step: string, diag: DiagSink | undefined, fn: () => Promise<void> | void): Promise<void> {
  try {
    await fn();
  } catch (error) {
    diag?.note('close', { step, failed: true, error: error instanceof Error ? error.name : 'unknown' }, 'warn');
  }
}

/** Closes `parts` in the fixed order. `graceMs` bounds the agent stop. */
export async function closeHost(parts: HostParts, graceMs: number = CLOSE_GRACE_MS): Promise<CloseReport> {
  const diag = parts.log ?? parts.diag;
  let graceExceeded = false;
  await quietly('deliveries', diag, () => parts.stopDeliveries?.());
  await quietly('door', diag, () => parts.door?.close());
  const supervisor = parts.supervisor;
  if (supervisor != null) {
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
    });
    // shutdown() = interruptAll, then every started agent stopped in parallel (each joined or terminated).
    const stopped = supervisor.shutdown().then(
      () => 'done' as const,
      () => 'done' as const,
    );
    const winner = await Promise.race([stopped, grace]);
    clearTimeout(timer);
    if (winner === 'late') {
      graceExceeded = true;
      diag?.note('close', { grace_ms: graceMs, grace_exceeded: true }, 'warn');
    }
  }
  await quietly('mcp', diag, () => parts.mcp?.close());
  if (!graceExceeded) await quietly('records', diag, () => parts.recorder?.flush());
  await quietly('sessions', diag, () => parts.sessions?.close());
  await quietly('log', diag, () => parts.log?.close());
  await quietly('lock', undefined, () => parts.lock.release());
  return { graceExceeded };
}
