import { describe, expect, it } from 'vitest';
import { DeltaCoalescer, type CoalescerClock } from '../../src/actors/deltaCoalescer.js';
import type { CoreEvent } from '../../src/core/events.js';

type TextDelta = Extract<CoreEvent, { type: 'textDelta' }>;

/** A clock whose timers fire only when the test says so. */
function manualClock(): CoalescerClock & { fire(): void; pending: number } {
  let due: Array<() => void> = [];
  return {
    later(fn) {
      due.push(fn);
      return { cancel: () => void (due = due.filter((f) => f !== fn)) };
    },
    fire() {
      const now = due;
      due = [];
      for (const fn of now) fn();
    },
    get pending() {
      return due.length;
    },
  };
}

function setup(maxChars = 4096) {
  const sent: TextDelta[] = [];
  const clock = manualClock();
  const c = new DeltaCoalescer('a', (e) => sent.push(e), clock, 40, maxChars);
  const texts = () => sent.map((e) => `${e.turnSeq}/${e.round}/${e.kind}:${e.text}`);
  return { c, clock, sent, texts };
}

describe('DeltaCoalescer', () => {
  it('sends the first piece of a round at once, then gathers the rest until the window closes', () => {
    const { c, clock, texts } = setup();
    c.push(1, 1, { kind: 'text', text: 'He' });
    expect(texts()).toEqual(['1/1/text:He']);
    for (const p of ['ll', 'o, ', 'wor', 'ld']) c.push(1, 1, { kind: 'text', text: p });
    expect(texts()).toHaveLength(1);
    clock.fire();
    expect(texts()).toEqual(['1/1/text:He', '1/1/text:llo, world']);
  });

  it('a new round, a new turn or a change of kind flushes first, keeping the order', () => {
    const { c, texts } = setup();
    c.push(1, 1, { kind: 'thinking', text: 'hmm' });
    c.push(1, 1, { kind: 'thinking', text: ' let me see' });
    c.push(1, 1, { kind: 'text', text: 'A' });
    c.push(1, 1, { kind: 'text', text: 'B' });
    c.push(1, 2, { kind: 'text', text: 'C' });
    c.push(2, 1, { kind: 'text', text: 'D' });
    c.flush();
    expect(texts()).toEqual(['1/1/thinking:hmm', '1/1/thinking: let me see', '1/1/text:AB', '1/2/text:C', '2/1/text:D']);
  });

  it('a restart flushes, is sent at once, and the next piece goes out at once again', () => {
    const { c, texts } = setup();
    c.push(1, 1, { kind: 'text', text: 'par' });
    c.push(1, 1, { kind: 'text', text: 'tial' });
    c.push(1, 1, { kind: 'restart' });
    c.push(1, 1, { kind: 'text', text: 'again' });
    expect(texts()).toEqual(['1/1/text:par', '1/1/text:tial', '1/1/restart:', '1/1/text:again']);
  });

  it('a full buffer goes out without waiting, and flush() cancels the window', () => {
    const { c, clock, texts } = setup(5);
    c.push(1, 1, { kind: 'text', text: 'x' });
    c.push(1, 1, { kind: 'text', text: 'abcdef' });
    expect(texts()).toEqual(['1/1/text:x', '1/1/text:abcdef']);
    c.push(1, 1, { kind: 'text', text: 'z' });
    expect(clock.pending).toBe(1);
    c.flush();
    expect(clock.pending).toBe(0);
    expect(texts().at(-1)).toBe('1/1/text:z');
  });

  it('hundreds of token-sized pieces cross as a handful of events', () => {
    const { c, clock, sent } = setup();
    for (let i = 0; i < 500; i++) {
      c.push(1, 1, { kind: 'text', text: 'tok ' });
      if (i % 100 === 99) clock.fire();
    }
    c.flush();
    expect(sent.length).toBeLessThanOrEqual(7);
    expect(sent.map((e) => e.text).join('')).toBe('tok '.repeat(500));
  });
});
