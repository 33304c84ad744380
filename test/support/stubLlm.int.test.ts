import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startStubLlm, type StubLlm } from './stubLlm.js';

let stub: StubLlm;
beforeEach(async () => {
  stub = await startStubLlm();
});
afterEach(async () => {
  await stub.close();
});

const post = async (path: string, body: unknown): Promise<{ status: number; json: unknown }> => {
  const res = await fetch(`${stub.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as unknown };
};

describe('stub LLM', () => {
  it('serves scripted steps in order on the OpenAI wire, then echoes', async () => {
    stub.enqueue(reply.text('one', { usage: { prompt: 7, completion: 2, cacheRead: 3 } }));
    stub.enqueue(reply.tool('grep', { q: 'x' }));
    const msgs = { model: 'm', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'hello' }] };
    const a = await post('/chat/completions', msgs);
    expect(a.json).toMatchObject({ choices: [{ message: { content: 'one' } }] });
    expect(a.json).toMatchObject({ usage: { prompt_tokens: 7, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 3 } } });
    const b = await post('/chat/completions', msgs);
    expect(b.json).toMatchObject({ choices: [{ finish_reason: 'tool_calls', message: { tool_calls: [{ function: { name: 'grep', arguments: '{"q":"x"}' } }] } }] });
    const c = await post('/chat/completions', msgs);
    expect(c.json).toMatchObject({ choices: [{ message: { content: '[stub] hello' } }] });
    expect(stub.count).toBe(3);
    expect(stub.requests[0]).toMatchObject({ wire: 'openai', model: 'm', system: 'sys', lastUserText: 'hello' });
  });

  it('speaks the Anthropic wire with usage split into uncached, read and write', async () => {
    stub.enqueue(reply.text('hi', { usage: { prompt: 100, completion: 5, cacheRead: 60, cacheWrite: 10 } }));
    const r = await post('/messages', { model: 'claude', system: [{ type: 'text', text: 'S' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }] });
    expect(r.json).toMatchObject({ type: 'message', stop_reason: 'end_turn', content: [{ type: 'text', text: 'hi' }] });
    expect(r.json).toMatchObject({ usage: { input_tokens: 30, output_tokens: 5, cache_read_input_tokens: 60, cache_creation_input_tokens: 10 } });
    expect(stub.requests[0]).toMatchObject({ wire: 'anthropic', system: 'S', lastUserText: 'q' });
  });

  it('routes matched steps per model and falls back to the responder', async () => {
    stub.enqueue(reply.text('for-b'), (r) => r.model === 'b');
    stub.respond((r) => reply.text(`model ${r.model}`));
    const a = await post('/chat/completions', { model: 'a', messages: [] });
    const b = await post('/chat/completions', { model: 'b', messages: [] });
    expect(a.json).toMatchObject({ choices: [{ message: { content: 'model a' } }] });
    expect(b.json).toMatchObject({ choices: [{ message: { content: 'for-b' } }] });
  });

  it('returns scripted HTTP errors and leaves a hang open until the client aborts', async () => {
    stub.enqueue(reply.error(503));
    const e = await post('/messages', { model: 'x', messages: [] });
    expect(e.status).toBe(503);
    expect(e.json).toMatchObject({ type: 'error' });
    stub.enqueue(reply.hang());
    const ctl = new AbortController();
    const pending = fetch(`${stub.baseUrl}/chat/completions`, { method: 'POST', body: '{}', signal: ctl.signal });
    await stub.waitForCount(2);
    ctl.abort();
    await expect(pending).rejects.toThrow();
  });
});
