import { describe, expect, it } from 'vitest';
import { chooseProvider, jevState, providerName, type WireFields } from '../../../src/gui/client/lib/providers.js';

const OPENAI = 'https://api.openai.com/v1';
const field = (provider: string | null, baseUrl: string, credential: WireFields['credential'] = 'unset'): WireFields => ({ provider, baseUrl, credential });

describe('chooseProvider', () => {
  it.each<[string, WireFields, string | null, boolean, WireFields]>([
    ['Echo clears a preset URL and needs no key', field(null, OPENAI), 'echo', false, field('echo', '', 'not_required')],
    ['Echo keeps a custom URL', field('open_ai_compat', 'http://127.0.0.1:8080/v1'), 'echo', false, field('echo', 'http://127.0.0.1:8080/v1', 'not_required')],
    ['Echo leaves a stored key alone', field(null, OPENAI, 'keyring'), 'echo', true, field('echo', '', 'keyring')],
    ['a preset follows the wire', field('open_ai_compat', OPENAI), 'anthropic', false, field('anthropic', 'https://api.anthropic.com/v1')],
    ['leaving Echo: the preset back, the key question open', field('echo', '', 'not_required'), 'gemini', false, field('gemini', 'https://generativelanguage.googleapis.com/v1beta')],
    ['a custom URL stays', field('open_ai_compat', 'http://10.0.0.2/v1', 'not_required'), 'anthropic', false, field('anthropic', 'http://10.0.0.2/v1', 'not_required')],
    ['auto keeps the URL', field('anthropic', 'https://api.anthropic.com/v1'), null, false, field(null, 'https://api.anthropic.com/v1')],
  ])('%s', (_name, current, provider, hasKey, expected) => {
    expect(chooseProvider(current, provider, hasKey)).toEqual(expected);
  });
});

describe('jevState', () => {
  const s = (enabled: boolean, baseUrl: string, model: string, wire = 'open_ai_compat') => ({ enabled, baseUrl, model, wire });
  it.each<[string, ReturnType<typeof s>, boolean, string]>([
    ['switched off', s(false, OPENAI, 'm'), true, 'off'],
    ['on without a URL', s(true, '', 'm'), true, 'notConfigured'],
    ['on without a model', s(true, OPENAI, ' '), true, 'notConfigured'],
    ['on, no token', s(true, OPENAI, 'm'), false, 'noToken'],
    ['on with everything', s(true, OPENAI, 'm'), true, 'ready'],
    ['Echo needs nothing', s(true, '', '', 'echo'), false, 'ready'],
  ])('%s', (_name, settings, token, expected) => {
    expect(jevState(settings, token)).toBe(expected);
  });
});

describe('providerName', () => {
  it('names the wires a person reads, and shows an unknown id as it is', () => {
    expect(providerName('open_ai_compat')).toBe('OpenAI-compatible (Chat Completions)');
    expect(providerName('echo')).toBe('Echo (offline, no model)');
    expect(providerName('future_wire')).toBe('future_wire');
  });
});
