import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../../src/core/events.js';
import { foldRestore } from '../../../src/core/sessions/restoreFold.js';
import { emptySkipCounts, type SeqRecord } from '../../../src/core/sessions/records.js';

function msg(seq: number, content: string): SeqRecord {
  const message: AgentMessage = { id: `m${seq}`, from: { kind: 'user' }, to: { kind: 'agent', id: 'a' }, content, tokens: 0, tsMs: seq, hop: 0 };
  return { v: 1, seq, kind: 'message', message };
}
function ex(seq: number, agentId: string, sent: string): SeqRecord {
  return { v: 1, seq, kind: 'exchange', agentId, sent, replied: `re ${sent}` };
}
function sum(seq: number, agentId: string, coversUpToSeq: number, text = `sum@${seq}`): SeqRecord {
  return { v: 1, seq, kind: 'summary', agentId, text, coversUpToSeq };
}

const limits = { logCapacity: 3, historyTurns: 2 };

describe('foldRestore', () => {
  const cases: { name: string; records: SeqRecord[]; tail: string[]; histories: Record<string, string[]>; summaries: Record<string, number> }[] = [
    { name: 'empty session', records: [], tail: [], histories: {}, summaries: {} },
    {
      name: 'messages never become history',
      records: [msg(0, 'hello'), msg(1, 'again')],
      tail: ['hello', 'again'],
      histories: {},
      summaries: {},
    },
    {
      name: 'log tail keeps the newest logCapacity messages',
      records: [msg(0, 'a'), msg(1, 'b'), msg(2, 'c'), msg(3, 'd'), msg(4, 'e')],
      tail: ['c', 'd', 'e'],
      histories: {},
      summaries: {},
    },
    {
      name: 'history window is the last historyTurns exchanges per agent',
      records: [ex(0, 'a', 'a0'), ex(1, 'b', 'b1'), ex(2, 'a', 'a2'), ex(3, 'a', 'a3')],
      tail: [],
      histories: { a: ['a2', 'a3'], b: ['b1'] },
      summaries: {},
    },
    {
      name: 'newest summary wins and folds exchanges up to coversUpToSeq',
      records: [ex(0, 'a', 'a0'), ex(1, 'a', 'a1'), sum(2, 'a', 0, 'old'), ex(3, 'a', 'a3'), sum(4, 'a', 1, 'new')],
      tail: [],
      histories: { a: ['a3'] },
      summaries: { a: 1 },
    },
    {
      name: 'a summary covering everything leaves no history entry',
      records: [ex(0, 'a', 'a0'), sum(1, 'a', 0)],
      tail: [],
      histories: {},
      summaries: { a: 0 },
    },
    {
      name: 'turn records restore nothing',
      records: [{ v: 1, seq: 0, kind: 'turn', agentId: 'a', tsMs: 1, hop: 0, rounds: 1, waves: 0, stop: { kind: 'completed' }, prompt: 1, cached: 0, completion: 1, reasoning: 0, cacheWrite: 0, cacheWrite1h: 0, model: 'm', backend: 'echo', elapsedMs: 1 }],
      tail: [],
      histories: {},
      summaries: {},
    },
  ];
  it.each(cases)('$name', ({ records, tail, histories, summaries }) => {
    const restored = foldRestore(records, limits, emptySkipCounts());
    expect(restored.logTail.map((m) => m.content)).toEqual(tail);
    expect(Object.fromEntries([...restored.histories].map(([k, v]) => [k, v.map((e) => e.sent)]))).toEqual(histories);
    expect(Object.fromEntries([...restored.summaries].map(([k, v]) => [k, v.coversUpToSeq]))).toEqual(summaries);
    expect(restored.counts.messages).toBe(tail.length);
    expect(restored.counts.histories).toBe(Object.keys(histories).length);
  });

  it('keeps exact sent/replied strings and trims long sessions linearly', () => {
    const records: SeqRecord[] = [];
    for (let i = 0; i < 1000; i += 1) records.push(ex(i, 'a', `s${i}`), msg(1000 + i, `m${i}`));
    const restored = foldRestore(records, { logCapacity: 5, historyTurns: 8 }, emptySkipCounts());
    expect(restored.histories.get('a')).toEqual(Array.from({ length: 8 }, (_, k) => ({ sent: `s${992 + k}`, replied: `re s${992 + k}` })));
    expect(restored.logTail.map((m) => m.content)).toEqual(['m995', 'm996', 'm997', 'm998', 'm999']);
  });

  it('a zero history window restores no history', () => {
    const restored = foldRestore([ex(0, 'a', 'x')], { logCapacity: 5, historyTurns: 0 }, emptySkipCounts());
    expect(restored.histories.size).toBe(0);
  });
});
