/**
 * One agent on the main thread, across its workers: its status and failure, its mailbox and the envelope in flight
 * (routing's view), its current worker (`handle`, which owns everything on that thread), its conversation view (the
 * history window and summary the next turn is sent) and the settings its worker runs with. The supervisor keeps one
 * per agent; the router decides over them. The worker keeps no conversation of its own: every delivery carries this
 * view, so a new or opened conversation, a restart and a summary fold each change one place.
 */
import type { AgentStatus } from '../core/events.js';
import type { Exchange } from '../core/turn/ports.js';
import type { AgentSpec, Language, ModelTemplate } from '../core/world/types.js';
import type { AgentHandle } from './agentHandle.js';
import type { Mailbox } from './mailbox.js';
import type { ConversationView } from './protocol.js';
import type { Envelope } from './types.js';

/** History window sent with each turn (exchanges). */
export const HISTORY_WINDOW = 8;

/** What a conversation gives an agent: its exchanges (oldest first) and its newest summary. */
export interface ConversationRestore {
  history: readonly Exchange[];
  summary: string | null;
}

/** The settings a worker runs with; a change is sent to a running worker and applies from its next turn. */
export interface AgentSettings {
  agent: AgentSpec;
  template: ModelTemplate;
  language: Language;
  maxHops: number;
}

/** One agent's state on the main thread. */
export class AgentRuntime {
  status: AgentStatus = 'idle';
  handle: AgentHandle | null = null;
  /** Present ⇔ deliverable ("running" in the routing sense, including `starting`). */
  mailbox: Mailbox<Envelope> | null = null;
  /** The one envelope the worker handles now (≤1 per agent). */
  inFlight: Envelope | null = null;
  startedAtMs = 0;
  /** The last failure, until the agent is started again. */
  failedWith: 'crash' | 'fatal_llm' | null = null;
  /** Epoch ms of crash restarts inside the policy window. */
  restartsAtMs: number[] = [];
  /** The worker turn number of the newest recorded exchange (the fold boundary of a summary); 0 on a new worker. */
  recordedTurnSeq = 0;
  /** The history window, each exchange tagged with the worker turn that made it (0 = before the current worker). */
  private history: Array<Exchange & { turnSeq: number }>;
  private summary: string | null;
  private settingsNow: AgentSettings | null = null;

  constructor(
    readonly id: string,
    conversation: ConversationRestore,
  ) {
    this.history = [];
    this.summary = null;
    this.replaceConversation(conversation);
  }

  /** "New conversation" / "open conversation": the view becomes `conversation`'s, running or not. */
  replaceConversation(conversation: ConversationRestore): void {
    this.history = conversation.history.slice(-HISTORY_WINDOW).map((e) => ({ sent: e.sent, replied: e.replied, turnSeq: 0 }));
    this.summary = conversation.summary;
  }

  /** What the next turn is sent (a copy: it crosses to the worker). */
  conversation(): ConversationView {
    return { history: this.history.map(({ sent, replied }) => ({ sent, replied })), summary: this.summary };
  }

  /** The exchanges of worker turns up to `throughTurnSeq` and the summary they extend (a summary call's input). */
  foldInput(throughTurnSeq: number): ConversationRestore {
    const history = this.history.filter((e) => e.turnSeq <= throughTurnSeq).map(({ sent, replied }) => ({ sent, replied }));
    return { history, summary: this.summary };
  }

  /** A turn ended with `exchange` (done, interrupted or failed): it joins the window. */
  recordExchange(exchange: Exchange, turnSeq: number): void {
    this.history.push({ sent: exchange.sent, replied: exchange.replied, turnSeq });
    if (this.history.length > HISTORY_WINDOW) this.history.splice(0, this.history.length - HISTORY_WINDOW);
    this.recordedTurnSeq = turnSeq;
  }

  /** A summary replaced the previous one: the turns it covers leave the window (later ones, in flight too, stay). */
  foldSummary(text: string, throughTurnSeq: number): void {
    this.summary = text;
    this.history = this.history.filter((e) => e.turnSeq > throughTurnSeq);
  }

  /**
   * A new worker starts ("start", "restart"): it numbers its turns from 1 again, so what is in the window now is
   * all before it; the conversation itself stays as it is.
   */
  beginWorker(settings: AgentSettings): void {
    this.history = this.history.map((e) => ({ ...e, turnSeq: 0 }));
    this.recordedTurnSeq = 0;
    this.settingsNow = settings;
  }

  /**
   * "Settings changed": true when `next` differs from what the current worker runs with (the caller sends it; it
   * applies from the worker's next turn). False for an agent without a worker: its next start reads the world.
   */
  settingsChanged(next: AgentSettings): boolean {
    if (this.settingsNow === null || this.handle === null) return false;
    if (JSON.stringify(this.settingsNow) === JSON.stringify(next)) return false;
    this.settingsNow = next;
    return true;
  }

  /** True while `handle` is this agent's current worker (a message or exit of an older one is stale). */
  runs(handle: AgentHandle): boolean {
    return this.handle === handle;
  }

  /** Ends the current worker and everything in flight on it (idempotent; the runtime itself stays for a restart). */
  async destroy(): Promise<void> {
    const handle = this.handle;
    if (handle === null) return;
    await handle.destroy({ kind: 'stopped' });
    if (this.handle === handle) this.handle = null;
  }
}
