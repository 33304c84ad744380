/**
 * The schedules of one village (`workspace/schedules.json`, reference/ops.md §2.1). The in-memory list is
 * authoritative and the file is its projection, written atomically after every change. Opening never writes.
 *
 * A file that cannot be read as a whole leaves the village with no schedules and BLOCKS the store: every write
 * refuses with SCHEDULE_STORE_BLOCKED naming the file and position, so a file a person can fix is never
 * overwritten. Consuming a due while blocked still updates memory (no double fire in this process).
 * Writes run one at a time (the ticker and the UI both write).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { diagText, nullDiagSink, type DiagSink } from '../diag.js';
import { writeFileAtomic } from '../village/atomicWrite.js';
import { parseScheduleFile, renderScheduleFile, type FileBlock, type FileRow, type FileShape } from './scheduleFile.js';
import { validateSchedule } from './scheduleRow.js';

/** What to do about a schedules.json the runtime cannot read (it is never overwritten meanwhile). */
const BLOCKED_FIX = 'fix schedules.json by hand so it parses; until then no schedule runs and schedule edits are refused';
import type { Recurrence, ScheduledTask, ScheduleProbe, SessionMode } from './types.js';
import { scheduleInvalid, scheduleNotFound, scheduleStoreBlocked } from '../errors/scheduleErrors.js';
import { scheduleTargetNotFound } from '../errors/worldErrors.js';

/** What it takes to open the store. `agentExists` drops rows whose target is gone (omit to keep all). */
export interface ScheduleStoreOptions {
  /** Absolute path of schedules.json (`villagePaths(dataDir).schedules`). */
  file: string;
  agentExists?: (agentId: string) => boolean;
  diag?: DiagSink;
}

/** Why the store refuses writes: the file and the first problem's 1-based line:column. */
export interface ScheduleStoreBlock extends FileBlock {
  file: string;
}

/** Input of `add`: everything a person chooses; id, createdAtMs and lastConsumedDueMs are filled in. */
export interface NewSchedule {
  to: string;
  message: string;
  recurrence: Recurrence;
  enabled?: boolean;
  probe?: ScheduleProbe;
  sessionMode?: SessionMode;
  summarizeAfter?: boolean;
}

/** Fields `update` may change (`probe: null` removes the probe). */
export type SchedulePatch = Partial<Omit<NewSchedule, 'probe'>> & { probe?: ScheduleProbe | null };

function copy(task: ScheduledTask): ScheduledTask {
  return structuredClone(task);
}

