import { describe, expect, it } from 'vitest';
import { Mailbox, MAILBOX_CAPACITY } from '../../src/actors/mailbox.js';
import { MessageLog } from '../../src/actors/messageLog.js';
import type { AgentMessage } from '../../src/core/events.js';

describe('Mailbox', () => {
  it('holds 64 by default, refuses the 65th, and is FIFO', () => {
    const m = new Mailbox<number>();
    for (let i = 0; i < MAILBOX_CAPACITY; i++) expect(m.offer(i)).toBe(true);
    expect(m.offer(64)).toBe(false);
    expect(m.take()).toBe(0);
    expect(m.offer(64)).toBe(true);
    expect(m.drain()).toHaveLength(64);
    expect(m.take()).toBeUndefined();
  });

  it('rejects a capacity below 1 with a message naming it', () => {
    expect(() => new Mailbox(0)).toThrow(/mailbox capacity/);
  });
});

describe('MessageLog', () => {
  it('keeps only the newest messages up to its capacity', () => {
    const log = new MessageLog(3);
    for (let i = 0; i < 5; i++) log.push({ id: String(i) } as AgentMessage);
    expect(log.list().map((m) => m.id)).toEqual(['2', '3', '4']);
    expect(log.list(1).map((m) => m.id)).toEqual(['4']);
  });
});
