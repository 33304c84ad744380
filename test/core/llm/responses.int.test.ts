/**
 * The three Responses dialects beyond what every wire shares (wires.int.test.ts): what each provider accepts in a
 * `/responses` request — store, include, reasoning (effort, summaries, Pro mode), temperature, tool choice, the
 * provider's own search tools — and what comes back: URL citations and touched sources, searches, x_search.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/core/llm/canonical.js';
import { createBackend } from '../../../src/core/llm/factory.js';
import { MemorySecretStore } from '../../../src/core/secrets/secretStore.js';
import type { ModelTemplate } from '../../../src/core/world/types.js';
import { reply, startStubLlm, type StubLlm } from '../../support/stubLlm.js';
import { GREP_TOOL, request, template } from './fixtures.js';

let stub: StubLlm;
beforeEach(async () => {
  stub = await startStubLlm();
});
afterEach(async () => {
  await stub.close();
});

const responses = (over: Partial<ModelTemplate>) =>
  createBackend(template(stub.baseUrl, { credential: 'keyring', stream: false, ...over }), new MemorySecretStore({ 'tpl-test': 'sk-r' })).backend;

describe('Responses dialects against the stub', () => {
  it('open_ai_responses: store false, reasoning with effort as given + detailed summaries, no temperature, web search + sources', async () => {
    stub.enqueue(reply.text('ok'));
    const backend = responses({ provider: 'open_ai_responses', openaiWebSearch: true, openaiReasoningPro: true });
    expect(backend.name).toBe('openai-responses');
    await backend.chat(request({ effort: 'xhigh', temperature: 0.7, tools: [GREP_TOOL], toolChoice: 'auto' }));
    const body = stub.requests[0]!.body!;
    expect(body).toMatchObject({
      model: 'test-model',
      store: false,
      max_output_tokens: 256,
      include: ['web_search_call.action.sources'],
      reasoning: { effort: 'xhigh', summary: 'detailed', context: 'current_turn', mode: 'pro' },
      tools: [{ type: 'web_search' }, { type: 'function', name: 'grep', description: 'Search files', parameters: GREP_TOOL.parameters }],
    });
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('tool_choice');
    expect(body.input).toEqual([
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: 'hello' },
    ]);
  });

  it('xai_responses: no_inline_citations, temperature kept, web and X search, required tool choice', async () => {
    stub.enqueue(reply.text('ok'));
    const backend = responses({ provider: 'xai_responses', xaiWebSearch: true, xaiXSearch: true });
    expect(backend.name).toBe('xai-responses');
    await backend.chat(request({ temperature: 0.3, effort: 'high', tools: [GREP_TOOL], toolChoice: 'required' }));
    const body = stub.requests[0]!.body!;
    expect(body).toMatchObject({ include: ['no_inline_citations'], store: false, temperature: 0.3, tool_choice: 'required' });
    expect(body.tools).toEqual([{ type: 'web_search' }, { type: 'x_search' }, expect.objectContaining({ type: 'function', name: 'grep' })]);
    expect(body).not.toHaveProperty('reasoning');
  });

  it('meta_responses: effort max is sent as its ceiling xhigh; no tool_choice, no store', async () => {
    stub.enqueue(reply.text('ok'));
    const backend = responses({ provider: 'meta_responses', metaWebSearch: true });
    expect(backend.name).toBe('meta-responses');
    await backend.chat(request({ effort: 'max', tools: [GREP_TOOL], toolChoice: { name: 'grep' } }));
    const body = stub.requests[0]!.body!;
    expect(body.reasoning).toEqual({ effort: 'xhigh' });
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('store');
    expect(body.tools).toEqual([{ type: 'web_search' }, expect.objectContaining({ name: 'grep' })]);
  });

  it.each(['open_ai_responses', 'xai_responses', 'meta_responses'] as const)('%s sends neither function nor search tools when the choice is none (a summary call never searches)', async (provider) => {
    stub.enqueue(reply.text('ok'));
    await responses({ provider, openaiWebSearch: true, xaiWebSearch: true, metaWebSearch: true }).chat(request({ tools: [GREP_TOOL], toolChoice: 'none' }));
    expect(stub.requests[0]!.body).not.toHaveProperty('tools');
  });

  it('the function call round trip uses call_id items and a string output', async () => {
    stub.enqueue(reply.toolCalls([{ name: 'grep', args: { q: 'n' }, id: 'call_abc' }], { text: 'Let me look.' }));
    stub.enqueue(reply.text('done'));
    const backend = responses({ provider: 'open_ai_responses' });
    const first = await backend.chat(request({ tools: [GREP_TOOL] }));
    expect(first).toMatchObject({ text: 'Let me look.', finish: 'tool_use', toolCalls: [{ id: 'call_abc', name: 'grep', args: { q: 'n' } }] });
    const history: ChatMessage[] = [
      ...request().messages,
      { role: 'assistant', content: 'Let me look.', toolCalls: first.toolCalls },
      { role: 'tool', content: 'r', toolCallId: 'call_abc', toolName: 'grep' },
    ];
    await backend.chat(request({ messages: history, tools: [GREP_TOOL] }));
    expect((stub.requests[1]!.body!.input as unknown[]).slice(2)).toEqual([
      { role: 'assistant', content: 'Let me look.' },
      { type: 'function_call', call_id: 'call_abc', name: 'grep', arguments: '{"q":"n"}' },
      { type: 'function_call_output', call_id: 'call_abc', output: 'r' },
    ]);
  });

  it.each([false, true])('web search: queries and cited sources (title kept) land in the grounding (stream %s)', async (stream) => {
    stub.enqueue(reply.text('Answer with a source.', { grounding: { queries: ['q1'], sources: [{ uri: 'https://e.org/x', title: 'E' }] } }));
    const res = await responses({ provider: 'open_ai_responses', openaiWebSearch: true, stream }).chat(request());
    expect(res.grounding).toEqual({ queries: ['q1'], sources: [{ uri: 'https://e.org/x', title: 'E' }], engine: 'openai' });
  });

  it('xAI x_search reported as a custom tool call with a JSON input still yields its query', async () => {
    stub.enqueue(
      reply.raw({
        status: 'completed',
        output: [
          { type: 'custom_tool_call', id: 'ct_1', input: '{"query":"fuseforks on X","limit":"5"}' },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Seen on X.', annotations: [{ type: 'url_citation', url: 'https://x.com/a/status/1', title: 'https://x.com/a/status/1' }] }] },
        ],
        usage: { input_tokens: 10, output_tokens: 4 },
      }),
    );
    const res = await responses({ provider: 'xai_responses', xaiXSearch: true }).chat(request());
    // A title that only repeats the URL is no title.
    expect(res.grounding).toEqual({ queries: ['fuseforks on X'], sources: [{ uri: 'https://x.com/a/status/1', title: '' }], engine: 'xai' });
  });

  it('bad function-call arguments are LLM_PARSE, not retried', async () => {
    stub.enqueue(reply.toolCalls([{ name: 'grep', rawArgs: '{"q": oops' }]));
    await expect(responses({ provider: 'open_ai_responses' }).chat(request({ tools: [GREP_TOOL] }))).rejects.toMatchObject({ code: 'LLM_PARSE', retryable: false });
    expect(stub.count).toBe(1);
  });
});
