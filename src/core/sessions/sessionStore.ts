/**
 * The session store on LMDB: one env (`workspace/sessions.mdb`), two named dbs — `sessions` (id → meta) and
 * `records` ([sessionId, seq] → record, msgpack). Opened only through `openSessionStore`, which holds the
 * store's own exclusive OS lock, so this process is the only writer: that is what makes the in-memory meta
 * and next-seq caches authoritative.
 *
 * Writes: an append issues its record put at once and joins its session's open batch, which puts the metadata once
 * when it closes in a microtask (liveSession.ts); lmdb-js commits every async write of one event turn in one
 * transaction — records and recordCount can never tear. (lmdb's async
 * `transaction(cb)` is not used: on this stack its callback never ran.) Fork and delete use `transactionSync`.
 * Reads validate every value; anything malformed or from a future version is skipped and counted.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Database, RootDatabase } from 'lmdb';
import type { ExclusiveLock } from '../exclusiveLock.js';
import {
  checkRecord,
  countSkip,
  emptySkipCounts,
  stampRecord,
  type SeqRecord,
  type SessionRecordBody,
  type SkipCounts,
} from './records.js';
import { checkMeta, newSessionId, titleFrom, type SessionMeta } from './sessionMeta.js';
import { LiveSession, newAppendBatch, type AppendBatch } from './liveSession.js';
import { DEFAULT_HISTORY_TURNS, DEFAULT_LOG_CAPACITY, foldRestore, type RestoredSession, type RestoreLimits } from './restoreFold.js';
import { exportLines } from './exportLines.js';
import { sessionIdNotFileName } from '../errors/configErrors.js';
import { forkSeqNotFound, isDiskFull, sessionNotFound, sessionStoreFull, sessionWriteFailed } from '../errors/sessionErrors.js';
import type { FuseforksError } from '../errors.js';
import { makePrivateDirSync, PRIVATE_FILE_MODE } from '../privateFiles.js';

type RecordKey = [string, number];
const SEQ_MAX = Number.MAX_SAFE_INTEGER;
const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Records read back from one session, plus what was skipped. */
export interface RecordsRead {
  records: SeqRecord[];
  skipped: SkipCounts;
}

/** Result of an export: the file written and the number of records in it. */
export interface ExportResult {
  path: string;
  records: number;
  skipped: SkipCounts;
}

/** SESSION_NOT_FOUND for `id` (the factory is in the error catalogue; the CLI reads it from here). */
export { sessionNotFound };

/** lmdb attaches a second promise (`commitError`) to failed commits; left alone it becomes an unhandled rejection. */
function swallowCommitError(error: unknown): void {
  const second = (error as { commitError?: unknown } | null)?.commitError;
  if (second instanceof Promise) second.catch(() => undefined);
}

/** A record could not be written: SESSION_STORE_FULL for a full disk, else SESSION_STORE_FAILED. */
function sessionSaveFailed(id: string, cause: unknown, diskFull = isDiskFull(cause)): FuseforksError {
  return diskFull ? sessionStoreFull(id, cause) : sessionWriteFailed(id, cause);
}

/**
 * Whether a failed commit was a full disk: lmdb keeps the errno on `commitError`, a promise settled by its write
 * thread's callback. Waited for at most 2 s (never holding the append longer), then it is a plain failure.
 */
async function commitDiskFull(error: unknown): Promise<boolean> {
  if (isDiskFull(error)) return true;
  const second = (error as { commitError?: unknown } | null)?.commitError;
  if (!(second instanceof Promise)) return false;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), 2_000);
    timer.unref();
  });
  const read = second.then(() => false, (cause: unknown) => isDiskFull(cause));
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}

export class SessionStore {
  private readonly live = new Map<string, LiveSession>();
  private closed = false;

  /** Use `openSessionStore`; this constructor assumes the lock is held and the dbs are open. */
  constructor(
    readonly workspaceDir: string,
    private readonly env: RootDatabase,
    private readonly sessionsDb: Database<unknown, string>,
    private readonly recordsDb: Database<unknown, RecordKey>,
    private readonly lock: ExclusiveLock,
    private readonly now: () => number = Date.now,
  ) {
    for (const { value } of sessionsDb.getRange({})) {
      const meta = checkMeta(value);
      if (meta !== null) this.live.set(meta.id, new LiveSession(meta));
    }
  }

  /** Creates an empty session and returns its meta. */
  async create(): Promise<SessionMeta> {
    const t = this.now();
    let id = newSessionId(t);
    while (this.live.has(id)) id = newSessionId(t);
    const meta: SessionMeta = { id, createdAtMs: t, updatedAtMs: t, recordCount: 0 };
    const session = new LiveSession(meta);
    session.nextSeq = 0;
    this.live.set(id, session);
    await this.commit(id, [this.sessionsDb.put(id, meta)]);
    return meta;
  }

