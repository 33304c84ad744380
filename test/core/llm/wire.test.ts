import { describe, expect, it } from 'vitest';
import { approxTokens, decodeAnthropicResponse, encodeAnthropicMessages, encodeAnthropicRequest, systemBlocks } from '../../../src/core/llm/anthropicWire.js';
import { decodeOpenAiResponse, encodeOpenAiRequest, isReasoningModel } from '../../../src/core/llm/openAiCompat.js';
import { EchoBackend } from '../../../src/core/llm/echo.js';
import { effectiveProvider } from '../../../src/core/llm/factory.js';
import { addUsage, completionWithReasoning } from '../../../src/core/llm/usage.js';
import { responsesUsage } from '../../../src/core/llm/responsesWire.js';
import { GREP_TOOL, request } from './fixtures.js';

const choice = (message: Record<string, unknown>, finish_reason: string, usage: Record<string, unknown> = {}) => ({ choices: [{ message, finish_reason }], usage });

describe('OpenAI-compatible encode/decode', () => {
  it.each([
    ['gpt-5', true],
    ['gpt-5-mini', true],
    ['o1', true],
    ['o4-mini', true],
    ['gpt-4o', false],
    ['llama3.1', false],
    ['omni', false],
  ])('isReasoningModel(%s) = %s', (m, yes) => expect(isReasoningModel(m)).toBe(yes));

  it.each([
    ['none', 'none'],
    ['auto', 'auto'],
    ['required', 'required'],
  ] as const)('tool_choice %s', (c, wire) => expect(encodeOpenAiRequest(request({ tools: [GREP_TOOL], toolChoice: c })).tool_choice).toBe(wire));

  it('sends no tools and no tool_choice when there are no tools', () => {
    const body = encodeOpenAiRequest(request());
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
  });

  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['content_filter', 'other'],
  ])('finish %s → %s', (raw, mapped) => expect(decodeOpenAiResponse(choice({ content: 'x' }, raw), 1).finish).toBe(mapped));

  it('reports tool_use when calls come back with finish stop (Ollama)', () => {
    const res = decodeOpenAiResponse(choice({ content: null, tool_calls: [{ id: 'c', function: { name: 'grep', arguments: '' } }] }, 'stop'), 1);
    expect(res).toMatchObject({ finish: 'tool_use', text: null, toolCalls: [{ id: 'c', name: 'grep', args: {} }] });
  });

  it('maps usage incl. cached, cache-write and reasoning; missing = 0', () => {
    const u = { prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 4, cache_write_tokens: 2 }, completion_tokens_details: { reasoning_tokens: 3 } };
    expect(decodeOpenAiResponse(choice({ content: 'x' }, 'stop', u), 1).usage).toEqual({ prompt: 10, completion: 5, cacheRead: 4, cacheWrite: 2, cacheWrite1h: 0, reasoning: 3 });
    expect(decodeOpenAiResponse({ choices: [{ message: { content: 'x' }, finish_reason: 'stop' }] }, 1).usage).toEqual({ prompt: 0, completion: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 });
  });

  it.each([
    ['no choices', { choices: [] }, 'LLM_EMPTY_RESPONSE'],
    ['no body', null, 'LLM_EMPTY_RESPONSE'],
    ['bad args', choice({ tool_calls: [{ id: 'c', function: { name: 'g', arguments: '{' } }] }, 'tool_calls'), 'LLM_PARSE'],
    ['truncated', choice({ content: '' }, 'length'), 'LLM_OUTPUT_TRUNCATED'],
  ])('%s → %s', (_n, json, code) => expect(() => decodeOpenAiResponse(json, 8)).toThrow(expect.objectContaining({ code })));
});

