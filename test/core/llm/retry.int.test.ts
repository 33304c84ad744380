import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBackend } from '../../../src/core/llm/factory.js';
import type { ModelTemplate } from '../../../src/core/world/types.js';
import { MemorySecretStore } from '../../../src/core/secrets/secretStore.js';
import { reply, startStubLlm, type StubLlm } from '../../support/stubLlm.js';
import { request, template } from './fixtures.js';

let stub: StubLlm;
beforeEach(async () => {
  stub = await startStubLlm();
});
afterEach(async () => {
  await stub.close();
});

// Real backoff delays are kept (200 ms, 400 ms): small enough, and nothing here asserts a duration.
const backend = (over: Partial<ModelTemplate> = {}) => createBackend(template(stub.baseUrl, over), new MemorySecretStore()).backend;

describe.each([['open_ai_compat' as const], ['anthropic' as const]])('retry over the %s wire', (provider) => {
  it('retries a 503 and succeeds on the next attempt', async () => {
    stub.enqueueAll([reply.error(503), reply.text('recovered')]);
    const res = await backend({ provider }).chat(request());
    expect(res.text).toBe('recovered');
    expect(stub.count).toBe(2);
  });

  it('retries a 429', async () => {
    stub.enqueueAll([reply.error(429), reply.text('ok')]);
    await expect(backend({ provider }).chat(request())).resolves.toMatchObject({ text: 'ok' });
    expect(stub.count).toBe(2);
  });

  it('does not retry a 401: LLM_API, non-retryable, one request', async () => {
    stub.enqueueAll([reply.error(401, 'bad key'), reply.text('never')]);
    const err = await backend({ provider }).chat(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LLM_API', retryable: false, status: 401 });
    expect((err as Error).message).toContain('HTTP 401');
    expect(stub.count).toBe(1);
  });

  it('gives up after maxRetries attempts of 5xx, still marked retryable', async () => {
    stub.enqueueAll([reply.error(500), reply.error(502)]);
    await expect(backend({ provider, maxRetries: 2 }).chat(request())).rejects.toMatchObject({ code: 'LLM_API', retryable: true });
    expect(stub.count).toBe(2);
  });
});

describe('timeouts and interrupts', () => {
  it('a hung server gives LLM_TIMEOUT after every attempt', async () => {
    stub.enqueueAll([reply.hang(), reply.hang()]);
    const err = await backend({ requestTimeoutSecs: 0.2, maxRetries: 2 }).chat(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LLM_TIMEOUT', retryable: true });
    expect(stub.count).toBe(2);
  });

  it('an abort stops a hung request at once and is not retried', async () => {
    stub.enqueueAll([reply.hang(), reply.text('never')]);
    const ctl = new AbortController();
    const pending = backend({ requestTimeoutSecs: 30, maxRetries: 3 }).chat(request(), { signal: ctl.signal });
    await stub.waitForCount(1);
    ctl.abort();
    const err = await pending.catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(stub.count).toBe(1);
  });

  it('an abort during the backoff stops the retries', async () => {
    stub.enqueueAll([reply.error(503), reply.text('never')]);
    const ctl = new AbortController();
    const b = createBackend(template(stub.baseUrl), new MemorySecretStore(), 'strict', {
      sleep: (_ms, signal) => {
        ctl.abort();
        return Promise.reject(signal?.reason as Error);
      },
    }).backend;
    const err = await b.chat(request(), { signal: ctl.signal }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(stub.count).toBe(1);
  });

  it('a refused connection is LLM_HTTP (retryable)', async () => {
    const port = stub.port;
    await stub.close();
    stub = await startStubLlm(); // keep afterEach happy; the old port is now closed
    const b = createBackend(template(`http://127.0.0.1:${port}/v1`, { maxRetries: 1 }), new MemorySecretStore()).backend;
    await expect(b.chat(request())).rejects.toMatchObject({ code: 'LLM_HTTP', retryable: true });
  });
});
