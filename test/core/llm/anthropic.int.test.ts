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

const claude = () =>
  createBackend(template(stub.baseUrl, { provider: 'anthropic', credential: 'keyring', model: 'claude-test' }), new MemorySecretStore({ 'tpl-test': 'sk-ant-test' })).backend;

const STABLE = 'Ordinance. '.repeat(1000); // ~2,750 approx tokens: above the cache minimum

describe('Anthropic backend against the stub', () => {
  it('sends auth headers and maps text and usage (prompt = input + cache read + cache write)', async () => {
    stub.enqueue(reply.text('hello back', { usage: { prompt: 1000, completion: 12, cacheRead: 700, cacheWrite: 200 } }));
    const backend = claude();
    expect(backend.name).toBe('anthropic');
    const res = await backend.chat(request({ model: 'claude-test' }));
    expect(res).toEqual({ text: 'hello back', toolCalls: [], finish: 'stop', usage: { prompt: 1000, completion: 12, cacheRead: 700, cacheWrite: 200, cacheWrite1h: 0, reasoning: 0 } });
    const sent = stub.requests[0]!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('sk-ant-test');
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers).not.toHaveProperty('authorization');
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
      { type: 'text', text: STABLE, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: '\n\nRoster: a, b' },
    ]);
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'question', cache_control: { type: 'ephemeral' } }] }]);
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
