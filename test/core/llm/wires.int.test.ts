/**
 * Every wire, streamed and not, against the loopback stub speaking that provider's real shapes: auth header,
 * text and usage mapping (prompt, cached, cache write 5 min / 1 h, output, reasoning), thinking kept apart, the
 * tool round trip, retries on 429/5xx, a stop on 400/401, truncation, the safety block, and — streamed — the
 * pieces as they arrive, an in-stream error event, and an interrupt that closes the connection at once.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage, StreamDelta, Usage } from '../../../src/core/llm/canonical.js';
import { createBackend } from '../../../src/core/llm/factory.js';
import { MemorySecretStore } from '../../../src/core/secrets/secretStore.js';
import type { Provider } from '../../../src/core/world/types.js';
import { reply, useSharedStubLlm, type StubWire } from '../../support/stubLlm.js';
import { GREP_TOOL, request, template } from './fixtures.js';

const stub = useSharedStubLlm();

const KEY = 'sk-wire-test-key';

interface WireCase {
  provider: Exclude<Provider, 'echo'>;
  wire: StubWire;
  path: RegExp;
  auth: [header: string, value: string];
  /** What the canonical usage below reads back as on this wire. */
  usage: Usage;
  thinks: boolean;
}

const SENT = { prompt: 1000, completion: 50, cacheRead: 600, cacheWrite: 200, cacheWrite1h: 150, reasoning: 20 };
const openAiLike = { prompt: 1000, completion: 50, cacheRead: 600, cacheWrite: 200, cacheWrite1h: 0, reasoning: 20 };

const CASES: WireCase[] = [
  { provider: 'open_ai_compat', wire: 'openai', path: /^\/v1\/chat\/completions$/, auth: ['authorization', `Bearer ${KEY}`], usage: openAiLike, thinks: false },
  { provider: 'anthropic', wire: 'anthropic', path: /^\/v1\/messages$/, auth: ['x-api-key', KEY], usage: SENT, thinks: true },
  {
    provider: 'gemini',
    wire: 'gemini',
    path: /^\/v1\/models\/test-model:(generateContent|streamGenerateContent)$/,
    auth: ['x-goog-api-key', KEY],
    usage: { prompt: 1000, completion: 50, cacheRead: 600, cacheWrite: 0, cacheWrite1h: 0, reasoning: 20 },
    thinks: true,
  },
  { provider: 'open_ai_responses', wire: 'responses', path: /^\/v1\/responses$/, auth: ['authorization', `Bearer ${KEY}`], usage: openAiLike, thinks: true },
  { provider: 'xai_responses', wire: 'responses', path: /^\/v1\/responses$/, auth: ['authorization', `Bearer ${KEY}`], usage: openAiLike, thinks: true },
  { provider: 'meta_responses', wire: 'responses', path: /^\/v1\/responses$/, auth: ['authorization', `Bearer ${KEY}`], usage: openAiLike, thinks: true },
];

const MATRIX = CASES.flatMap((c) => [
  { ...c, stream: false, label: `${c.provider} (whole body)` },
  { ...c, stream: true, label: `${c.provider} (stream)` },
]);

function backend(c: WireCase & { stream: boolean }) {
  const t = template(stub.baseUrl, { provider: c.provider, credential: 'keyring', stream: c.stream, maxRetries: 3 });
  return createBackend(t, new MemorySecretStore({ 'tpl-test': KEY }), 'strict', { sleep: () => Promise.resolve() }).backend;
}

