/**
 * The writer of `serve.status.json`: one small atomic write when the state changes and every HEARTBEAT_MS on an
 * unref'd timer. Started only after the village lock is held (a refused second serve never touches the file of
 * the one that runs). A failed write is noted once in the log and retried on the next beat; the file going stale
 * is exactly what `status` should then report.
 */
import type { DiagSink } from '../../core/diag.js';
import { writeFileAtomic } from '../../core/village/atomicWrite.js';
import type { HostHealth } from './hostHealth.js';
import { HEARTBEAT_MS, serveStatusPath, type ServeState, type ServeStatusDoc } from './serveStatus.js';

/** Options of a heartbeat. */
export interface HeartbeatOptions {
  dataDir: string;
  /** The live facts (the host's `health()`). */
  health: () => HostHealth;
  diag?: DiagSink;
  intervalMs?: number;
  clock?: () => number;
}

/** Keeps the status file fresh until `stop()`. */
export class ServeHeartbeat {
  private state: ServeState = 'starting';
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private failedOnce = false;
  private readonly since: string;
  private readonly clock: () => number;

  constructor(private readonly options: HeartbeatOptions) {
    this.clock = options.clock ?? Date.now;
    this.since = new Date(this.clock()).toISOString();
  }

  /** Writes `starting` now and keeps beating. */
  start(): Promise<void> {
    this.timer ??= setInterval(() => void this.beat(), this.options.intervalMs ?? HEARTBEAT_MS);
    this.timer.unref();
    return this.beat();
  }

  /** A new state, written at once. `closing` also stops the timer (the file then ages into "unhealthy"). */
  setState(state: ServeState): Promise<void> {
    this.state = state;
    if (state === 'closing') this.stop();
    return this.beat();
  }

  /** Stops the timer (no further writes). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The document as it would be written now. */
  snapshot(): ServeStatusDoc {
    const h = this.options.health();
    return {
      format: 1,
      pid: process.pid,
      state: this.state,
      since: this.since,
      updatedAt: new Date(this.clock()).toISOString(),
      agentsRunning: h.agentsRunning,
      door: h.door,
      lastScheduleTick: h.lastScheduleTickMs === null ? null : new Date(h.lastScheduleTickMs).toISOString(),
      lastError: h.lastError === null ? null : { code: h.lastError.code, agentId: h.lastError.agentId, at: new Date(h.lastError.atMs).toISOString() },
    };
  }

  /** One write, queued behind the previous one so two never race on the temp file. */
  private beat(): Promise<void> {
    this.writing = this.writing.then(async () => {
      try {
        await writeFileAtomic(serveStatusPath(this.options.dataDir), `${JSON.stringify(this.snapshot())}\n`);
      } catch (error) {
        if (!this.failedOnce) this.options.diag?.note('serve status', { written: false, error: error instanceof Error ? error.name : 'unknown' }, 'warn');
        this.failedOnce = true;
      }
    });
    return this.writing;
  }
}
