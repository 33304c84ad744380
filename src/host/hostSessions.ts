/**
 * The host's view of conversations: which session is current, and the per-agent histories restored from it
 * (from `exchange` records only, via the store's restore fold). An agent's first start reads from here; switching
 * sessions replaces every agent's conversation, running or not, and the message ring (`switched`, the supervisor's
 * `switchConversation`) before `conversationCleared` and `sessionSwitched` go out.
 */
import type { AgentMessage } from '../core/events.js';
import type { DiagSink } from '../core/diag.js';
import type { CoreEvent } from '../core/events.js';
import type { RestoredSession } from '../core/sessions/restoreFold.js';
import type { SessionStore } from '../core/sessions/sessionStore.js';
import type { SessionOpenedCounts } from '../core/startupBand.js';
import type { Exchange } from '../core/turn/ports.js';

/** What an agent gets on start: its history window and its newest summary. */
export interface AgentRestore {
  history: Exchange[];
  summary: string | null;
}

/** Hands a switched-to conversation to the running village: each agent's restore, and the tail of its messages. */
export type ConversationSwitch = (restoreFor: (agentId: string) => AgentRestore, logTail: readonly AgentMessage[]) => void;

/** Which session a boot opens: the latest (GUI, serve, `ask --continue-session`) or a new one (`ask`). */
export type BootSession = 'latest' | 'new';

/** The current session and its restored state; a no-op shell when the village runs without a store. */
export class HostSessions {
  private current: string | null = null;
  private restored: RestoredSession | null = null;

  constructor(
    readonly store: SessionStore | null,
    private readonly diag: DiagSink,
    private readonly emit: (event: CoreEvent) => void,
    private readonly switched: ConversationSwitch = () => undefined,
  ) {}

  /** The current session id, or null without a store. */
  currentId(): string | null {
    return this.current;
  }

  /** Opens the boot session; returns the counts for the startup band's `session opened` line (null: no store). */
  async openAtBoot(mode: BootSession, agentIds: ReadonlySet<string>): Promise<SessionOpenedCounts | null> {
    if (this.store === null) return null;
    const meta = mode === 'new' ? await this.store.create() : await this.store.continueLatest();
    return this.adopt(meta.id, agentIds);
  }

  /** Starts a new, empty session and makes it current; emits conversationCleared then sessionSwitched. */
  async newSession(agentIds: ReadonlySet<string>): Promise<string | null> {
    if (this.store === null) return null;
    const meta = await this.store.create();
    this.diag.note('session switched', { ...this.adopt(meta.id, agentIds) });
    this.announce(meta.id);
    return meta.id;
  }

  /** Switches to the most recently updated session (creating one when there is none). */
  async continueLatest(agentIds: ReadonlySet<string>): Promise<string | null> {
    if (this.store === null) return null;
    const meta = await this.store.continueLatest();
    if (meta.id !== this.current) {
      this.diag.note('session switched', { ...this.adopt(meta.id, agentIds) });
      this.announce(meta.id);
    }
    return meta.id;
  }

  /**
   * Makes an existing session current (SESSION_NOT_FOUND from the store): every agent, running or not, continues
   * its conversation from it (the host refuses a switch while turns are in flight). Opening the current session is
   * a no-op without events.
   */
  async openSession(id: string, agentIds: ReadonlySet<string>): Promise<string | null> {
    if (this.store === null) return null;
    const meta = this.store.open(id);
    if (meta.id !== this.current) {
      this.diag.note('session switched', { ...this.adopt(meta.id, agentIds) });
      this.announce(meta.id);
    }
    return meta.id;
  }

  /** History and summary an agent starts with (empty without a store or a record). */
  restoreFor(agentId: string): AgentRestore {
    const history = this.restored?.histories.get(agentId) ?? [];
    const summary = this.restored?.summaries.get(agentId)?.text ?? null;
    return { history: [...history], summary };
  }

  /** A summary was written: agents started from now on get it and none of the exchanges it folded. */
  noteSummary(sessionId: string, agentId: string, text: string, coversUpToSeq: number): void {
    if (this.restored === null || sessionId !== this.current) return;
    this.restored.summaries.set(agentId, { text, coversUpToSeq });
    // The restored window is what the boot read: all of it is at or below any later boundary.
    this.restored.histories.delete(agentId);
  }

  private adopt(sessionId: string, agentIds: ReadonlySet<string>): SessionOpenedCounts {
    const restored = (this.store as SessionStore).restore(sessionId);
    // Histories of agents that no longer exist are dropped and counted, as the original's boot does.
    let dropped = 0;
    for (const id of [...restored.histories.keys()]) {
      if (!agentIds.has(id)) {
        restored.histories.delete(id);
        dropped += 1;
      }
    }
    if (dropped > 0) this.diag.note('session', { dropped_histories: dropped }, 'warn');
    this.current = sessionId;
    this.restored = restored;
    const c = restored.counts;
    return {
      id: sessionId,
      messages: c.messages,
      histories: restored.histories.size,
      summaries: c.summaries,
      skipped: c.skipped.futureVersion + c.skipped.malformed,
    };
  }

  private announce(sessionId: string): void {
    // The original's order: log and histories replaced, then conversationCleared, then sessionSwitched.
    this.switched((agentId) => this.restoreFor(agentId), this.restored?.logTail ?? []);
    this.emit({ type: 'conversationCleared' });
    this.emit({ type: 'sessionSwitched', sessionId });
  }
}
