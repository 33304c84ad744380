/**
 * The schedule ticker (reference/ops.md §2.3–2.4). The host constructs it only when `runSchedules` is on
 * (`createScheduleTicker` returns null otherwise), so `ask` and `check` never touch `lastConsumedDueMs`.
 *
 * Per tick, for every schedule the firing rule says `fire` for, in this order:
 * 1. target not running → consume, ONE System notice line, no probe;
 * 2. target busy (a turn in flight) → wait, nothing consumed (a wall-clock due may later fall past grace);
 * 3. its probe is still running → wait;
 * 4. probe present → consume now, then run the probe in the background; deliver only on `match`;
 * 5. otherwise → consume, then deliver.
 * Consuming is written to schedules.json BEFORE delivering, so a crash can never fire the same due twice
 * ("one judgement per due": a failed delivery is logged, not retried). A late wall-clock due is consumed silently.
 *
 * Before deciding, every tick re-anchors schedules across a wall-clock step (clockStep.ts): the timer compares the
 * wall clock with a monotonic one since its previous tick; `tickOnce` alone (no monotonic reading) still re-anchors
 * an interval whose anchor lies after now. The timer itself never stops on a step.
 */
import { nullDiagSink, type DiagSink } from '../diag.js';
import { isFuseforksError } from '../errors.js';
import { clockStep, reanchoredConsumed, type ClockReading } from './clockStep.js';
import { decide } from './due.js';
import { runApprovedProbe, type ProbeReport, type ProbeRunRequest } from './probe.js';
import type { ScheduleStore } from './scheduleStore.js';
import { recurrenceLabel, scheduledBody, stoppedTargetNotice, type ScheduleLanguage } from './scheduleText.js';
import { systemZone, type TimeZone } from './timeZone.js';
import type { ScheduledTask, ScheduleProbe, SessionMode } from './types.js';

/** Default tick period in ms (the original's 30 s). */
export const SCHEDULE_TICK_MS = 30_000;

/** What the host needs to deliver one firing as a new causal root (own budget pool, sender System, hop 0). */
export interface ScheduleFiring {
  taskId: string;
  to: string;
  /** The due being fired (ms since epoch). */
  dueMs: number;
  label: string;
  /** `【Scheduled run: {label}】\n{message}` (+ the probe appendix), in the village language. */
  body: string;
  sessionMode: SessionMode;
  summarizeAfter: boolean;
  /** Lines 2+ of the probe's stdout, when a probe matched with more output. */
  appendix?: string;
}

/** The one System → User line for a stopped target. */
export interface ScheduleNotice {
  agentId: string;
  taskId: string;
  text: string;
}

/** Everything a probe run needs besides the schedule: the shelf's gate and where `cwd: null` points. */
export interface ProbeGate {
  /** `ProbeApprovals.isApproved` bound to this village (an empty village id approves nothing). */
  isApproved(probe: ScheduleProbe): boolean;
  workspaceDir: string;
  /** Runner override (tests may shrink limits); default is the real `runProbe`. */
  run?: (request: ProbeRunRequest) => Promise<ProbeReport>;
}

/** Construction options. Times are ms since epoch; `intervalMs` is the tick period. */
export interface ScheduleTickerOptions {
  store: ScheduleStore;
  clock?: () => number;
  /** Monotonic ms from any origin (default `performance.now`); compared with `clock` to see a wall-clock step. */
  monoClock?: () => number;
  zone?: TimeZone;
  intervalMs?: number;
  language?: () => ScheduleLanguage;
  isRunning(agentId: string): boolean;
  /** True while the agent has a turn in flight (skip without consuming). Default: never busy. */
  isBusy?(agentId: string): boolean;
  agentName?(agentId: string): string | undefined;
  fire(task: ScheduledTask, firing: ScheduleFiring): Promise<void> | void;
  notice(notice: ScheduleNotice): void;
  /** Without a gate every probe is `unapproved` (consumed, never executed). */
  probes?: ProbeGate;
  diag?: DiagSink;
  /** Called after every timer tick settles (serve's heartbeat records it). */
  onTick?(nowMs: number): void;
}

/** What one tick did with a schedule (for tests and the manual "tick now"). */
export type TickAction =
  | 'fired'
  | 'fire_failed'
  | 'skipped_late'
  | 'skipped_stopped'
  | 'waiting_busy'
  | 'waiting_probe'
  | 'probe_started';

/** One entry per schedule that was acted on in a tick. */
export interface TickEntry {
  id: string;
  action: TickAction;
  dueMs: number;
}

/** Builds the ticker only when schedules run in this process (GUI, `serve`); null for `ask` and `check`. */
export function createScheduleTicker(runSchedules: boolean, options: ScheduleTickerOptions): ScheduleTicker | null {
  return runSchedules ? new ScheduleTicker(options) : null;
}

/** Decides and delivers schedules on a timer. Nothing happens until `start()` (or `tickOnce`). */
export class ScheduleTicker {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<unknown> | null = null;
  private readonly probing = new Map<string, Promise<void>>();
  private readonly clock: () => number;
  private readonly monoClock: () => number;
  private lastReading: ClockReading | null = null;
  private readonly zone: TimeZone;
  private readonly diag: DiagSink;

  constructor(private readonly options: ScheduleTickerOptions) {
    this.clock = options.clock ?? Date.now;
    this.monoClock = options.monoClock ?? (() => performance.now());
    this.zone = options.zone ?? systemZone();
    this.diag = options.diag ?? nullDiagSink;
  }

