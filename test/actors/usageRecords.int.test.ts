/**
 * Per-call usage on the real worker and the loopback stub: every LLM call becomes one `call` record with the usage
 * the stub reported, a failed turn is still recorded with what its calls cost, and an external ask's outcome
 * carries every call of its chain (the reception and whom it asked).
 */
import { describe, expect, it } from 'vitest';
import { reply, type StubRequest, type StubStep } from '../support/stubLlm.js';
import { toolResults, useStubVillages } from './support/stubVillages.js';
import { agent } from './support/villageFixture.js';

const villages = useStubVillages();

function script(steps: Record<string, (r: StubRequest) => StubStep>): void {
  villages.stub().respond((r) => steps[r.model.replace(/^m-/, '')]!(r));
}

/** An Anthropic-wire request that carries a tool result (the second round of a tool loop). */
function hasToolResult(r: StubRequest): boolean {
  const messages = (r.body?.messages ?? []) as Array<{ content: unknown }>;
  return messages.some((m) => Array.isArray(m.content) && m.content.some((b: { type?: string }) => b.type === 'tool_result'));
}

describe('usage records', () => {
  it('records one call per request with the reported usage, and the ask outcome sums its chain', async () => {
    const v = villages.make([agent('A', ['B']), agent('B'), agent('C')]);
    // A speaks the Anthropic wire, whose usage breaks the cache write down by TTL.
    const w = v.sup.currentWorld();
    v.sup.setWorld({ ...w, modelTemplates: w.modelTemplates.map((t) => (t.id === 'tpl-A' ? { ...t, provider: 'anthropic' as const } : t)) });
    await Promise.all(['A', 'B', 'C'].map((id) => v.sup.startAgent(id)));
    script({
      A: (r) =>
        !hasToolResult(r)
          ? reply.tool('ask_B', { message: 'q' }, { usage: { prompt: 1000, completion: 40, cacheRead: 600, cacheWrite: 300, cacheWrite1h: 200 } })
          : reply.text('A done', { usage: { prompt: 1100, completion: 25, cacheRead: 900 } }),
      B: () => reply.text('B answer', { usage: { prompt: 400, completion: 30 } }),
      C: () => reply.text('C chat', { usage: { prompt: 77, completion: 7 } }),
    });
    const out = await v.sup.askExternalOutcome('tester', 'go');
    expect(out.state).toBe('answered');
    // C talks to the user meanwhile: a separate chain, never in the ask's outcome.
    v.sup.sendUserMessage('C', 'hello');

    const byAgent = (id: string) => out.calls.filter((c) => c.agentId === id);
    expect(out.calls).toHaveLength(3);
    expect(byAgent('A').map((c) => [c.backend, c.prompt, c.cached, c.cacheWrite, c.cacheWrite1h, c.completion])).toEqual([
      ['anthropic', 1000, 600, 300, 200, 40],
      ['anthropic', 1100, 900, 0, 0, 25],
    ]);
    expect(byAgent('B')).toEqual([
      expect.objectContaining({ templateId: 'tpl-B', model: 'm-B', backend: 'openai-compat', purpose: 'turn', outcome: { kind: 'ok' }, prompt: 400, completion: 30, estimated: false }),
    ]);
    expect(out.calls.every((c) => c.latencyMs >= 0 && c.tsMs > 0)).toBe(true);
    // The same calls went to the recorder, and A's turn record is the sum of its own two calls.
    const turnA = v.recorder.turns.find((t) => t.agentId === 'A')!;
    expect([turnA.prompt, turnA.cached, turnA.cacheWrite, turnA.cacheWrite1h, turnA.completion]).toEqual([2100, 1500, 300, 200, 65]);
    await expect.poll(() => v.recorder.calls.length).toBe(4);
    expect(v.recorder.calls.filter((c) => c.agentId === 'C')).toEqual([expect.objectContaining({ prompt: 77, completion: 7 })]);
  });

  it('a turn that fails after a paid round is recorded with stop failed and what it cost; the counters include it', async () => {
    const v = villages.make([agent('A', ['B']), agent('B')]);
    await Promise.all(['A', 'B'].map((id) => v.sup.startAgent(id)));
    script({
      A: (r) => (toolResults(r).length === 0 ? reply.tool('ask_B', { message: 'q' }, { usage: { prompt: 500, completion: 20, cacheRead: 100 } }) : reply.error(400)),
      B: () => reply.text('B answer', { usage: { prompt: 300, completion: 10 } }),
    });
    const out = await v.sup.askExternalOutcome('tester', 'go');
    expect(out.state).toBe('no_answer');
    expect(out.calls.map((c) => [c.agentId, c.outcome])).toEqual([
      ['A', { kind: 'ok' }],
      ['B', { kind: 'ok' }],
      ['A', { kind: 'failed', code: 'LLM_API' }],
    ]);
    const failed = v.recorder.turns.find((t) => t.agentId === 'A')!;
    expect(failed).toMatchObject({ stop: { kind: 'failed', code: 'LLM_API' }, rounds: 2, prompt: 500, cached: 100, completion: 20, backend: 'openai-compat' });
    expect(v.sup.agentCounters('A')).toEqual({ totalTokens: 520, promptTokens: 500, cachedTokens: 100 });
  });
});
