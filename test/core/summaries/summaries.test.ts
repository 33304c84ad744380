import { describe, expect, it } from 'vitest';
import type { SeqRecord } from '../../../src/core/sessions/records.js';
import { summaryInput } from '../../../src/core/summaries/summaryInput.js';
import { historyCharBudget, planSummary } from '../../../src/core/summaries/summaryRequest.js';
import { judgeSummary, summaryNotice } from '../../../src/core/summaries/summaryVerdict.js';
import { modelTemplate } from '../../support/turnHarness.js';

const ex = (seq: number, agentId: string, sent: string): SeqRecord => ({ v: 2, seq, kind: 'exchange', agentId, sent, replied: `re:${sent}` });
const sum = (seq: number, agentId: string, text: string, coversUpToSeq: number): SeqRecord => ({ v: 2, seq, kind: 'summary', agentId, text, coversUpToSeq });

describe('summaryInput: what one agent folds', () => {
  it.each([
    ['no summary yet: every exchange of the agent', [ex(0, 'a', 'a0'), ex(1, 'b', 'b0'), ex(2, 'a', 'a1')], null, ['a0', 'a1']],
    ['after a summary: only exchanges past its bound', [ex(0, 'a', 'a0'), ex(1, 'a', 'a1'), sum(2, 'a', 'S1', 1), ex(3, 'a', 'a2')], 'S1', ['a2']],
    ['the newest summary wins', [ex(0, 'a', 'a0'), sum(1, 'a', 'S1', 0), ex(2, 'a', 'a1'), sum(3, 'a', 'S2', 2), ex(4, 'a', 'a2')], 'S2', ['a2']],
    ['another agent\'s summary changes nothing', [ex(0, 'a', 'a0'), sum(1, 'b', 'Sb', 0)], null, ['a0']],
    ['more than the 8-exchange window', Array.from({ length: 12 }, (_, i) => ex(i, 'a', `a${i}`)), null, Array.from({ length: 12 }, (_, i) => `a${i}`)],
  ] as const)('%s', (_name, records, previous, sent) => {
    const input = summaryInput(records, 'a');
    expect(input.previous).toBe(previous);
    expect(input.history.map((e) => e.sent)).toEqual(sent);
  });
});

describe('planSummary', () => {
  const tpl = modelTemplate();
  it('is null with nothing to fold', () => {
    expect(planSummary(tpl, 'en', 'old', [])).toBeNull();
  });

  it('previous summary + history + instruction, no tools, no cache prefix', () => {
    const plan = planSummary(tpl, 'en', 'old summary', [{ sent: 'q1', replied: 'r1' }])!;
    expect(plan.request.tools).toEqual([]);
    expect(plan.request.toolChoice).toBe('none');
    expect(plan.request.cacheablePrefixLen).toBe(0);
    expect(plan.request.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(plan.request.messages[1]!.content).toBe('## Summary so far\nold summary');
    expect(plan.request.messages.at(-1)!.content).toContain('Output only the summary.');
    expect(plan).toMatchObject({ foldedMsgs: 2, foldedChars: 4, unread: 0 });
  });

  it('writes the instruction in the village language', () => {
    expect(planSummary(tpl, 'ja', null, [{ sent: 'q', replied: 'r' }])!.request.messages.at(-1)!.content).toContain('日本語で');
  });

  it('reads the newest exchanges that fit the context and counts the rest as unread (still folded)', () => {
    const small = { ...tpl, contextLength: 1000 };
    const big = 'x'.repeat(historyCharBudget(1000) / 2);
    const history = [{ sent: big, replied: '' }, { sent: big, replied: '' }, { sent: 'newest', replied: 'r' }];
    const plan = planSummary(small, 'en', null, history)!;
    expect(plan.unread).toBe(1);
    expect(plan.foldedMsgs).toBe(6);
    expect(plan.request.messages.filter((m) => m.role === 'user').map((m) => m.content.slice(0, 6))).toEqual(['xxxxxx', 'newest', 'Write ']);
  });

  it('always reads the newest exchange, even when it alone exceeds the budget', () => {
    const plan = planSummary({ ...tpl, contextLength: 10 }, 'en', null, [{ sent: 'y'.repeat(50_000), replied: '' }])!;
    expect(plan.unread).toBe(0);
  });
});

describe('judgeSummary and the notice', () => {
  it.each([
    ['', 100, { fold: false, warning: 'empty' }],
    ['   \n', 100, { fold: false, warning: 'empty' }],
    ['short', 100, { fold: true, warning: null }],
    ['x'.repeat(100), 100, { fold: true, warning: 'longer' }],
  ] as const)('%j over %i folded chars', (text, folded, expected) => {
    expect(judgeSummary(text, folded)).toEqual(expected);
  });

  it('names skipped stopped agents in both languages', () => {
    expect(summaryNotice('en', 2, ['Bob'])).toBe('Summarized the conversation of 2 agents and continued (skipped, not running: Bob). The original messages stay in this conversation.');
    expect(summaryNotice('ja', 1, [])).toBe('1 体の会話を要約して続きを軽くしました。元の発言はこの会話に残っています。');
  });
});
