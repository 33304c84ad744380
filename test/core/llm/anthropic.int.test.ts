import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBackend } from '../../../src/core/llm/factory.js';
import type { ChatMessage } from '../../../src/core/llm/canonical.js';
import { MemorySecretStore } from '../../../src/core/secrets/secretStore.js';
import { reply, startStubLlm, type StubLlm } from '../../support/stubLlm.js';
import { GREP_TOOL, request, template } from './fixtures.js';

let stub: StubLlm;
beforeEach(async () => {
  stub = await startStubLlm();
});
afterEach(async () => {
  await stub.close();
});

const claude = (model = 'claude-test', stream = false) =>
  createBackend(template(stub.baseUrl, { provider: 'anthropic', credential: 'keyring', model, stream }), new MemorySecretStore({ 'tpl-test': 'sk-ant-test' })).backend;
const TTL_1H = { type: 'ephemeral', ttl: '1h' };

const STABLE = 'Ordinance. '.repeat(1000); // ~2,750 approx tokens: above the cache minimum

describe('Anthropic backend against the stub', () => {
  it('sends auth, version and the extended-TTL beta header, and maps text and usage (prompt = input + cache read + cache write)', async () => {
    stub.enqueue(reply.text('hello back', { usage: { prompt: 1000, completion: 12, cacheRead: 700, cacheWrite: 200, cacheWrite1h: 200 } }));
    const backend = claude();
    expect(backend.name).toBe('anthropic');
    const res = await backend.chat(request({ model: 'claude-test' }));
    expect(res).toEqual({ text: 'hello back', toolCalls: [], finish: 'stop', usage: { prompt: 1000, completion: 12, cacheRead: 700, cacheWrite: 200, cacheWrite1h: 200, reasoning: 0 } });
    const sent = stub.requests[0]!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('sk-ant-test');
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    // Without this beta a 1-hour ttl is silently ignored and the cache falls back to 5 minutes.
    expect(sent.headers['anthropic-beta']).toBe('extended-cache-ttl-2025-04-11');
    expect(sent.headers).not.toHaveProperty('authorization');
    expect(sent.body).not.toHaveProperty('thinking');
    expect(sent.body).toMatchObject({ model: 'claude-test', max_tokens: 256, system: [{ type: 'text', text: 'You are a test.' }] });
  });

  it('round-trips tool_use and tool_result (results in the user role, merged, empties dropped)', async () => {
    stub.enqueue(reply.toolCalls([{ name: 'grep', args: { q: 'x' }, id: 'toolu_1' }, { name: 'grep', args: { q: 'y' }, id: 'toolu_2' }]));
    stub.enqueue(reply.text('done'));
    const backend = claude();
    const first = await backend.chat(request({ tools: [GREP_TOOL], toolChoice: 'required' }));
    expect(first.finish).toBe('tool_use');
    expect(first.toolCalls.map((c) => c.args)).toEqual([{ q: 'x' }, { q: 'y' }]);
    const history: ChatMessage[] = [
      ...request().messages,
      { role: 'assistant', content: '', toolCalls: first.toolCalls },
      { role: 'tool', content: 'r1', toolCallId: 'toolu_1', toolName: 'grep' },
      { role: 'tool', content: 'r2', toolCallId: 'toolu_2', toolName: 'grep' },
      { role: 'user', content: '' },
    ];
    await backend.chat(request({ messages: history, tools: [GREP_TOOL], toolChoice: { name: 'grep' } }));
    const body = stub.requests[1]!.body!;
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hello' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'grep', input: { q: 'x' } },
          { type: 'tool_use', id: 'toolu_2', name: 'grep', input: { q: 'y' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'r1' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'r2' },
        ],
      },
    ]);
    expect(body.tools).toEqual([{ name: 'grep', description: 'Search files', input_schema: GREP_TOOL.parameters }]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'grep' });
    expect(stub.requests[0]!.body!.tool_choice).toEqual({ type: 'any' });
  });

  it('places cache_control at the stable prefix of a large system prompt, and on the last message block', async () => {
    stub.enqueue(reply.text('ok'));
    const messages: ChatMessage[] = [
      { role: 'system', content: STABLE },
      { role: 'system', content: 'Roster: a, b' },
      { role: 'user', content: 'question' },
    ];
    await claude().chat(request({ messages, cacheablePrefixLen: STABLE.length }));
    const body = stub.requests[0]!.body!;
    expect(body.system).toEqual([
      { type: 'text', text: STABLE, cache_control: TTL_1H },
      { type: 'text', text: '\n\nRoster: a, b' },
    ]);
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'question', cache_control: TTL_1H }] }]);
  });

  it('the rolling breakpoint counts the conversation: a long tool result moves it to the last block', async () => {
    stub.enqueue(reply.text('ok'));
    const messages: ChatMessage[] = [
      { role: 'system', content: 'short system' },
      { role: 'user', content: 'look' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_1', name: 'grep', args: { q: 'x' } }] },
      { role: 'tool', content: 'line\n'.repeat(2000), toolCallId: 'toolu_1', toolName: 'grep' },
    ];
    await claude().chat(request({ messages, cacheablePrefixLen: 5 }));
    const body = stub.requests[0]!.body as { system: unknown[]; messages: Array<{ content: Array<Record<string, unknown>> }> };
    // The system prefix alone is far below the minimum: no breakpoint there…
    expect(body.system).toEqual([{ type: 'text', text: 'short system' }]);
    // …but tools + system + history reach it, so the last block (the tool result) carries the 1-hour breakpoint.
    expect(body.messages.at(-1)!.content.at(-1)).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', cache_control: TTL_1H });
  });

  it.each([
    ['claude-sonnet-5', true],
    ['claude-opus-5-20260301', true],
    ['claude-haiku-4-5-20251001', false],
    ['claude-3-5-sonnet-20241022', false],
    ['claude-sonnet-5-preview', false],
  ])('adaptive thinking for %s: %s', async (model, sent) => {
    stub.enqueue(reply.text('ok'));
    await claude(model).chat(request({ model }));
    if (sent) expect(stub.requests[0]!.body!.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    else expect(stub.requests[0]!.body).not.toHaveProperty('thinking');
  });

  it.each([false, true])('thinking is shown as thinking, never as the answer, and returns signed with the tool round (stream %s)', async (stream) => {
    stub.enqueue(reply.toolCalls([{ name: 'grep', args: { q: 'x' }, id: 'toolu_9' }], { thinking: 'I should search first.' }));
    stub.enqueue(reply.text('done', { thinking: 'The result answers it.' }));
    const backend = claude('claude-sonnet-5', stream);
    const first = await backend.chat(request({ model: 'claude-sonnet-5', tools: [GREP_TOOL] }));
    expect(first.text).toBeNull();
    expect(first.reasoningSummary).toEqual(['I should search first.']);
    const history: ChatMessage[] = [
      ...request().messages,
      { role: 'assistant', content: '', toolCalls: first.toolCalls },
      { role: 'tool', content: 'r', toolCallId: 'toolu_9', toolName: 'grep' },
    ];
    const second = await backend.chat(request({ model: 'claude-sonnet-5', messages: history, tools: [GREP_TOOL] }));
    expect(second).toMatchObject({ text: 'done', reasoningSummary: ['The result answers it.'] });
    const assistant = (stub.requests[1]!.body!.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>)[1]!;
    expect(assistant.role).toBe('assistant');
    expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: 'I should search first.', signature: 'sig-0' });
    expect(assistant.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_9' });
  });

  it('sends no cache_control when the prompt is small', async () => {
    stub.enqueue(reply.text('ok'));
    await claude().chat(request({ cacheablePrefixLen: 10 }));
    expect(JSON.stringify(stub.requests[0]!.body)).not.toContain('cache_control');
  });

  it('raises LLM_OUTPUT_TRUNCATED on max_tokens with no content', async () => {
    stub.enqueue(reply.text('', { finish: 'length', usage: { prompt: 30, completion: 256 } }));
    await expect(claude().chat(request())).rejects.toMatchObject({ code: 'LLM_OUTPUT_TRUNCATED', usage: { prompt: 30, completion: 256 } });
  });
});
