/**
 * The adapter from the LMDB session store to the supervisor's recorder seam. Records are appended in call order
 * to the session that is current at call time; every append is tracked so `flush()` can wait until the turn record
 * of an `ask` is durable before the process exits (SPEC §6.2 step 5). A failed append is never a crash and never a
 * body: saving is "paused" from the first failure (one WARN naming the code, SESSION_STORE_FULL on a full disk, and
 * the fix) until an append commits again ("resumed", one INFO with how many records were lost meanwhile).
 */
import { diagText, type DiagSink } from '../core/diag.js';
import { isFuseforksError } from '../core/errors.js';
import type { AgentMessage, CoreEvent } from '../core/events.js';
import type { CallRecord, SessionRecordBody, TurnRecord } from '../core/sessions/records.js';
import type { SessionStore } from '../core/sessions/sessionStore.js';
import type { ToolOriginal } from '../core/jev/helperPort.js';
import type { Exchange } from '../core/turn/ports.js';
import type { SupervisorRecorder } from '../actors/recorder.js';

/** What the adapter needs besides the store. */
export interface SessionRecorderOptions {
  store: SessionStore;
  /** The session records go to now (null = nothing is recorded). */
  sessionId(): string | null;
  diag: DiagSink;
  /** `turnRecorded` goes out here once a turn record is committed. */
  emit(event: CoreEvent): void;
}

/** A SupervisorRecorder over a SessionStore, with a flush for the close path. */
export class SessionRecorder implements SupervisorRecorder {
  private readonly pending = new Set<Promise<void>>();
  private failures = 0;
  private failedSincePause = 0;
  private paused = false;

  constructor(private readonly opts: SessionRecorderOptions) {}

  /** Appends failed so far (counts only; the first failure of a run is noted once). */
  get failedAppends(): number {
    return this.failures;
  }

  /** True from a failed append until one commits again (a full disk, …). */
  get persistencePaused(): boolean {
    return this.paused;
  }

  appendMessage(message: AgentMessage): void {
    this.append({ kind: 'message', message }, null);
  }

  appendExchange(agentId: string, exchange: Exchange): void {
    this.append({ kind: 'exchange', agentId, sent: exchange.sent, replied: exchange.replied }, null);
  }

  appendToolOriginal(agentId: string, original: ToolOriginal): void {
    this.append({ kind: 'toolResult', agentId, ...original }, null);
  }

  appendTurn(record: TurnRecord): void {
    this.append({ kind: 'turn', ...record }, record.agentId);
  }

  /** A "summarize and continue" summary; resolves with its seq once committed (null when nothing is recorded). */
  async appendSummary(agentId: string, text: string, coversUpToSeq: number): Promise<number | null> {
    const sessionId = this.opts.sessionId();
    if (sessionId === null) return null;
    return this.opts.store.append(sessionId, { kind: 'summary', agentId, text, coversUpToSeq });
  }

  appendCall(record: CallRecord): void {
    this.append({ kind: 'call', ...record }, null);
  }

  /** Resolves when every append issued so far has settled (committed or failed). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private append(body: SessionRecordBody, turnOf: string | null): void {
    const sessionId = this.opts.sessionId();
    if (sessionId === null) return;
    const write = this.opts.store.append(sessionId, body).then(
      () => {
        if (this.paused) {
          this.paused = false;
          this.opts.diag.note('session store', { outcome: 'resumed', lost_records: this.failedSincePause });
          this.failedSincePause = 0;
        }
        if (turnOf !== null) this.opts.emit({ type: 'turnRecorded', agentId: turnOf, sessionId });
      },
      (error: unknown) => {
        this.failures += 1;
        this.failedSincePause += 1;
        // One WARN per failure would be noise on a full disk: note the first of each pause, count the rest.
        if (!this.paused) {
          this.paused = true;
          const known = isFuseforksError(error);
          this.opts.diag.note(
            'session store',
            { outcome: 'append_failed', kind: body.kind, code: known ? error.code : 'UNKNOWN', ...(known && error.fix ? { fix: diagText(error.fix) } : {}) },
            'warn',
          );
        }
      },
    );
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }
}
