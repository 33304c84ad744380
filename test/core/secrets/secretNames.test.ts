import { describe, expect, it } from 'vitest';
import { envNameForKey, findSecretNameCollisions, secretNameCollisionError } from '../../../src/core/secrets/secretNames.js';

describe('envNameForKey', () => {
  it.each([
    ['claude_sonnet', 'FUSEFORKS_SECRET_CLAUDE_SONNET'],
    ['jev_api_token', 'FUSEFORKS_SECRET_JEV_API_TOKEN'],
    ['gpt-6.1-sol', 'FUSEFORKS_SECRET_GPT_6_1_SOL'],
    ['Mixed.Case key', 'FUSEFORKS_SECRET_MIXED_CASE_KEY'],
    ['日本', 'FUSEFORKS_SECRET___'],
  ])('%s → %s', (key, name) => {
    expect(envNameForKey(key)).toBe(name);
  });
});

describe('findSecretNameCollisions', () => {
  it('finds none for distinct names', () => {
    expect(findSecretNameCollisions(['a', 'b-c'])).toEqual([]);
  });

  it('counts the fixed Jev key and ignores duplicates of one key', () => {
    expect(findSecretNameCollisions(['jev-api-token', 'x', 'x'])).toEqual([
      { envName: 'FUSEFORKS_SECRET_JEV_API_TOKEN', keys: ['jev-api-token', 'jev_api_token'] },
    ]);
  });

  it('groups every key of one variable, in first-seen order', () => {
    expect(findSecretNameCollisions(['gpt.4', 'gpt-4', 'gpt_4', 'other'])).toEqual([
      { envName: 'FUSEFORKS_SECRET_GPT_4', keys: ['gpt.4', 'gpt-4', 'gpt_4'] },
    ]);
  });

  it('builds SECRET_NAME_COLLISION naming the variable and the keys', () => {
    const error = secretNameCollisionError(findSecretNameCollisions(['a-b', 'a.b']));
    expect(error.code).toBe('SECRET_NAME_COLLISION');
    expect(error.message).toContain('FUSEFORKS_SECRET_A_B');
    expect(error.message).toContain('a-b / a.b');
    expect(error.fix).toContain('--secrets keyring');
  });
});
