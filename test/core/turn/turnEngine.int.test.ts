/**
 * The turn engine against the REAL OpenAI-compatible and Anthropic backends, talking HTTP to the shared
 * loopback stub LLM on 127.0.0.1 (no mocks of the engine or the backends).
 */
import { describe, expect, it } from 'vitest';
import { BudgetPool } from '../../../src/core/budget/budgetPool.js';
import { createBackendStrict } from '../../../src/core/llm/factory.js';
import { MemorySecretStore } from '../../../src/core/secrets/secretStore.js';
import type { Provider } from '../../../src/core/world/types.js';
import { reply, useSharedStubLlm } from '../../support/stubLlm.js';
import { agentSpec, modelTemplate, simpleToolBox, TurnHarness } from '../../support/turnHarness.js';

const stub = useSharedStubLlm();

function harness(provider: Provider, maxRetries = 1): { h: TurnHarness; retries: number[] } {
  const retries: number[] = [];
  const template = { ...modelTemplate(), baseUrl: stub.baseUrl, provider, maxRetries };
  const backend = createBackendStrict(template, new MemorySecretStore({}), {
    // No real backoff in tests: the retry itself is what is checked.
    sleep: async () => {},
    onRetry: (attempt) => retries.push(attempt),
  });
  const tools = simpleToolBox({
    lookup: (args) => `result for ${String(args.q)}`,
    same: () => 'always the same',
  });
  return { h: new TurnHarness([{ spec: agentSpec('a'), backend, tools, template }]), retries };
}

describe.each<[string, Provider]>([
  ['openai-compat', 'open_ai_compat'],
  ['anthropic', 'anthropic'],
])('turn engine over %s', (_label, provider) => {
  it('runs a multi-round tool loop', async () => {
    const { h } = harness(provider);
    stub.enqueueAll([
      reply.tool('lookup', { q: 1 }, { usage: { prompt: 100, completion: 10 } }),
      reply.tool('lookup', { q: 2 }, { usage: { prompt: 130, completion: 10 } }),
      reply.text('the answer', { usage: { prompt: 160, completion: 5 } }),
    ]);
    const r = await h.send('a', 'find it');
    expect(r.outcome).toEqual({ kind: 'finish', text: 'the answer' });
    expect(r.rounds).toBe(3);
    expect(r.spend).toMatchObject({ prompt: 390, completion: 25 });
    expect(stub.count).toBe(3);
    expect(JSON.stringify(stub.requests[2]!.body)).toContain('result for 2');
    expect(stub.requests[0]!.lastUserText).toBe('【Sender: User】\nfind it');
  });

  it('cuts a repeated call and makes a summary call', async () => {
    const { h } = harness(provider);
    stub.enqueueAll([reply.tool('same', { q: 1 }), reply.tool('same', { q: 1 }), reply.tool('same', { q: 1 }), reply.text('summary')]);
    const r = await h.send('a', 'loop');
    expect(r.stop).toEqual({ kind: 'repeat', tool: 'same' });
    expect(r.outcome).toEqual({ kind: 'finish', text: 'summary' });
    expect(stub.count).toBe(4);
    const toolChoice = stub.requests[3]!.body!.tool_choice;
    expect(JSON.stringify(toolChoice)).toContain('none');
  });

  it('stops on the budget before a call that does not fit', async () => {
    const { h } = harness(provider);
    stub.respond(() => reply.tool('lookup', { q: Date.now() }, { usage: { prompt: 800, completion: 0 } }));
    const pool = BudgetPool.forTokens(1_500);
    const r = await h.send('a', 'spend', { budget: pool });
    expect(r.stop).toEqual({ kind: 'reserve_short' });
    expect(stub.count).toBe(1);
    expect(pool.remainingMilli()).toBe(700_000);
  });

  it('a 401 propagates as a non-retryable error without retrying', async () => {
    const { h, retries } = harness(provider, 3);
    stub.enqueue(reply.error(401));
    await expect(h.send('a', 'x')).rejects.toMatchObject({ code: 'LLM_API', retryable: false });
    expect(stub.count).toBe(1);
    expect(retries).toEqual([]);
  });

  it('a 503 is retried and the turn completes', async () => {
    const { h, retries } = harness(provider, 3);
    stub.enqueueAll([reply.error(503), reply.text('recovered', { usage: { prompt: 10, completion: 2 } })]);
    const r = await h.send('a', 'x');
    expect(r.outcome).toEqual({ kind: 'finish', text: 'recovered' });
    expect(stub.count).toBe(2);
    expect(retries).toHaveLength(1);
  });
});

