/** Boot steps that are pure decisions: the original's promotion of `unset` templates whose secret is stored. */
import { describe, expect, it } from 'vitest';
import { FuseforksError } from '../../src/core/errors.js';
import { MemorySecretStore, type SecretStore } from '../../src/core/secrets/secretStore.js';
import type { CredentialSource, ModelTemplate, World } from '../../src/core/world/types.js';
import { promoteStoredCredentials } from '../../src/host/bootSteps.js';

function template(id: string, credential: CredentialSource, extra: Partial<ModelTemplate> = {}): ModelTemplate {
  return {
    id, name: id, baseUrl: 'http://127.0.0.1:9/v1', model: 'm', contextLength: 8192, temperature: null, maxOutputTokens: 1024,
    credential, provider: 'open_ai_compat', useTools: true, effort: null, requestTimeoutSecs: 60, maxRetries: 1,
    inputPerMtok: null, outputPerMtok: null, cacheReadPerMtok: null, cacheWritePerMtok: null, cacheWrite1hPerMtok: null,
    pricingAsOf: null, googleSearch: false, xaiWebSearch: false, xaiXSearch: false, openaiWebSearch: false, openaiReasoningPro: false, metaWebSearch: false, stream: true, ...extra,
  };
}

function world(templates: ModelTemplate[]): World {
  return {
    agents: [], groups: [], modelTemplates: templates, roles: [], topologyPositions: {}, tokenBudget: null,
    language: 'en', userName: null, reception: null, externalName: null, askTimeoutSecs: 600, maxHops: 8,
  };
}

const failing: SecretStore = Object.assign(new MemorySecretStore(), {
  has(): boolean {
    throw new FuseforksError('SECRET_STORE_FAILED', 'keyring refused');
  },
});

describe('promoteStoredCredentials', () => {
  it.each([
    { name: 'unset + stored → keyring', t: template('a', 'unset'), store: new MemorySecretStore({ a: 'k' }), promoted: ['a'], after: 'keyring' },
    { name: 'unset + absent → stays unset', t: template('a', 'unset'), store: new MemorySecretStore(), promoted: [], after: 'unset' },
    { name: 'not_required is never touched', t: template('a', 'not_required'), store: new MemorySecretStore({ a: 'k' }), promoted: [], after: 'not_required' },
    { name: 'keyring stays keyring', t: template('a', 'keyring'), store: new MemorySecretStore({ a: 'k' }), promoted: [], after: 'keyring' },
    { name: 'a store that errors skips the promotion', t: template('a', 'unset'), store: failing, promoted: [], after: 'unset' },
    {
      name: 'an unsupported provider keeps provider null and its raw name (never auto-detected)',
      t: template('g', 'unset', { provider: null, unsupportedProvider: 'mistral_native' }),
      store: new MemorySecretStore({ g: 'k' }),
      promoted: ['g'],
      after: 'keyring',
    },
  ])('$name', ({ t, store, promoted, after }) => {
    const out = promoteStoredCredentials(world([t]), store);
    expect(out.ids).toEqual(promoted);
    const got = out.world.modelTemplates[0]!;
    expect(got.credential).toBe(after);
    expect(got.provider).toBe(t.provider);
    expect(got.unsupportedProvider).toBe(t.unsupportedProvider);
  });

  it('returns the same world object when nothing changes (no save)', () => {
    const w = world([template('a', 'keyring')]);
    expect(promoteStoredCredentials(w, new MemorySecretStore()).world).toBe(w);
  });
});
