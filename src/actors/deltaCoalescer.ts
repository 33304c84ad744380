/**
 * Coalesces streamed reply pieces before they cross the worker → main hop: the first piece of a round goes out at
 * once (time to first character), later ones are gathered for `intervalMs` or until `maxChars`, so a fast model
 * costs a few messages per second, not one per token. A change of turn, round or kind, a restart, and any other
 * event of the agent flush first, so the event order on the wire is the order things happened.
 */
import type { CoreEvent } from '../core/events.js';
import type { StreamDelta } from '../core/llm/canonical.js';

type TextDelta = Extract<CoreEvent, { type: 'textDelta' }>;

/** Timer seam (tests drive it by hand). */
export interface CoalescerClock {
  later(fn: () => void, ms: number): { cancel(): void };
}

const realClock: CoalescerClock = {
  later(fn, ms) {
    const timer = setTimeout(fn, ms);
    return { cancel: () => clearTimeout(timer) };
  },
};

/** Gathering window after the first piece (ms). */
export const DELTA_INTERVAL_MS = 40;
/** A buffer this long goes out without waiting (chars). */
export const DELTA_MAX_CHARS = 4096;

export class DeltaCoalescer {
  private pending: TextDelta | null = null;
  private timer: { cancel(): void } | null = null;
  /** `turnSeq:round` of the last piece sent: the first piece of a new round is sent at once. */
  private lastRound = '';

  constructor(
    private readonly agentId: string,
    private readonly send: (event: TextDelta) => void,
    private readonly clock: CoalescerClock = realClock,
    private readonly intervalMs = DELTA_INTERVAL_MS,
    private readonly maxChars = DELTA_MAX_CHARS,
  ) {}

  /** Takes one piece of round `round` of turn `turnSeq`. */
  push(turnSeq: number, round: number, delta: StreamDelta): void {
    if (delta.kind === 'restart') {
      this.flush();
      this.send({ type: 'textDelta', agentId: this.agentId, turnSeq, round, kind: 'restart', text: '' });
      this.lastRound = '';
      return;
    }
    if (delta.text === '') return;
    const p = this.pending;
    if (p !== null && (p.turnSeq !== turnSeq || p.round !== round || p.kind !== delta.kind)) this.flush();
    const key = `${turnSeq}:${round}`;
    if (this.pending === null && this.lastRound !== key) {
      this.lastRound = key;
      this.send({ type: 'textDelta', agentId: this.agentId, turnSeq, round, kind: delta.kind, text: delta.text });
      return;
    }
    if (this.pending === null) {
      this.pending = { type: 'textDelta', agentId: this.agentId, turnSeq, round, kind: delta.kind, text: delta.text };
      this.timer = this.clock.later(() => this.flush(), this.intervalMs);
    } else {
      this.pending.text += delta.text;
    }
    if (this.pending.text.length >= this.maxChars) this.flush();
  }

  /** Sends what is gathered (before any other event of the agent, and at the end of a turn). */
  flush(): void {
    this.timer?.cancel();
    this.timer = null;
    const p = this.pending;
    this.pending = null;
    if (p !== null) this.send(p);
  }
}
