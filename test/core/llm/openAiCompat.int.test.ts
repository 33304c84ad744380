import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBackend } from '../../../src/core/llm/factory.js';
import type { ChatMessage } from '../../../src/core/llm/canonical.js';
import { MemorySecretStore } from '../../../src/core/secrets/secretStore.js';
import { reply, startStubLlm, type StubLlm } from '../../support/stubLlm.js';
import type { ModelTemplate } from '../../../src/core/world/types.js';
import { GREP_TOOL, request, template } from './fixtures.js';

let stub: StubLlm;
beforeEach(async () => {
  stub = await startStubLlm();
});
afterEach(async () => {
  await stub.close();
});

const compat = (over: Partial<ModelTemplate> = {}) => createBackend(template(stub.baseUrl, { stream: false, ...over }), new MemorySecretStore({ 'tpl-test': 'sk-test-key' })).backend;

describe('OpenAI-compatible backend against the stub', () => {
  it('sends a text request and maps the reply and usage (incl. cached and reasoning)', async () => {
    stub.enqueue(reply.text('hi there', { usage: { prompt: 120, completion: 9, cacheRead: 100, reasoning: 4 } }));
    const backend = compat({ credential: 'keyring' });
    expect(backend.name).toBe('openai-compat');
    const res = await backend.chat(request({ temperature: 0.3 }));
    expect(res).toEqual({ text: 'hi there', toolCalls: [], finish: 'stop', usage: { prompt: 120, completion: 9, cacheRead: 100, cacheWrite: 0, cacheWrite1h: 0, reasoning: 4 } });
    const sent = stub.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test-key');
    expect(sent.body).toMatchObject({ model: 'test-model', max_tokens: 256, temperature: 0.3 });
    expect(sent.body).not.toHaveProperty('tools');
  });

  it('omits the Authorization header when no key is required', async () => {
    stub.enqueue(reply.text('ok'));
    await compat().chat(request());
    expect(stub.requests[0]!.headers).not.toHaveProperty('authorization');
    expect(stub.requests[0]!.body).not.toHaveProperty('temperature');
  });

  it('round-trips tool calls: decoded calls, then assistant tool_calls and tool results in the next request', async () => {
    stub.enqueue(reply.toolCalls([{ name: 'grep', args: { q: 'needle' }, id: 'call_1' }]));
    stub.enqueue(reply.text('found it'));
    const backend = compat();
    const first = await backend.chat(request({ tools: [GREP_TOOL], toolChoice: 'required' }));
    expect(first.finish).toBe('tool_use');
    expect(first.toolCalls).toEqual([{ id: 'call_1', name: 'grep', args: { q: 'needle' } }]);
    const history: ChatMessage[] = [
      ...request().messages,
      { role: 'assistant', content: '', toolCalls: first.toolCalls },
      { role: 'tool', content: 'a.txt:1:needle', toolCallId: 'call_1', toolName: 'grep' },
    ];
    const second = await backend.chat(request({ messages: history, tools: [GREP_TOOL], toolChoice: { name: 'grep' } }));
    expect(second.text).toBe('found it');
    const body = stub.requests[1]!.body!;
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'grep', arguments: '{"q":"needle"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'a.txt:1:needle' },
    ]);
    expect(body.tools).toEqual([{ type: 'function', function: GREP_TOOL }]);
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'grep' } });
    expect(stub.requests[0]!.body!.tool_choice).toBe('required');
  });

  it('raises LLM_PARSE (not retried) on tool arguments that are not JSON', async () => {
    stub.enqueue(reply.toolCalls([{ name: 'grep', rawArgs: '{"q": broken' }]));
    await expect(compat().chat(request({ tools: [GREP_TOOL] }))).rejects.toMatchObject({ code: 'LLM_PARSE', retryable: false });
    expect(stub.count).toBe(1);
  });

  it('raises LLM_OUTPUT_TRUNCATED carrying the paid usage when the limit cut an empty reply', async () => {
    stub.enqueue(reply.text('', { finish: 'length', usage: { prompt: 50, completion: 256 } }));
    const err = await compat().chat(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LLM_OUTPUT_TRUNCATED', retryable: false, usage: { prompt: 50, completion: 256 } });
    expect(stub.count).toBe(1);
  });

  it('uses max_completion_tokens for gpt-5 and o-series models', async () => {
    stub.enqueue(reply.text('a'));
    stub.enqueue(reply.text('b'));
    await compat().chat(request({ model: 'gpt-5-mini' }));
    await compat().chat(request({ model: 'o3' }));
    for (const r of stub.requests) {
      expect(r.body).toHaveProperty('max_completion_tokens', 256);
      expect(r.body).not.toHaveProperty('max_tokens');
    }
  });

  it('asks a stream for its usage (stream_options.include_usage) and reads it from the last chunk', async () => {
    stub.enqueue(reply.text('streamed', { usage: { prompt: 77, completion: 3, cacheRead: 40 } }));
    const res = await compat({ stream: true }).chat(request());
    expect(res.usage).toMatchObject({ prompt: 77, completion: 3, cacheRead: 40 });
    expect(stub.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('useTools=false sends no native tools: the first tool\'s JSON schema goes as a last system instruction', async () => {
    stub.enqueue(reply.text('{"q":"x"}'));
    await compat({ useTools: false }).chat(request({ tools: [GREP_TOOL], toolChoice: 'auto' }));
    const body = stub.requests[0]!.body!;
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
    const last = (body.messages as Array<{ role: string; content: string }>).at(-1)!;
    expect(last.role).toBe('system');
    expect(last.content).toContain(JSON.stringify(GREP_TOOL.parameters));
    expect(last.content).toContain('ONE JSON object');
  });

  it.each([
    ['gpt-5-mini', 'high', true, 'none'],
    ['gpt-5-mini', 'high', false, undefined],
    ['o3', null, false, 'low'],
    ['o4-mini', 'max', true, 'high'],
    ['grok-4.3', null, false, 'none'],
    ['grok-4.5-fast', 'medium', true, 'medium'],
    ['gpt-4o', 'high', true, undefined],
  ] as const)('effort on %s (template %s, tools %s) → reasoning_effort %s', async (model, effort, tools, wire) => {
    stub.enqueue(reply.text('ok'));
    await compat({ model }).chat(request({ model, effort, tools: tools ? [GREP_TOOL] : [] }));
    expect(stub.requests[0]!.body!.reasoning_effort).toBe(wire);
  });
});
