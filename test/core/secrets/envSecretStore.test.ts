import { describe, expect, it } from 'vitest';
import { isFuseforksError } from '../../../src/core/errors.js';
import { EnvSecretStore } from '../../../src/core/secrets/envSecretStore.js';

const SENTINEL = 'sk-sentinel-9f3e7d';

describe('EnvSecretStore', () => {
  it('reads FUSEFORKS_SECRET_* by the mapped name and nothing else', () => {
    const store = new EnvSecretStore({ FUSEFORKS_SECRET_GPT_4: SENTINEL, GPT_4: 'other', FUSEFORKS_SECRET_EMPTY: '' });
    expect(store.kind).toBe('env');
    expect(store.get('gpt-4')).toBe(SENTINEL);
    expect(store.has('gpt.4')).toBe(true);
    expect(store.has('empty')).toBe(false);
    expect(store.get('missing')).toBeNull();
    expect(store.variableNames()).toEqual(['FUSEFORKS_SECRET_GPT_4']);
  });

  it('reads the environment once, at construction', () => {
    const env: Record<string, string | undefined> = { FUSEFORKS_SECRET_A: 'one' };
    const store = new EnvSecretStore(env);
    env.FUSEFORKS_SECRET_A = 'two';
    env.FUSEFORKS_SECRET_B = 'new';
    expect(store.get('a')).toBe('one');
    expect(store.has('b')).toBe(false);
  });

  it.each(['set', 'delete'] as const)('%s throws SECRET_STORE_READ_ONLY naming only the variable', (op) => {
    const store = new EnvSecretStore({ FUSEFORKS_SECRET_TPL: SENTINEL });
    let caught: unknown;
    try {
      if (op === 'set') store.set('tpl', 'new-value-xyz');
      else store.delete('tpl');
    } catch (error) {
      caught = error;
    }
    expect(isFuseforksError(caught) && caught.code).toBe('SECRET_STORE_READ_ONLY');
    const text = JSON.stringify({ m: (caught as Error).message, f: (caught as { fix?: string }).fix });
    expect(text).toContain('FUSEFORKS_SECRET_TPL');
    expect(text).not.toContain(SENTINEL);
    expect(text).not.toContain('new-value-xyz');
    expect(store.get('tpl')).toBe(SENTINEL);
  });
});
