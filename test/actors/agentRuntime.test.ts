/**
 * One agent's main-thread state (agentRuntime.ts) without threads: "new conversation", "restart" (a new worker),
 * a summary fold and "settings changed" are its methods, and what the next turn is sent follows from them.
 */
import { describe, expect, it } from 'vitest';
import type { AgentHandle } from '../../src/actors/agentHandle.js';
import { AgentRuntime, HISTORY_WINDOW, type AgentSettings } from '../../src/actors/agentRuntime.js';
import { agent, template } from './support/villageFixture.js';

const ex = (n: number) => ({ sent: `m${n}`, replied: `r${n}` });
const settings = (overrides: Partial<AgentSettings> = {}): AgentSettings => ({ agent: agent('A'), template: template(), language: 'en', maxHops: 8, ...overrides });
/** A runtime whose worker runs (the handle is only compared with null here). */
function running(history = [ex(1)], summary: string | null = null): AgentRuntime {
  const runtime = new AgentRuntime('A', { history, summary });
  runtime.handle = {} as AgentHandle;
  runtime.beginWorker(settings());
  return runtime;
}

describe('AgentRuntime', () => {
  it('starts from the conversation it is given, keeps the newest exchanges of the window, and sends a copy', () => {
    const runtime = new AgentRuntime('A', { history: Array.from({ length: 10 }, (_, i) => ex(i + 1)), summary: 'so far' });
    const view = runtime.conversation();
    expect(view.history).toHaveLength(HISTORY_WINDOW);
    expect(view.history[0]).toEqual(ex(3));
    expect(view.summary).toBe('so far');
    view.history.length = 0;
    expect(runtime.conversation().history).toHaveLength(HISTORY_WINDOW);
  });

  it('records each ended turn into the window and as the summary boundary', () => {
    const runtime = running([]);
    for (let seq = 1; seq <= 9; seq += 1) runtime.recordExchange(ex(seq), seq);
    expect(runtime.conversation().history.map((e) => e.sent)).toEqual(['m2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9']);
    expect(runtime.recordedTurnSeq).toBe(9);
  });

  it('a new conversation replaces the window and the summary, running or not', () => {
    const runtime = running([ex(1)], 'old summary');
    runtime.recordExchange(ex(2), 1);
    runtime.replaceConversation({ history: [], summary: null });
    expect(runtime.conversation()).toEqual({ history: [], summary: null });
    runtime.replaceConversation({ history: [ex(7)], summary: 'opened' });
    expect(runtime.conversation()).toEqual({ history: [ex(7)], summary: 'opened' });
  });

  it('a restart (new worker) keeps the conversation as it stands and numbers turns from 1 again', () => {
    const runtime = running([ex(1)]);
    runtime.recordExchange(ex(2), 1);
    runtime.recordExchange(ex(3), 2);
    runtime.beginWorker(settings());
    expect(runtime.conversation().history).toEqual([ex(1), ex(2), ex(3)]);
    expect(runtime.recordedTurnSeq).toBe(0);
    // The old worker's turns are all before the new worker's first: a fold through its turn 1 takes them all.
    runtime.recordExchange(ex(4), 1);
    runtime.recordExchange(ex(5), 2);
    expect(runtime.foldInput(1).history).toEqual([ex(1), ex(2), ex(3), ex(4)]);
  });

  it('a summary fold replaces the summary and drops the turns it covers; later ones stay', () => {
    const runtime = running([ex(0)], 'first');
    runtime.recordExchange(ex(1), 1);
    runtime.recordExchange(ex(2), 2);
    expect(runtime.foldInput(1)).toEqual({ history: [ex(0), ex(1)], summary: 'first' });
    runtime.foldSummary('second', 1);
    expect(runtime.conversation()).toEqual({ history: [ex(2)], summary: 'second' });
  });

  it.each([
    ['the same settings', settings(), false],
    ['another model template', settings({ template: template({ model: 'next-model' }) }), true],
    ['new instructions on the agent', settings({ agent: agent('A', [], { name: 'Renamed' }) }), true],
    ['another language', settings({ language: 'ja' }), true],
    ['another hop limit', settings({ maxHops: 3 }), true],
  ])('settings changed: %s', (_label, next, changed) => {
    const runtime = running();
    expect(runtime.settingsChanged(next)).toBe(changed);
    // Once sent, the same settings are not a change any more.
    expect(runtime.settingsChanged(next)).toBe(false);
  });

  it('settings of an agent without a worker are not sent (its next start reads the world)', () => {
    const runtime = new AgentRuntime('A', { history: [], summary: null });
    expect(runtime.settingsChanged(settings({ template: template({ model: 'next-model' }) }))).toBe(false);
  });
});
