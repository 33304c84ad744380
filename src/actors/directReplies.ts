/**
 * Direct answer channels between agent workers. An `ask_*`/plan task still goes asker → supervisor → target (the
 * supervisor applies NOT_RUNNING, the mailbox, hop limits and budgets, records, and tracks the causal tree for
 * interrupts), but the answer goes target → asker on a MessageChannel the supervisor handed both workers, while the
 * turn's outcome goes to the supervisor as before: it records it and closes the wait (askTimeoutSecs) without a
 * second post. One hop and the supervisor's recording leave the asker's wait.
 *
 * Order of records: an asker that took an answer directly names that envelope in its next batch (`after`); the
 * supervisor holds the asker's batches until it has handled the answered turn's outcome, so the asker's next
 * records never come before the answer's. Failed, folded, stopped, crashed and timed-out asks are answered by the
 * supervisor only, as before; the asking worker keeps whichever answer came first.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { AgentHandle } from './agentHandle.js';
import type { ReplyRoute, WorkerBatch } from './protocol.js';
import type { AgentRuntime } from './agentRuntime.js';
import type { Envelope } from './types.js';

/** Batches of one asker held until the answers they follow are recorded. */
interface Hold {
  handle: AgentHandle;
  waiting: Set<string>;
  queue: WorkerBatch[];
}

/** Replays a held batch through the supervisor's normal handling. */
export type ReplayBatch = (slot: AgentRuntime, handle: AgentHandle, batch: WorkerBatch) => void;

/** One per supervisor. */
export class DirectReplies {
  private nextChannel = 1;
  /** asker's worker → target's worker → channel number (a restarted worker gets new channels). */
  private readonly channels = new WeakMap<AgentHandle, WeakMap<AgentHandle, number>>();
  /** Envelopes delivered with a direct route whose outcome the supervisor has not handled yet → asking agent. */
  private readonly pending = new Map<string, string>();
  private readonly holds = new Map<string, Hold>();

  constructor(
    private readonly slots: ReadonlyMap<string, AgentRuntime>,
    private readonly replay: ReplayBatch,
  ) {}

  /**
   * The route for delivering `env` (an agent's ask) to `target` now, with the port to transfer on the first use of
   * a channel; undefined when the asker's worker is gone (the supervisor answers then).
   */
  route(env: Envelope, target: AgentRuntime): { route: ReplyRoute; transfer?: MessagePort[] } | undefined {
    const asked = env.askedBy;
    const asker = asked === undefined ? undefined : this.slots.get(asked.agentId);
    if (asked === undefined || asker?.handle == null || !asker.handle.alive || target.handle === null) return undefined;
    let byTarget = this.channels.get(asker.handle);
    if (byTarget === undefined) {
      byTarget = new WeakMap();
      this.channels.set(asker.handle, byTarget);
    }
    this.pending.set(env.id, asked.agentId);
    const channel = byTarget.get(target.handle);
    if (channel !== undefined) return { route: { channel, requestId: asked.requestId } };
    const made = this.nextChannel++;
    byTarget.set(target.handle, made);
    const { port1, port2 } = new MessageChannel();
    asker.handle.post({ kind: 'peer', port: port1 }, [port1]);
    return { route: { channel: made, requestId: asked.requestId, port: port2 }, transfer: [port2] };
  }

  /** True when `envelopeId` was delivered with a direct route (its worker answers the asker itself on turnDone). */
  answeredDirectly(envelopeId: string): boolean {
    return this.pending.has(envelopeId);
  }

  /** The supervisor is done with `envelopeId`'s outcome: batches of its asker that waited for it go on. */
  finished(envelopeId: string): void {
    const askerId = this.pending.get(envelopeId);
    if (askerId === undefined) return;
    this.pending.delete(envelopeId);
    const hold = this.holds.get(askerId);
    if (hold === undefined || !hold.waiting.delete(envelopeId) || hold.waiting.size > 0) return;
    // After the handler that finished the envelope has recorded its outcome (it runs synchronously to its end first).
    queueMicrotask(() => this.release(askerId, hold));
  }

  /** Gates one batch of `slot`'s worker: false when it must wait (kept here and replayed in order). */
  admit(slot: AgentRuntime, handle: AgentHandle, batch: WorkerBatch): boolean {
    const hold = this.holds.get(slot.id);
    if (hold !== undefined) {
      if (hold.handle === handle) {
        hold.queue.push(batch);
        return false;
      }
      this.holds.delete(slot.id); // that worker is gone; its held batches went with it
    }
    const waiting = batch.after?.filter((id) => this.pending.has(id)) ?? [];
    if (waiting.length === 0) return true;
    this.holds.set(slot.id, { handle, waiting: new Set(waiting), queue: [batch] });
    return false;
  }

  /** Envelopes still waiting for their outcome to be handled (tests, leak checks). */
  get pendingCount(): number {
    return this.pending.size;
  }

  private release(askerId: string, hold: Hold): void {
    if (this.holds.get(askerId) !== hold) return;
    this.holds.delete(askerId);
    const slot = this.slots.get(askerId);
    if (slot === undefined) return;
    // A replayed batch may be held again (its own `after`): admit() then queues the rest behind it, in order.
    for (const batch of hold.queue) this.replay(slot, hold.handle, batch);
  }
}
