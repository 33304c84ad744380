/**
 * The owner's in-memory view of one session: its metadata as plain mutable fields (an append bumps two numbers
 * instead of copying the metadata object), the next seq to hand out, and the append batch of the current event
 * turn. Callers get immutable snapshots (`meta()`), rebuilt only after something changed.
 *
 * A batch is the appends to this session from one run of synchronous code: it closes in a microtask (the store
 * queues it when the first append opens the batch), so later microtasks of the same event turn open another. lmdb-js
 * commits all async writes of one event turn in one transaction, so a batch's records and the single metadata put
 * issued when it closes commit together: recordCount and the records can never tear, and a burst of appends writes
 * the metadata once. Every append of a batch settles through the batch's one promise (one reaction per append).
 */
import type { SessionMeta } from './sessionMeta.js';

/** The appends of one session within one event turn, settled together. */
export interface AppendBatch {
  /** Resolves once every write of the batch (records and metadata) committed; rejects with the store's error. */
  readonly done: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
  /** The distinct commit promises of the batch's record puts (lmdb hands one promise to a whole transaction). */
  readonly writes: Promise<boolean>[];
}

export class LiveSession {
  /** Next seq to hand out; -1 until first needed (then read from the store's last key). */
  nextSeq = -1;
  batch: AppendBatch | null = null;
  private snapshot: SessionMeta | null;
  private updatedAtMs: number;
  private recordCount: number;
  private title: string | undefined;

  constructor(private readonly base: SessionMeta) {
    this.snapshot = base;
    this.updatedAtMs = base.updatedAtMs;
    this.recordCount = base.recordCount;
    this.title = base.title;
  }

  get id(): string {
    return this.base.id;
  }

  get untitled(): boolean {
    return this.title === undefined;
  }

  /** One record more, appended at `nowMs` (updatedAtMs never goes back), giving the session `title` if it has none. */
  counted(nowMs: number, title: string | null): void {
    this.recordCount += 1;
    if (nowMs > this.updatedAtMs) this.updatedAtMs = nowMs;
    if (title !== null && this.title === undefined) this.title = title;
    this.snapshot = null;
  }

  /** The metadata as it stands (the same object until the next change). */
  meta(): SessionMeta {
    if (this.snapshot === null) {
      const meta: SessionMeta = { ...this.base, updatedAtMs: this.updatedAtMs, recordCount: this.recordCount };
      if (this.title !== undefined) meta.title = this.title;
      this.snapshot = meta;
    }
    return this.snapshot;
  }
}

/** An empty batch whose `done` is settled by its `resolve`/`reject`. */
export function newAppendBatch(): AppendBatch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { done, resolve, reject, writes: [] };
}