describe.each(MATRIX)('$label against the stub', (c) => {
  it('answers with the text, the wire\'s auth header, and the usage mapped field by field', async () => {
    stub.enqueue(reply.text('Hello from the stub, in pieces.', { usage: SENT, thinking: 'First I consider the question.' }));
    const deltas: StreamDelta[] = [];
    const res = await backend(c).chat(request(), { onDelta: (d) => deltas.push(d) });
    expect(res.text).toBe('Hello from the stub, in pieces.');
    expect(res.finish).toBe('stop');
    expect(res.usage).toEqual(c.usage);
    if (c.thinks) expect(res.reasoningSummary).toEqual(['First I consider the question.']);
    expect(res.text).not.toContain('consider');
    const sent = stub.requests[0]!;
    expect(sent.wire).toBe(c.wire);
    expect(sent.path).toMatch(c.path);
    expect(sent.stream).toBe(c.stream);
    expect(sent.headers[c.auth[0]]).toBe(c.auth[1]);
    const text = deltas.filter((d) => d.kind === 'text').map((d) => (d.kind === 'text' ? d.text : '')).join('');
    if (c.stream) {
      // The answer arrives in pieces, and the pieces add up to exactly the answer.
      expect(deltas.filter((d) => d.kind === 'text').length).toBeGreaterThan(3);
      expect(text).toBe(res.text);
      if (c.thinks) expect(deltas.some((d) => d.kind === 'thinking')).toBe(true);
    } else {
      expect(deltas).toEqual([]);
    }
  });

  it('round-trips a tool call: the call comes back whole, and its result goes out on the next request', async () => {
    stub.enqueue(reply.toolCalls([{ name: 'grep', args: { q: 'needle', n: 2 }, id: 'call_rt1' }]));
    stub.enqueue(reply.text('found it'));
    const b = backend(c);
    const first = await b.chat(request({ tools: [GREP_TOOL] }));
    expect(first.finish).toBe('tool_use');
    expect(first.toolCalls).toHaveLength(1);
    expect(first.toolCalls[0]).toMatchObject({ name: 'grep', args: { q: 'needle', n: 2 } });
    const id = first.toolCalls[0]!.id;
    const history: ChatMessage[] = [
      ...request().messages,
      { role: 'assistant', content: '', toolCalls: first.toolCalls },
      { role: 'tool', content: 'a.txt:1:needle', toolCallId: id, toolName: 'grep' },
    ];
    const second = await b.chat(request({ messages: history, tools: [GREP_TOOL] }));
    expect(second.text).toBe('found it');
    const body = JSON.stringify(stub.requests[1]!.body);
    expect(body).toContain('a.txt:1:needle');
    expect(body).toContain('needle');
    expect(body).toContain('grep');
  });

  it('retries 429 and 5xx (with the provider\'s error bodies), then answers', async () => {
    stub.enqueue(reply.error(429));
    stub.enqueue(reply.error(c.wire === 'anthropic' ? 529 : 503));
    stub.enqueue(reply.text('third time'));
    await expect(backend(c).chat(request())).resolves.toMatchObject({ text: 'third time' });
    expect(stub.count).toBe(3);
  });

  it.each([400, 401])('stops on %i at once: LLM_API, not retried, the fix in the error', async (status) => {
    stub.enqueue(reply.error(status));
    const err = await backend(c).chat(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LLM_API', retryable: false, status });
    expect(stub.count).toBe(1);
  });

  it('an answer cut at the token limit with nothing in it is LLM_OUTPUT_TRUNCATED carrying the paid usage', async () => {
    stub.enqueue(reply.text('', { finish: 'length', usage: { prompt: 40, completion: 256 } }));
    const err = await backend(c).chat(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LLM_OUTPUT_TRUNCATED', retryable: false, usage: { prompt: 40, completion: 256 } });
    expect(stub.count).toBe(1);
  });

  it('a safety block is LLM_BLOCKED (paid, not retried), never an empty answer', async () => {
    stub.enqueue(reply.blocked({ prompt: 30, completion: 0 }));
    const err = await backend(c).chat(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LLM_BLOCKED', retryable: false, usage: { prompt: 30 } });
    expect(stub.count).toBe(1);
  });

  it.runIf(c.stream)('an in-stream error event after some text: 5xx is retried (the shown text is withdrawn), 400 is not', async () => {
    stub.enqueue(reply.streamError('partial ans', 500));
    stub.enqueue(reply.text('complete answer'));
    const deltas: StreamDelta[] = [];
    const res = await backend(c).chat(request(), { onDelta: (d) => deltas.push(d) });
    expect(res.text).toBe('complete answer');
    expect(deltas.map((d) => d.kind)).toContain('restart');
    const after = deltas.slice(deltas.findIndex((d) => d.kind === 'restart') + 1);
    expect(after.map((d) => (d.kind === 'text' ? d.text : '')).join('')).toBe('complete answer');
    stub.enqueue(reply.streamError('bad', 400));
    await expect(backend(c).chat(request())).rejects.toMatchObject({ code: 'LLM_API', retryable: false });
    expect(stub.count).toBe(3);
  });

  it.runIf(c.stream)('an interrupt mid-stream aborts the request at once: the stub sees the connection closed', async () => {
    stub.enqueue({ ...reply.text('This answer never finishes because the person stops it.', { usage: { prompt: 70 } }), stallAfterChunks: 2 });
    const controller = new AbortController();
    let pieces = 0;
    const call = backend(c).chat(request(), {
      signal: controller.signal,
      onDelta: (d) => {
        if (d.kind === 'text' && ++pieces === 2) controller.abort();
      },
    });
    const err = await call.catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'AbortError' });
    // What the provider had started billing travels with the interruption (prompt known, or estimated later).
    expect((err as { received?: string }).received).toBe('This ans');
    await stub.waitForClose(0);
    expect(stub.requests[0]!.closedEarly).toBe(true);
    expect(stub.count).toBe(1);
  });
});