  /** The session with the highest updatedAtMs, or a new one when there is none. */
  async continueLatest(): Promise<SessionMeta> {
    return this.list()[0] ?? (await this.create());
  }

  /** The meta of `id`; throws SESSION_NOT_FOUND. */
  open(id: string): SessionMeta {
    return this.session(id).meta();
  }

  /** All sessions, latest (highest updatedAtMs) first. */
  list(): SessionMeta[] {
    return [...this.live.values()].map((s) => s.meta()).sort((a, b) => b.updatedAtMs - a.updatedAtMs || (a.id < b.id ? 1 : -1));
  }

  /**
   * Appends one record; resolves with its seq once the commit is durable. Record and meta (recordCount,
   * updatedAtMs, auto-title) commit together. Rejects with SESSION_NOT_FOUND, or SESSION_STORE_FAILED when the
   * record cannot be written or its commit failed (the session's caches are then reloaded from disk).
   */
  append(id: string, body: SessionRecordBody): Promise<number> {
    const session = this.live.get(id);
    if (session === undefined) return Promise.reject(sessionNotFound(id));
    const seq = session.nextSeq >= 0 ? session.nextSeq : this.storedNextSeq(id);
    let write: Promise<boolean>;
    try {
      // lmdb encodes the value here; a value it cannot encode throws before anything is counted.
      write = this.recordsDb.put([id, seq], stampRecord(body));
    } catch (error) {
      return Promise.reject(sessionSaveFailed(id, error));
    }
    session.nextSeq = seq + 1;
    session.counted(this.now(), session.untitled ? titleFrom(body) : null);
    // The hot path of every turn (bench/sessions/append.bench.mjs): appends made together share one batch, one
    // metadata put when it closes and one promise to settle on; each append adds one reaction.
    const batch = session.batch ?? this.openBatch(session);
    const { writes } = batch;
    if (writes.length === 0 || writes[writes.length - 1] !== write) writes.push(write);
    return batch.done.then(() => seq);
  }

  /** Opens a batch for the session; it closes in a microtask, after the synchronous code that opened it. */
  private openBatch(session: LiveSession): AppendBatch {
    const batch = newAppendBatch();
    session.batch = batch;
    queueMicrotask(() => {
      session.batch = null;
      this.closeBatch(session, batch);
    });
    return batch;
  }

  /** Writes the session's metadata once for the whole batch (same lmdb transaction), then settles the batch. */
  private closeBatch(session: LiveSession, batch: AppendBatch): void {
    const { writes } = batch;
    if (this.live.get(session.id) === session) {
      try {
        writes.push(this.sessionsDb.put(session.id, session.meta()));
      } catch (error) {
        writes.push(Promise.reject(error));
      }
    }
    this.commit(session.id, writes).then(batch.resolve, batch.reject);
    // lmdb starts the next event-turn batch from a setImmediate with a commit promise of its own that no put returns;
    // when that commit fails (a full disk) nothing would handle it and Node would end the process. Ours runs after
    // lmdb's, so `committed` is that promise here.
    setImmediate(() => {
      void this.recordsDb.committed.then(undefined, swallowCommitError);
    });
  }

  /** Records of `id` in ascending seq within [fromSeq, toSeq] (inclusive), validated. */
  records(id: string, fromSeq = 0, toSeq = SEQ_MAX): RecordsRead {
    this.session(id);
    const skipped = emptySkipCounts();
    const records: SeqRecord[] = [];
    for (const { key, value } of this.recordsDb.getRange({ start: [id, fromSeq], end: [id, toSeq + 1] })) {
      const check = checkRecord(value);
      if (check.ok) records.push({ ...check.record, seq: key[1] });
      else countSkip(skipped, check.reason);
    }
    return { records, skipped };
  }

  /** Highest stored seq of `id`, or null when it has no records. */
  lastSeq(id: string): number | null {
    this.session(id);
    for (const key of this.recordsDb.getKeys({ start: [id, SEQ_MAX], end: [id, -1], reverse: true, limit: 1 })) {
      return key[1];
    }
    return null;
  }

  /**
   * The highest seq handed out for `id`, committed or not (null when it has none): a boundary taken before
   * anything else is written (summaries). Unlike `lastSeq`, it counts appends still on their way to disk.
   */
  lastAssignedSeq(id: string): number | null {
    const session = this.session(id);
    const seq = (session.nextSeq >= 0 ? session.nextSeq : this.storedNextSeq(id)) - 1;
    return seq < 0 ? null : seq;
  }