/** The loaded schedules plus the write path. Create with `ScheduleStore.open`. */
export class ScheduleStore {
  private rows: FileRow[];
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly file: string,
    private readonly shape: FileShape,
    rows: FileRow[],
    /** Non-null when the file could not be read as a whole: writes refuse. */
    readonly blocked: ScheduleStoreBlock | null,
    private readonly diag: DiagSink,
  ) {
    this.rows = rows;
  }

  /** Reads the file (missing = no schedules, writable). Bad rows and rows with a missing target are noted. */
  static async open(options: ScheduleStoreOptions): Promise<ScheduleStore> {
    const diag = options.diag ?? nullDiagSink;
    let text: string;
    try {
      text = await readFile(options.file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return new ScheduleStore(options.file, { kind: 'array' }, [], null, diag);
      const block = { file: options.file, line: 0, column: 0, reason: `cannot read the file (${code ?? 'error'})` };
      diag.note('schedule', { blocked: diagText(options.file), line: 0, column: 0, reason: diagText(block.reason), fix: diagText(BLOCKED_FIX) }, 'error');
      return new ScheduleStore(options.file, { kind: 'array' }, [], block, diag);
    }
    const parsed = parseScheduleFile(text);
    if (!parsed.ok) {
      const block = { file: options.file, ...parsed.block };
      diag.note('schedule', { blocked: diagText(options.file), line: block.line, column: block.column, reason: diagText(block.reason), fix: diagText(BLOCKED_FIX) }, 'error');
      return new ScheduleStore(options.file, { kind: 'array' }, [], block, diag);
    }
    for (const d of parsed.dropped) {
      diag.note('schedule', { file: diagText(options.file), dropped_row: d.index, id: d.id, field: d.problem.field, reason: diagText(d.problem.message), fix: diagText(`correct ${d.problem.field} of row ${d.index + 1} in the GUI or in the file`) }, 'warn');
    }
    const rows = parsed.rows.filter((row) => {
      if (row.kind !== 'task' || options.agentExists === undefined || options.agentExists(row.task.to)) return true;
      diag.note('schedule', { dropped_row: parsed.rows.indexOf(row), id: row.task.id, reason: 'target agent missing', to: row.task.to }, 'warn');
      return false;
    });
    return new ScheduleStore(options.file, parsed.shape, rows, null, diag);
  }

  /** Copies of every loaded schedule, in file order. */
  list(): ScheduledTask[] {
    return this.rows.flatMap((row) => (row.kind === 'task' ? [copy(row.task)] : []));
  }

  /** A copy of one schedule, or undefined. */
  get(id: string): ScheduledTask | undefined {
    const row = this.find(id);
    return row === undefined ? undefined : copy(row.task);
  }

  /** Creates a schedule; `agentExists` (when given) must know the target — a stopped agent is fine. */
  async add(input: NewSchedule, opts: { nowMs: number; agentExists?: (id: string) => boolean }): Promise<ScheduledTask> {
    const task: ScheduledTask = {
      id: randomUUID(),
      to: input.to,
      message: input.message,
      recurrence: input.recurrence,
      createdAtMs: opts.nowMs,
      lastConsumedDueMs: null,
      enabled: input.enabled ?? true,
    };
    if (input.probe !== undefined) task.probe = input.probe;
    if (input.sessionMode !== undefined) task.sessionMode = input.sessionMode;
    if (input.summarizeAfter !== undefined) task.summarizeAfter = input.summarizeAfter;
    this.check(task, opts.agentExists);
    await this.mutate((rows) => [...rows, { kind: 'task', task, raw: {} }]);
    return copy(task);
  }

  /** Changes chosen fields of one schedule (the due bookkeeping and unknown keys stay). */
  async update(id: string, patch: SchedulePatch, opts: { agentExists?: (id: string) => boolean } = {}): Promise<ScheduledTask> {
    const task = copy(this.require(id).task);
    for (const key of ['to', 'message', 'recurrence', 'enabled', 'sessionMode', 'summarizeAfter'] as const) {
      if (patch[key] !== undefined) Object.assign(task, { [key]: patch[key] });
    }
    if (patch.probe === null) delete task.probe;
    else if (patch.probe !== undefined) task.probe = patch.probe;
    this.check(task, opts.agentExists);
    const { recurrence, to, message, enabled, probe, sessionMode, summarizeAfter } = task;
    // Re-applied to the rows current at commit time, so a due consumed meanwhile is kept.
    await this.mutate((rows) =>
      rows.map((r) => {
        if (r.kind !== 'task' || r.task.id !== id) return r;
        const next: ScheduledTask = { ...r.task, recurrence, to, message, enabled };
        delete next.probe;
        delete next.sessionMode;
        delete next.summarizeAfter;
        if (probe !== undefined) next.probe = probe;
        if (sessionMode !== undefined) next.sessionMode = sessionMode;
        if (summarizeAfter !== undefined) next.summarizeAfter = summarizeAfter;
        return { ...r, task: next };
      }),
    );
    return this.get(id) ?? task;
  }

  /** Deletes one schedule. */
  async remove(id: string): Promise<void> {
    this.require(id);
    await this.mutate((rows) => rows.filter((r) => r.kind !== 'task' || r.task.id !== id));
  }

  /** Pauses (enabled=false) or resumes one schedule. Nothing is consumed: resuming evaluates the current due. */
  async setEnabled(id: string, enabled: boolean): Promise<ScheduledTask> {
    return this.update(id, { enabled });
  }

  /**
   * Deletes every schedule of a deleted agent. Memory always changes, even while blocked (the schedules must not
   * fire); the file is written only when not blocked. Returns how many were removed.
   */
  async removeForAgent(agentId: string): Promise<number> {
    const before = this.rows.length;
    this.rows = this.rows.filter((r) => r.kind !== 'task' || r.task.to !== agentId);
    const removed = before - this.rows.length;
    if (removed > 0 && this.blocked === null) await this.serial(() => this.write(this.rows));
    return removed;
  }

  /**
   * Records `dueMs` as consumed (fired or skipped). Memory first, so this process never fires the due twice;
   * then the atomic write unless blocked. Returns true once the file holds it.
   */
  async consume(id: string, dueMs: number): Promise<boolean> {
    if (this.find(id) === undefined) return false;
    this.rows = this.rows.map((r) =>
      r.kind === 'task' && r.task.id === id ? { ...r, task: { ...r.task, lastConsumedDueMs: dueMs } } : r,
    );
    if (this.blocked !== null) return false;
    try {
      await this.serial(() => this.write(this.rows));
      return true;
    } catch (error) {
      this.diag.note('schedule', { id, save_failed: (error as NodeJS.ErrnoException).code ?? 'error' }, 'error');
      return false;
    }
  }

  private find(id: string): Extract<FileRow, { kind: 'task' }> | undefined {
    for (const row of this.rows) if (row.kind === 'task' && row.task.id === id) return row;
    return undefined;
  }

  private require(id: string): Extract<FileRow, { kind: 'task' }> {
    this.refuseIfBlocked();
    const row = this.find(id);
    if (row === undefined) {
      throw scheduleNotFound(id, this.file, false);
    }
    return row;
  }

  private check(task: ScheduledTask, agentExists: ((id: string) => boolean) | undefined): void {
    this.refuseIfBlocked();
    const problem = validateSchedule(task);
    if (problem !== null) {
      throw scheduleInvalid(problem.field, problem.message);
    }
    if (agentExists !== undefined && !agentExists(task.to)) {
      throw scheduleTargetNotFound(task.to);
    }
  }

  private refuseIfBlocked(): void {
    const b = this.blocked;
    if (b === null) return;
    throw scheduleStoreBlocked(b.file, b.line, b.column, b.reason);
  }

  /**
   * Applies `change` to the file, then to memory. `change` runs again on the rows current after the write, so a
   * due consumed while the write was under way survives; a failed write leaves memory untouched.
   */
  private mutate(change: (rows: readonly FileRow[]) => FileRow[]): Promise<void> {
    return this.serial(async () => {
      this.refuseIfBlocked();
      await this.write(change(this.rows));
      this.rows = change(this.rows);
    });
  }

  /** Runs jobs one at a time, in call order. */
  private serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Renders at run time, so a queued write always carries the newest rows. */
  private write(rows: readonly FileRow[]): Promise<void> {
    return writeFileAtomic(this.file, renderScheduleFile(this.shape, rows));
  }
}
