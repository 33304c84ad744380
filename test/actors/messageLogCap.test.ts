/**
 * The message ring's byte cap (issue 19): besides its 5000-message limit the ring drops its oldest messages once
 * their text passes maxBytes, always keeping the newest message whole; clear() resets the count.
 */
import { describe, expect, it } from 'vitest';
import { MessageLog } from '../../src/actors/messageLog.js';
import type { AgentMessage } from '../../src/core/events.js';

const msg = (id: string, chars: number): AgentMessage =>
  ({ id, from: { kind: 'user' }, to: { kind: 'agent', id: 'a' }, content: 'x'.repeat(chars), tokens: 0, tsMs: 0, hop: 0 }) as AgentMessage;

describe('MessageLog byte cap', () => {
  it('drops the oldest messages once the text passes the cap, keeping the newest', () => {
    const log = new MessageLog(100, 10_000); // 5,000 chars of text at 2 bytes each
    for (let i = 0; i < 10; i += 1) log.push(msg(`m${i}`, 1_000));
    expect(log.list().map((m) => m.id)).toEqual(['m5', 'm6', 'm7', 'm8', 'm9']);
    expect(log.textBytes).toBe(10_000);
  });

  it('a single message larger than the cap stays alone; the count limit still applies', () => {
    const log = new MessageLog(3, 1_000);
    log.push(msg('small', 10));
    log.push(msg('huge', 5_000));
    expect(log.list().map((m) => m.id)).toEqual(['huge']);
    for (const id of ['a', 'b', 'c', 'd']) log.push(msg(id, 1));
    expect(log.list().map((m) => m.id)).toEqual(['b', 'c', 'd']);
    expect(log.textBytes).toBe(6);
    log.clear();
    expect(log.textBytes).toBe(0);
  });
});
