import { describe, expect, it } from 'vitest';
import { ALL, chatRows, clearMark, hiddenCount, parseCleared } from '../../../src/gui/client/lib/chatRows.js';
import type { AgentMessage, Endpoint } from '../../../src/gui/client/lib/types.js';
import type { ChatLine } from '../../../src/gui/client/lib/view.js';

const user: Endpoint = { kind: 'user' };
const agent = (id: string): Endpoint => ({ kind: 'agent', id });
let seq = 0;
function msg(from: Endpoint, to: Endpoint, tsMs: number, extra: Partial<AgentMessage> = {}): AgentMessage {
  return { id: `m${(seq += 1)}`, from, to, content: `c${seq}`, tokens: 0, tsMs, hop: 0, ...extra };
}
const line = (agentId: string, tsMs: number): ChatLine => ({ id: `l${tsMs}`, kind: 'tool', agentId, text: 'grep', ok: true, tsMs });

describe('chatRows', () => {
  const a1 = msg(user, agent('alice'), 10);
  const a2 = msg(agent('alice'), user, 20);
  const a3 = msg(agent('alice'), user, 30);
  const b1 = msg(user, agent('bob'), 40);
  const b2 = msg(agent('bob'), agent('alice'), 50);
  const fan = msg(user, agent('carol'), 60, { coRecipients: ['dave'] });
  const all = [b2, a1, fan, a3, b1, a2];

  it('merges messages and lines by time, oldest first', () => {
    const rows = chatRows([a2, a1], [line('alice', 15)], ALL, null);
    expect(rows.map((r) => r.tsMs)).toEqual([10, 15, 20]);
  });

  it.each<[string, string, string[]]>([
    ['everyone', ALL, [a1.id, a2.id, a3.id, b1.id, b2.id, fan.id]],
    ['alice: to, from, and a message between servants that reaches her', 'alice', [a1.id, a2.id, a3.id, b2.id]],
    ['bob', 'bob', [b1.id, b2.id]],
    ['a co-recipient of a fanned-out message', 'dave', [fan.id]],
    ['a servant nobody talked to', 'erin', []],
  ])('filter %s', (_name, filter, ids) => {
    expect(chatRows(all, [], filter, null).map((r) => (r.kind === 'message' ? r.m.id : r.l.id))).toEqual(ids);
  });

  it('filters thin lines by their servant', () => {
    expect(chatRows([], [line('alice', 1), line('bob', 2)], 'bob', null).map((r) => r.tsMs)).toEqual([2]);
  });

  it('groups consecutive messages of one sender to one recipient; a line, another sender or recipient breaks the group', () => {
    const rows = chatRows([a1, a2, a3, msg(agent('alice'), user, 31), msg(agent('alice'), agent('bob'), 32)], [line('alice', 25)], ALL, null);
    expect(rows.map((r) => (r.kind === 'message' ? r.grouped : 'line'))).toEqual([false, false, 'line', false, true, false]);
  });

  it('folds the copies of one fan-out into one row: every recipient in order, the tokens summed', () => {
    const co = ['bob', 'carol', 'dave'];
    const copies = co.map((id, i) => msg(agent('alice'), agent(id), 70, { content: 'split', hop: 1, coRecipients: co, tokens: i === 0 ? 1050 : 0 }));
    const rows = chatRows([a1, ...copies, msg(agent('bob'), user, 80)], [], ALL, null);
    expect(rows).toHaveLength(3);
    const fanned = rows[1]!;
    expect(fanned.kind === 'message' && fanned.to).toEqual(co.map(agent));
    expect(fanned.kind === 'message' && fanned.tokens).toBe(1050);
    expect(fanned.kind === 'message' && fanned.m.id).toBe(copies[0]!.id);
    // Filtered to one of them, the row still names all three (the message went to all of them).
    const onlyCarol = chatRows(copies, [], 'carol', null);
    expect(onlyCarol.map((r) => r.kind === 'message' && r.to.length)).toEqual([3]);
    // A second, identical fan-out right after is its own row, grouped under the first's header.
    const again = co.map((id) => msg(agent('alice'), agent(id), 71, { content: 'split', hop: 1, coRecipients: co }));
    const twice = chatRows([...copies, ...again], [], ALL, null);
    expect(twice.map((r) => r.kind === 'message' && [r.to.length, r.grouped])).toEqual([[3, false], [3, true]]);
  });

  it('a single message keeps its one recipient and its own tokens', () => {
    const rows = chatRows([msg(agent('alice'), user, 1, { tokens: 42 })], [], ALL, null);
    expect(rows[0]!.kind === 'message' && [rows[0]!.to, rows[0]!.tokens]).toEqual([[user], 42]);
  });

  it('never groups system notices', () => {
    const sys: Endpoint = { kind: 'system' };
    const rows = chatRows([msg(sys, user, 1), msg(sys, user, 2)], [], ALL, null);
    expect(rows.map((r) => r.kind === 'message' && r.grouped)).toEqual([false, false]);
  });

  it('hides rows up to the clear mark and counts them under the same filter', () => {
    expect(chatRows(all, [], ALL, 30).map((r) => r.tsMs)).toEqual([40, 50, 60]);
    expect(hiddenCount(all, [], ALL, 30)).toBe(3);
    expect(hiddenCount(all, [], 'bob', 30)).toBe(0);
    expect(hiddenCount(all, [], ALL, null)).toBe(0);
  });

  it('the clear mark is the newest row shown now', () => {
    expect(clearMark(all, [line('x', 70)])).toBe(70);
    expect(clearMark([], [])).toBeNull();
  });
});

describe('parseCleared', () => {
  it.each<[string, string | null, Record<string, number>]>([
    ['nothing stored', null, {}],
    ['not JSON', '{', {}],
    ['an array', '[1]', {}],
    ['marks per conversation, bad values dropped', '{"s1":5,"s2":"x","live":7}', { s1: 5, live: 7 }],
  ])('%s', (_name, stored, expected) => {
    expect(parseCleared(stored)).toEqual(expected);
  });
});