/** Streaming, provider notes and attachments through the real engine and real HTTP backends. */
function streamingHarness(provider: Provider): TurnHarness {
  const template = { ...modelTemplate(), baseUrl: stub.baseUrl, provider, stream: true, maxRetries: 1 };
  const backend = createBackendStrict(template, new MemorySecretStore({}), { sleep: async () => {} });
  return new TurnHarness([{ spec: agentSpec('a'), backend, tools: simpleToolBox({ lookup: () => 'r' }), template }]);
}

describe.each<[string, Provider]>([
  ['gemini', 'gemini'],
  ['anthropic', 'anthropic'],
  ['open_ai_responses', 'open_ai_responses'],
])('turn engine, streaming over %s', (_label, provider) => {
  it('passes each round\'s pieces on, tagged with the round; tool calls never stream', async () => {
    const h = streamingHarness(provider);
    stub.enqueueAll([reply.tool('lookup', { q: 1 }), reply.text('the final answer', { thinking: 'weighing it' })]);
    const r = await h.send('a', 'go');
    expect(r.outcome).toEqual({ kind: 'finish', text: 'the final answer' });
    const round2 = h.deltas.filter((d) => d.round === 2 && d.delta.kind === 'text');
    expect(round2.map((d) => (d.delta.kind === 'text' ? d.delta.text : '')).join('')).toBe('the final answer');
    expect(h.deltas.every((d) => d.round === 2)).toBe(true);
    expect(r.reasoningSummary).toEqual(['weighing it']);
  });

  it('an interrupt mid-stream ends the turn interrupted at once, with what was paid recorded', async () => {
    const h = streamingHarness(provider);
    stub.enqueue({ ...reply.text('a long answer that keeps going and going', { usage: { prompt: 300 } }), stallAfterChunks: 3 });
    const controller = new AbortController();
    const turn = h.send('a', 'talk', { signal: controller.signal });
    await stub.waitForFirstByte(0);
    while (h.deltas.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const r = await turn;
    expect(r.stop).toEqual({ kind: 'interrupted' });
    await stub.waitForClose(0);
    // Paid: the prompt (reported by message_start on Anthropic, else estimated from what was sent) and what streamed.
    expect(r.spend.prompt).toBeGreaterThan(0);
    expect(r.spend.completion).toBeGreaterThan(0);
    expect(r.rounds).toBe(1);
  });
});

describe('turn engine: what rides next to the reply', () => {
  it('grounding of every round is merged (deduplicated) into the result', async () => {
    const h = streamingHarness('gemini');
    stub.enqueueAll([
      reply.toolCalls([{ name: 'lookup', args: { q: 1 } }], { text: '' }),
      reply.text('answer', { grounding: { queries: ['q'], sources: [{ uri: 'https://a.example/', title: 'A' }, { uri: 'https://a.example/', title: 'A' }] } }),
    ]);
    const r = await h.send('a', 'search');
    expect(r.grounding).toEqual({ queries: ['q'], sources: [{ uri: 'https://a.example/', title: 'A' }], engine: 'google' });
  });

  it('an attachment rides on this turn\'s user message only, and the folded text names it', async () => {
    const h = streamingHarness('gemini');
    const png = { mediaType: 'image/png' as const, data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]).toString('base64'), fileName: 'shot.png' };
    stub.enqueueAll([reply.text('a chart'), reply.text('again')]);
    await h.send('a', 'what is this?', { attachments: [png] });
    await h.send('a', 'and now?');
    const first = JSON.stringify(stub.requests[0]!.body);
    expect(first).toContain(png.data);
    expect(stub.requests[0]!.lastUserText).toContain('[Attached: shot.png (image)]');
    // The next turn keeps the note in history, never the bytes.
    const second = JSON.stringify(stub.requests[1]!.body);
    expect(second).not.toContain(png.data);
    expect(second).toContain('[Attached: shot.png (image)]');
  });
});