describe('Anthropic encode/decode', () => {
  it.each([
    ['abcd', 1],
    ['abcdefgh', 2],
    ['日本語', 3],
    ['ab日本', 2],
  ])('approxTokens(%s) = %i', (t, n) => expect(approxTokens(t)).toBe(n));

  it.each([
    ['none', { type: 'none' }],
    ['auto', { type: 'auto' }],
    ['required', { type: 'any' }],
  ] as const)('tool_choice %s', (c, wire) => expect(encodeAnthropicRequest(request({ tools: [GREP_TOOL], toolChoice: c })).tool_choice).toEqual(wire));

  it('splits the system text at the prefix (code points) with the 1-hour TTL; past the end marks the whole block; 0 marks nothing', () => {
    const ttl = { type: 'ephemeral', ttl: '1h' };
    expect(systemBlocks('abcdef', 3, 5000)).toEqual([{ type: 'text', text: 'abc', cache_control: ttl }, { type: 'text', text: 'def' }]);
    expect(systemBlocks('日本語ab', 2, 5000)).toEqual([{ type: 'text', text: '日本', cache_control: ttl }, { type: 'text', text: '語ab' }]);
    expect(systemBlocks('abcdef', 99, 5000)).toEqual([{ type: 'text', text: 'abcdef', cache_control: ttl }]);
    expect(systemBlocks('abcdef', 0, 5000)).toEqual([{ type: 'text', text: 'abcdef' }]);
    // Below the minimum (tools + stable prefix < 2048 approx tokens) nothing is marked.
    expect(systemBlocks('abcdef', 3, 10)).toEqual([{ type: 'text', text: 'abcdef' }]);
  });

  it('counts tool tokens towards the cache threshold', () => {
    const bigTool = { ...GREP_TOOL, description: 'd'.repeat(9000) };
    const body = encodeAnthropicRequest(request({ tools: [bigTool], cacheablePrefixLen: 5 }));
    expect((body.system as Array<Record<string, unknown>>)[0]).toHaveProperty('cache_control');
    const small = encodeAnthropicRequest(request({ tools: [GREP_TOOL], cacheablePrefixLen: 5 }));
    expect(JSON.stringify(small)).not.toContain('cache_control');
  });

  it('merges same-role messages and drops empty ones', () => {
    expect(
      encodeAnthropicMessages([
        { role: 'user', content: 'a' },
        { role: 'user', content: '' },
        { role: 'user', content: 'b' },
        { role: 'assistant', content: '' },
      ]),
    ).toEqual([{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }]);
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool_use'],
    ['max_tokens', 'length'],
    ['refusal', 'other'],
  ])('stop_reason %s → %s', (raw, mapped) => {
    expect(decodeAnthropicResponse({ content: [{ type: 'text', text: 'x' }], stop_reason: raw }, 1).finish).toBe(mapped);
  });

  it('maps usage: prompt = input + cache read + cache write', () => {
    const res = decodeAnthropicResponse(
      { content: [{ type: 'text', text: 'x' }], stop_reason: 'end_turn', usage: { input_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 7 } },
      1,
    );
    expect(res.usage).toEqual({ prompt: 125, completion: 7, cacheRead: 100, cacheWrite: 20, cacheWrite1h: 0, reasoning: 0 });
  });

  it('takes the 1-hour part of the cache write from the cache_creation breakdown, never more than the write', () => {
    const usage = (u: Record<string, unknown>) => decodeAnthropicResponse({ content: [{ type: 'text', text: 'x' }], stop_reason: 'end_turn', usage: u }, 1).usage;
    const base = { input_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 7 };
    expect(usage({ ...base, cache_creation: { ephemeral_5m_input_tokens: 8, ephemeral_1h_input_tokens: 12 } })).toMatchObject({ cacheWrite: 20, cacheWrite1h: 12 });
    expect(usage({ ...base, cache_creation: { ephemeral_1h_input_tokens: 999 } })).toMatchObject({ cacheWrite: 20, cacheWrite1h: 20 });
  });

  it('an answer without content is LLM_EMPTY_RESPONSE', () => {
    expect(() => decodeAnthropicResponse({ type: 'message' }, 1)).toThrow(expect.objectContaining({ code: 'LLM_EMPTY_RESPONSE' }));
  });
});

describe('echo, provider detection, usage', () => {
  it('echo answers prefix + last user message with a chars/4 usage', async () => {
    const res = await new EchoBackend().chat(request({ messages: [{ role: 'system', content: 'abcd' }, { role: 'user', content: 'first' }, { role: 'assistant', content: 'x' }, { role: 'user', content: 'hey' }] }));
    expect(res).toEqual({ text: '[echo] hey', toolCalls: [], finish: 'stop', usage: { prompt: 4, completion: 3, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 } });
  });

  it.each([
    [null, 'https://api.anthropic.com/v1', 'anthropic'],
    [null, 'https://api.openai.com/v1', 'open_ai_compat'],
    [null, 'http://localhost:11434/v1', 'open_ai_compat'],
    ['anthropic', 'http://127.0.0.1:9/v1', 'anthropic'],
    ['echo', 'https://api.anthropic.com/v1', 'echo'],
  ] as const)('provider %s at %s → %s', (provider, baseUrl, expected) => expect(effectiveProvider({ provider, baseUrl })).toBe(expected));

  it.each([
    // [prompt, completion, reasoning, total] → completion with reasoning included
    ['OpenAI: reasoning inside completion_tokens', 10, 281, 255, 291, 281],
    ['xAI: reasoning beside completion_tokens (total = prompt + completion + reasoning)', 10, 26, 255, 291, 281],
    ['no total reported: inside (the OpenAI convention)', 10, 26, 255, 0, 26],
    ['a total that fits neither: inside, never counted twice', 10, 26, 255, 999, 26],
    ['no reasoning', 10, 26, 0, 36, 26],
  ])('completionWithReasoning — %s', (_name, prompt, completion, reasoning, total, expected) => {
    expect(completionWithReasoning({ prompt, completion, reasoning, total })).toBe(expected);
  });

  it('reads xAI usage on both OpenAI-shaped wires with its reasoning in the completion count', () => {
    // A recorded grok reply: 255 reasoning and 26 completion tokens, reasoning outside completion_tokens.
    const grok = { prompt_tokens: 663, completion_tokens: 26, total_tokens: 944, completion_tokens_details: { reasoning_tokens: 255 } };
    expect(decodeOpenAiResponse(choice({ content: 'x' }, 'stop', grok), 1).usage).toMatchObject({ prompt: 663, completion: 281, reasoning: 255 });
    expect(responsesUsage({ input_tokens: 663, output_tokens: 26, total_tokens: 944, output_tokens_details: { reasoning_tokens: 255 } })).toMatchObject({ completion: 281, reasoning: 255 });
    expect(responsesUsage({ input_tokens: 663, output_tokens: 281, total_tokens: 944, output_tokens_details: { reasoning_tokens: 255 } })).toMatchObject({ completion: 281, reasoning: 255 });
  });

  it('addUsage sums every field', () => {
    const u = { prompt: 1, completion: 2, cacheRead: 3, cacheWrite: 4, cacheWrite1h: 1, reasoning: 5 };
    expect(addUsage(u, u)).toEqual({ prompt: 2, completion: 4, cacheRead: 6, cacheWrite: 8, cacheWrite1h: 2, reasoning: 10 });
  });
});
