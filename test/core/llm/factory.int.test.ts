import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toWire } from '../../../src/core/errors.js';
import { createBackend } from '../../../src/core/llm/factory.js';
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

const SENTINEL = 'sk-SENTINEL-7f3a9c1e-do-not-leak';

describe('backend factory', () => {
  it('strict: a keyring template with no stored key throws LLM_CONFIG naming the template, before any request', () => {
    const t = template(stub.baseUrl, { credential: 'keyring', id: 'gpt-main' });
    let err: unknown;
    try {
      createBackend(t, new MemorySecretStore(), 'strict');
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'LLM_CONFIG', retryable: false });
    expect((err as Error).message).toContain('the API key for template gpt-main is not set');
    expect(toWire(err).fix).toContain('gpt-main');
    expect(stub.count).toBe(0);
  });

  it('strict: a provider this build does not speak is refused with LLM_CONFIG, never auto-detected as compat', () => {
    const t = { ...template(stub.baseUrl, { credential: 'not_required', id: 'gem' }), unsupportedProvider: 'mistral_native' };
    expect(() => createBackend(t, new MemorySecretStore(), 'echoOnFailure')).not.toThrow();
    expect(createBackend(t, new MemorySecretStore(), 'echoOnFailure').degradedReason).toContain('"mistral_native"');
    expect(() => createBackend(t, new MemorySecretStore(), 'strict')).toThrow(expect.objectContaining({ code: 'LLM_CONFIG' }));
    expect(stub.count).toBe(0);
  });

  it('strict: credential unset throws LLM_CONFIG', () => {
    expect(() => createBackend(template(stub.baseUrl, { credential: 'unset' }), new MemorySecretStore())).toThrow(
      expect.objectContaining({ code: 'LLM_CONFIG' }),
    );
  });

  it('echoOnFailure: substitutes an echo whose prefix is the visible reason, and never calls the server', async () => {
    const t = template(stub.baseUrl, { credential: 'keyring', id: 'gpt-main' });
    const res = createBackend(t, new MemorySecretStore(), 'echoOnFailure');
    expect(res.degradedReason).toContain('the API key for template gpt-main is not set');
    expect(res.backend.name).toBe('echo');
    const out = await res.backend.chat(request());
    expect(out.text).toBe(`[echo / ${res.degradedReason}] hello`);
    expect(stub.count).toBe(0);
  });

  it('a healthy template resolves with no degradedReason in either mode', () => {
    for (const mode of ['strict', 'echoOnFailure'] as const) {
      const res = createBackend(template(stub.baseUrl), new MemorySecretStore(), mode);
      expect(res.degradedReason).toBeUndefined();
      expect(res.backend.name).toBe('openai-compat');
    }
  });

  it('the echo provider needs no key and no server', async () => {
    const res = createBackend(template('', { provider: 'echo', credential: 'unset' }), new MemorySecretStore());
    expect((await res.backend.chat(request())).text).toBe('[echo] hello');
  });

  it.each([['open_ai_compat' as const], ['anthropic' as const]])('the API key never appears in an error (%s, sentinel)', async (provider) => {
    // The server reflects the key back in its error body, as some proxies do.
    stub.respond((r) => reply.error(401, `invalid key ${r.headers['x-api-key'] ?? r.headers.authorization ?? ''}`));
    const t = template(stub.baseUrl, { provider, credential: 'keyring' });
    const b = createBackend(t, new MemorySecretStore({ 'tpl-test': SENTINEL }), 'strict').backend;
    const err = await b.chat(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LLM_API' });
    expect(JSON.stringify(toWire(err))).not.toContain(SENTINEL);
    expect((err as Error).message).not.toContain(SENTINEL);
    expect((err as Error).message).toContain('[redacted]');
  });
});
