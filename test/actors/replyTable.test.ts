import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReplyTable } from '../../src/actors/replyTable.js';
import type { DeliveryResult } from '../../src/core/turn/ports.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('ReplyTable', () => {
  it('settles once: the answer wins, a late timeout or second answer is ignored', () => {
    vi.useFakeTimers();
    const t = new ReplyTable();
    const got: DeliveryResult[] = [];
    t.open('e1', 'B', 1000, (r) => got.push(r));
    expect(t.resolve('e1', { text: 'hi', state: 'answered' })).toBe(true);
    vi.advanceTimersByTime(2000);
    expect(t.resolve('e1', { text: 'again', state: 'answered' })).toBe(false);
    expect(got).toEqual([{ text: 'hi', state: 'answered' }]);
  });

  it('a wait past its bound resolves timed_out', () => {
    vi.useFakeTimers();
    const t = new ReplyTable();
    const got: DeliveryResult[] = [];
    t.open('e1', 'B', 1000, (r) => got.push(r));
    vi.advanceTimersByTime(1000);
    expect(got).toEqual([{ text: '', state: 'timed_out' }]);
    expect(t.size).toBe(0);
  });

  it('resolves every wait on one target (its worker crashed)', () => {
    const t = new ReplyTable();
    const got: string[] = [];
    t.open('e1', 'B', 60_000, (r) => got.push(`e1:${r.state}`));
    t.open('e2', 'C', 60_000, (r) => got.push(`e2:${r.state}`));
    t.open('e3', 'B', 60_000, (r) => got.push(`e3:${r.state}`));
    expect(t.resolveTarget('B', { text: '', state: 'no_answer' })).toBe(2);
    t.resolveAll({ text: '', state: 'no_answer' });
    expect(got).toEqual(['e1:no_answer', 'e3:no_answer', 'e2:no_answer']);
  });
});