  /**
   * Copies the records of `id` with seq ≤ atSeq (original seq numbers kept, so coversUpToSeq stays valid) into
   * a new session, in one transaction. The source is untouched. Throws SESSION_NOT_FOUND for an unknown id or
   * a seq the session does not have.
   */
  async fork(id: string, atSeq: number): Promise<SessionMeta> {
    const source = this.open(id);
    await this.recordsDb.committed;
    const last = this.lastSeq(id);
    if (!Number.isInteger(atSeq) || atSeq < 0 || last === null || atSeq > last) {
      throw forkSeqNotFound(id, atSeq, last ?? null);
    }
    const t = this.now();
    let newId = newSessionId(t);
    while (this.live.has(newId)) newId = newSessionId(t);
    const meta: SessionMeta = { id: newId, createdAtMs: t, updatedAtMs: t, recordCount: 0, forkedFrom: { sessionId: id, atSeq } };
    if (source.title !== undefined) meta.title = source.title;
    this.env.transactionSync(() => {
      for (const { key, value } of this.recordsDb.getRange({ start: [id, 0], end: [id, atSeq + 1] })) {
        this.recordsDb.putSync([newId, key[1]], value);
        meta.recordCount += 1;
      }
      this.sessionsDb.putSync(newId, meta);
    });
    const session = new LiveSession(meta);
    session.nextSeq = atSeq + 1;
    this.live.set(newId, session);
    return meta;
  }

  /** Removes a session and all its records in one transaction. Unknown id → false (a no-op, not an error). */
  async delete(id: string): Promise<boolean> {
    if (!this.live.has(id)) return false;
    await this.recordsDb.committed;
    this.env.transactionSync(() => {
      for (const key of this.recordsDb.getKeys({ start: [id, 0], end: [id, SEQ_MAX] })) this.recordsDb.removeSync(key);
      this.sessionsDb.removeSync(id);
    });
    this.live.delete(id);
    return true;
  }

  /**
   * Writes `exports/{id}.jsonl` atomically (temp file + rename): a header line `{"session":{…meta}}` (no
   * `kind`, so a grep for a kind never matches it) then one `{"seq":N,"kind":…,…}` line per valid record.
   */
  exportJsonl(id: string): ExportResult {
    const meta = this.open(id);
    if (!SAFE_ID.test(id)) {
      throw sessionIdNotFileName(id);
    }
    const { records, skipped } = this.records(id);
    const dir = path.join(this.workspaceDir, 'exports');
    makePrivateDirSync(dir);
    const target = path.join(dir, `${id}.jsonl`);
    const temp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(temp, exportLines(meta, records), { mode: PRIVATE_FILE_MODE });
    fs.renameSync(temp, target);
    return { path: target, records: records.length, skipped };
  }

  /** What a village needs to resume `id`: message tail, per-agent histories (from exchanges), summaries, counts. */
  restore(id: string, limits: Partial<RestoreLimits> = {}): RestoredSession {
    const { records, skipped } = this.records(id);
    return foldRestore(
      records,
      { logCapacity: limits.logCapacity ?? DEFAULT_LOG_CAPACITY, historyTurns: limits.historyTurns ?? DEFAULT_HISTORY_TURNS },
      skipped,
    );
  }

  /** Waits for pending commits, closes the env, then releases the store lock. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.env.close();
    } finally {
      this.lock.release();
    }
  }

  private session(id: string): LiveSession {
    const session = this.live.get(id);
    if (session === undefined) throw sessionNotFound(id);
    return session;
  }

  /** The seq after the last stored one (a session loaded from disk learns it on its first append). */
  private storedNextSeq(id: string): number {
    const last = this.lastSeq(id);
    return last === null ? 0 : last + 1;
  }

  private async commit(id: string, writes: Promise<boolean>[]): Promise<void> {
    try {
      await Promise.all(writes);
      return; // the common case: no per-write settlement objects
    } catch {
      // fall through: settle every write so each rejection is handled, then report the first
    }
    const results = await Promise.allSettled(writes);
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    failures.forEach(swallowCommitError);
    if (failures.length > 0) {
      const cause = failures[0];
      // The caches ran ahead of the disk: reload this session's truth before anyone appends again.
      const stored = checkMeta(this.sessionsDb.get(id));
      if (stored === null) this.live.delete(id);
      else this.live.set(id, new LiveSession(stored));
      throw sessionSaveFailed(id, cause, await commitDiskFull(cause));
    }
  }
}