  /** Starts ticking; the first tick comes one interval after start. A tick still running swallows the next. */
  start(): void {
    if (this.timer !== undefined) return;
    this.lastReading = this.read();
    this.timer = setInterval(() => {
      if (this.ticking !== null) return;
      const reading = this.read();
      const stepMs = clockStep(this.lastReading, reading);
      this.lastReading = reading;
      const nowMs = reading.wallMs;
      this.ticking = this.tickAt(nowMs, stepMs).finally(() => {
        this.ticking = null;
        this.options.onTick?.(nowMs);
      });
    }, this.options.intervalMs ?? SCHEDULE_TICK_MS);
    this.timer.unref();
  }

  /** Stops the timer and waits for a running tick and running probes to finish. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
    await this.idle();
  }

  /** Resolves when every background probe (and its delivery) has finished. */
  async idle(): Promise<void> {
    while (this.probing.size > 0) await Promise.all(this.probing.values());
  }

  /** One tick at `nowMs`: decide every schedule and act. Probes continue in the background (see `idle`). */
  async tickOnce(nowMs: number = this.clock()): Promise<TickEntry[]> {
    return this.tickAt(nowMs, 0);
  }

  private read(): ClockReading {
    return { wallMs: this.clock(), monoMs: this.monoClock() };
  }

  /** A tick after a wall-clock step of `stepMs` (0 = none seen): re-anchor first, then decide. */
  private async tickAt(nowMs: number, stepMs: number): Promise<TickEntry[]> {
    const { store } = this.options;
    if (stepMs !== 0) this.diag.note('schedule clock', { stepped_ms: stepMs }, 'warn');
    for (const task of store.list()) {
      const anchor = reanchoredConsumed(task, stepMs, nowMs, this.zone);
      if (anchor === null) continue;
      await store.consume(task.id, anchor);
      this.diag.note('schedule', { id: task.id, reanchored: anchor, stepped_ms: stepMs });
    }
    const entries: TickEntry[] = [];
    for (const task of store.list()) {
      const decision = decide(task, nowMs, this.zone);
      if (decision.kind === 'wait') continue;
      const dueMs = decision.dueMs;
      if (decision.kind === 'skip') {
        await store.consume(task.id, dueMs);
        this.diag.note('schedule', { id: task.id, consumed: dueMs, fired: false, reason: decision.reason });
        entries.push({ id: task.id, action: 'skipped_late', dueMs });
        continue;
      }
      entries.push({ id: task.id, action: await this.onFire(task, dueMs), dueMs });
    }
    return entries;
  }

  private async onFire(task: ScheduledTask, dueMs: number): Promise<TickAction> {
    const { store } = this.options;
    if (!this.options.isRunning(task.to)) {
      await store.consume(task.id, dueMs);
      const text = stoppedTargetNotice(task, this.options.agentName?.(task.to), this.language());
      this.options.notice({ agentId: task.to, taskId: task.id, text });
      this.diag.note('schedule', { id: task.id, consumed: dueMs, fired: false, reason: 'stopped', to: task.to });
      return 'skipped_stopped';
    }
    if (this.options.isBusy?.(task.to) === true) return 'waiting_busy';
    if (this.probing.has(task.id)) return 'waiting_probe';
    await store.consume(task.id, dueMs);
    if (task.probe !== undefined) {
      const run = this.probeThenDeliver(task, task.probe, dueMs).finally(() => this.probing.delete(task.id));
      this.probing.set(task.id, run);
      return 'probe_started';
    }
    return this.deliver(task, dueMs, undefined);
  }

  private async probeThenDeliver(task: ScheduledTask, probe: ScheduleProbe, dueMs: number): Promise<void> {
    const gate = this.options.probes;
    const report = await runApprovedProbe({
      taskId: task.id,
      probe,
      approved: gate?.isApproved(probe) ?? false,
      workspaceDir: gate?.workspaceDir ?? process.cwd(),
      language: this.language(),
      diag: this.diag,
      ...(gate?.run === undefined ? {} : { run: gate.run }),
    });
    if (report.outcome === 'match') await this.deliver(task, dueMs, report.appendix);
  }

  private async deliver(task: ScheduledTask, dueMs: number, appendix: string | undefined): Promise<TickAction> {
    const language = this.language();
    const firing: ScheduleFiring = {
      taskId: task.id,
      to: task.to,
      dueMs,
      label: recurrenceLabel(task.recurrence, language),
      body: scheduledBody(task, language, appendix),
      sessionMode: task.sessionMode ?? 'continue',
      summarizeAfter: task.summarizeAfter ?? false,
    };
    if (appendix !== undefined) firing.appendix = appendix;
    try {
      await this.options.fire(task, firing);
      this.diag.note('schedule', { id: task.id, consumed: dueMs, fired: true, to: task.to });
      return 'fired';
    } catch (error) {
      // The due is already consumed: one judgement per due, so this is logged and not retried.
      const code = isFuseforksError(error) ? error.code : 'BUG';
      this.diag.note('schedule', { id: task.id, consumed: dueMs, fired: false, reason: code, to: task.to }, 'warn');
      return 'fire_failed';
    }
  }

  private language(): ScheduleLanguage {
    return this.options.language?.() ?? 'ja';
  }
}
