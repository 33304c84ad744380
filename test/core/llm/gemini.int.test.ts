/**
 * The Gemini native wire beyond what every wire shares (wires.int.test.ts): the system instruction, function
 * declarations with the schema trimmed to what Gemini accepts, the thought signature travelling back on the call,
 * Google Search grounding with its sources, a prompt blocked before any candidate, and the streaming path.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/core/llm/canonical.js';
import { createBackend } from '../../../src/core/llm/factory.js';
import { sanitizeSchema } from '../../../src/core/llm/geminiSchema.js';
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

const gemini = (over: Partial<ModelTemplate> = {}) =>
  createBackend(template(stub.baseUrl, { provider: 'gemini', credential: 'keyring', model: 'gemini-2.5-flash', stream: false, ...over }), new MemorySecretStore({ 'tpl-test': 'AIza-test' })).backend;

describe('Gemini wire against the stub', () => {
  it('posts to /models/{model}:generateContent with x-goog-api-key, the system instruction apart, thoughts asked for', async () => {
    stub.enqueue(reply.text('hi'));
    const backend = gemini();
    expect(backend.name).toBe('gemini');
    await backend.chat(request({ model: 'gemini-2.5-flash', temperature: 0.2 }));
    const sent = stub.requests[0]!;
    expect(sent.path).toBe('/v1/models/gemini-2.5-flash:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe('AIza-test');
    expect(sent.headers).not.toHaveProperty('authorization');
    expect(sent.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'hello' }] }],
      systemInstruction: { parts: [{ text: 'You are a test.' }] },
      generationConfig: { temperature: 0.2, maxOutputTokens: 256, thinkingConfig: { includeThoughts: true } },
    });
  });

  it('streams through :streamGenerateContent?alt=sse', async () => {
    stub.enqueue(reply.text('streamed text here'));
    const res = await gemini({ stream: true }).chat(request({ model: 'gemini-2.5-flash' }));
    expect(res.text).toBe('streamed text here');
    expect(stub.requests[0]!.path).toBe('/v1/models/gemini-2.5-flash:streamGenerateContent');
    expect(stub.requests[0]!.stream).toBe(true);
  });

  it.each([false, true])('round-trips the thought signature on the function call, results as functionResponse (stream %s)', async (stream) => {
    stub.enqueue(reply.toolCalls([{ name: 'grep', args: { q: 'needle' }, signature: 'CiQB-signature==' }]));
    stub.enqueue(reply.text('found'));
    const backend = gemini({ stream });
    const first = await backend.chat(request({ tools: [GREP_TOOL], toolChoice: 'required' }));
    expect(first.finish).toBe('tool_use');
    expect(first.toolCalls[0]).toMatchObject({ name: 'grep', args: { q: 'needle' }, extra: { thoughtSignature: 'CiQB-signature==' } });
    const history: ChatMessage[] = [
      ...request().messages,
      { role: 'assistant', content: '', toolCalls: first.toolCalls },
      { role: 'tool', content: 'a.txt:1:needle', toolCallId: first.toolCalls[0]!.id, toolName: 'grep' },
    ];
    await backend.chat(request({ messages: history, tools: [GREP_TOOL], toolChoice: { name: 'grep' } }));
    const body = stub.requests[1]!.body!;
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'hello' }] },
      // No id came from Gemini, so none goes back; the signature does, unchanged.
      { role: 'model', parts: [{ functionCall: { name: 'grep', args: { q: 'needle' } }, thoughtSignature: 'CiQB-signature==' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'grep', response: { result: 'a.txt:1:needle' } } }] },
    ]);
    expect(body.tools).toEqual([{ functionDeclarations: [{ name: 'grep', description: 'Search files', parameters: GREP_TOOL.parameters }] }]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['grep'] } });
    expect(stub.requests[0]!.body!.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
  });

  it.each([false, true])('Google Search grounding: the tool is asked for and the queries and sources come back (stream %s)', async (stream) => {
    const grounding = { queries: ['fuseforks release'], sources: [{ uri: 'https://example.org/a', title: 'Example A' }] };
    stub.enqueue(reply.text('It shipped.', { grounding }));
    const res = await gemini({ googleSearch: true, stream }).chat(request({ tools: [GREP_TOOL] }));
    expect(res.grounding).toEqual({ queries: ['fuseforks release'], sources: [{ uri: 'https://example.org/a', title: 'Example A' }], engine: 'google' });
    const body = stub.requests[0]!.body!;
    expect(body.tools).toEqual([{ google_search: {} }, { functionDeclarations: [expect.objectContaining({ name: 'grep' })] }]);
    expect(body.toolConfig).toMatchObject({ includeServerSideToolInvocations: true });
  });

  it('googleSearch is ignored on every other wire', async () => {
    stub.enqueue(reply.text('ok'));
    await createBackend(template(stub.baseUrl, { provider: 'open_ai_compat', googleSearch: true, stream: false }), new MemorySecretStore()).backend.chat(request());
    expect(JSON.stringify(stub.requests[0]!.body)).not.toContain('google');
  });

  it('a prompt blocked before any candidate is LLM_BLOCKED naming the reason', async () => {
    stub.enqueue(reply.raw({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 } }));
    const err = await gemini().chat(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LLM_BLOCKED', usage: { prompt: 12 } });
    expect((err as Error).message).toContain('PROHIBITED_CONTENT');
  });

  it('trims a JSON Schema to Gemini\'s subset: unknown keys out, const → enum, ["string","null"] → nullable', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: { mode: { const: 'fast' }, note: { type: ['string', 'null'], description: 'optional' }, tags: { type: 'array', items: { type: 'string', format: 'x', $comment: 'c' } } },
      required: ['mode'],
    };
    expect(sanitizeSchema(schema)).toEqual({
      type: 'object',
      properties: { mode: { enum: ['fast'] }, note: { type: 'string', nullable: true, description: 'optional' }, tags: { type: 'array', items: { type: 'string', format: 'x' } } },
      required: ['mode'],
    });
  });
});
