/**
 * The session store on LMDB: one env (`workspace/sessions.mdb`), two named dbs — `sessions` (id → meta) and
 * `records` ([sessionId, seq] → record, msgpack). Opened only through `openSessionStore`, which holds the
 * store's own exclusive OS lock, so this process is the only writer: that is what makes the in-memory meta
 * and next-seq caches authoritative.
 *
 * Writes: an append issues the record put and the meta put in the same event turn, and lmdb-js commits every
 * async write of one event turn in one transaction — record and recordCount can never tear. (lmdb's async
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
import { DEFAULT_HISTORY_TURNS, DEFAULT_LOG_CAPACITY, foldRestore, type RestoredSession, type RestoreLimits } from './restoreFold.js';
import { exportLines } from './exportLines.js';
import { sessionIdNotFileName } from '../errors/configErrors.js';
import { forkSeqNotFound, sessionNotFound, sessionSaveFailed } from '../errors/sessionErrors.js';

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

export class SessionStore {
  private readonly metas = new Map<string, SessionMeta>();
  private readonly metaWrites = new Map<string, Promise<boolean>>();
  private readonly nextSeqs = new Map<string, number>();
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
      if (meta !== null) this.metas.set(meta.id, meta);
    }
  }

  /** Creates an empty session and returns its meta. */
  async create(): Promise<SessionMeta> {
    const t = this.now();
    let id = newSessionId(t);
    while (this.metas.has(id)) id = newSessionId(t);
    const meta: SessionMeta = { id, createdAtMs: t, updatedAtMs: t, recordCount: 0 };
    this.metas.set(id, meta);
    this.nextSeqs.set(id, 0);
    await this.commit(id, [this.sessionsDb.put(id, meta)]);
    return meta;
  }

  /** The session with the highest updatedAtMs, or a new one when there is none. */
  async continueLatest(): Promise<SessionMeta> {
    return this.list()[0] ?? (await this.create());
  }

  /** The meta of `id`; throws SESSION_NOT_FOUND. */
  open(id: string): SessionMeta {
    const meta = this.metas.get(id);
    if (meta === undefined) throw sessionNotFound(id);
    return meta;
  }

  /** All sessions, latest (highest updatedAtMs) first. */
  list(): SessionMeta[] {
    return [...this.metas.values()].sort((a, b) => b.updatedAtMs - a.updatedAtMs || (a.id < b.id ? 1 : -1));
  }

  /**
   * Appends one record; resolves with its seq once the commit is durable. Record and meta (recordCount,
   * updatedAtMs, auto-title) commit together. Throws SESSION_NOT_FOUND, or SESSION_STORE_FAILED on a
   * failed commit (the caches are then reloaded from disk).
   */
  append(id: string, body: SessionRecordBody): Promise<number> {
    let meta: SessionMeta;
    try {
      meta = this.open(id);
    } catch (error) {
      return Promise.reject(error);
    }
    const seq = this.nextSeq(id);
    const next: SessionMeta = { ...meta, updatedAtMs: Math.max(this.now(), meta.updatedAtMs), recordCount: meta.recordCount + 1 };
    if (meta.title === undefined) {
      const title = titleFrom(body);
      if (title !== null) next.title = title;
    }
    this.metas.set(id, next);
    this.nextSeqs.set(id, seq + 1);
    // Same event turn → same lmdb transaction, so the record and its session's metadata commit together; the
    // metadata is written once per session per turn (a burst of appends would otherwise rewrite it each time).
    // The happy path costs two reactions per append (no async frames, no Promise.all): this is the hot path of
    // every turn, measured against a raw put loop in bench/sessions/append.bench.mjs.
    const record = this.recordsDb.put([id, seq], stampRecord(body));
    const metaWrite = this.metaWriteThisTurn(id);
    return record.then(
      () => metaWrite.then(
        () => seq,
        () => this.commit(id, [record, metaWrite]).then(() => seq),
      ),
      () => this.commit(id, [record, metaWrite]).then(() => seq),
    );
  }

  /** One metadata put per session per event turn, issued at the end of the current microtask queue. */
  private metaWriteThisTurn(id: string): Promise<boolean> {
    let pending = this.metaWrites.get(id);
    if (pending === undefined) {
      pending = new Promise<boolean>((resolve, reject) => {
        queueMicrotask(() => {
          this.metaWrites.delete(id);
          const meta = this.metas.get(id);
          if (meta === undefined) return resolve(true); // deleted meanwhile
          try {
            this.sessionsDb.put(id, meta).then(resolve, reject);
          } catch (error) {
            reject(error);
          }
        });
      });
      this.metaWrites.set(id, pending);
    }
    return pending;
  }

  /** Records of `id` in ascending seq within [fromSeq, toSeq] (inclusive), validated. */
  records(id: string, fromSeq = 0, toSeq = SEQ_MAX): RecordsRead {
    this.open(id);
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
    this.open(id);
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
    this.open(id);
    const seq = this.nextSeq(id) - 1;
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
    while (this.metas.has(newId)) newId = newSessionId(t);
    const meta: SessionMeta = { id: newId, createdAtMs: t, updatedAtMs: t, recordCount: 0, forkedFrom: { sessionId: id, atSeq } };
    if (source.title !== undefined) meta.title = source.title;
    this.env.transactionSync(() => {
      for (const { key, value } of this.recordsDb.getRange({ start: [id, 0], end: [id, atSeq + 1] })) {
        this.recordsDb.putSync([newId, key[1]], value);
        meta.recordCount += 1;
      }
      this.sessionsDb.putSync(newId, meta);
    });
    this.metas.set(newId, meta);
    this.nextSeqs.set(newId, atSeq + 1);
    return meta;
  }

  /** Removes a session and all its records in one transaction. Unknown id → false (a no-op, not an error). */
  async delete(id: string): Promise<boolean> {
    if (!this.metas.has(id)) return false;
    await this.recordsDb.committed;
    this.env.transactionSync(() => {
      for (const key of this.recordsDb.getKeys({ start: [id, 0], end: [id, SEQ_MAX] })) this.recordsDb.removeSync(key);
      this.sessionsDb.removeSync(id);
    });
    this.metas.delete(id);
    this.nextSeqs.delete(id);
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
    fs.mkdirSync(dir, { recursive: true });
    const target = path.join(dir, `${id}.jsonl`);
    const temp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(temp, exportLines(meta, records));
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

  private nextSeq(id: string): number {
    let seq = this.nextSeqs.get(id);
    if (seq === undefined) {
      const last = this.lastSeq(id);
      seq = last === null ? 0 : last + 1;
    }
    return seq;
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
      this.nextSeqs.delete(id);
      const stored = checkMeta(this.sessionsDb.get(id));
      if (stored === null) this.metas.delete(id);
      else this.metas.set(id, stored);
      throw sessionSaveFailed(id, cause);
    }
  }
}
