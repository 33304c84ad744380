import { describe, expect, it } from 'vitest';
import { answersDisagree, type KeyringAnswer } from '../../../src/core/secrets/keyringAnswers.js';

const pick = (state: KeyringAnswer['state'], value?: string): KeyringAnswer => ({ store: 'keyring', state, ...(value === undefined ? {} : { value }) });
const ss = (state: KeyringAnswer['state'], value?: string): KeyringAnswer => ({ store: 'secret-service', state, ...(value === undefined ? {} : { value }) });
const kernel = (state: KeyringAnswer['state'], value?: string): KeyringAnswer => ({ store: 'kernel-keyring', state, ...(value === undefined ? {} : { value }) });

describe('answersDisagree', () => {
  it.each([
    ['all missing', [pick('missing'), pick('missing'), ss('missing'), kernel('missing')], false],
    ['in the Secret Service only (the normal desktop state)', [pick('stored', 'a'), pick('stored', 'a'), ss('stored', 'a'), kernel('missing')], false],
    ['in the kernel keyring only, no Secret Service here', [pick('stored', 'a'), pick('stored', 'a'), ss('unavailable'), kernel('stored', 'a')], false],
    ['in the kernel keyring, the Secret Service lacks it', [pick('missing'), pick('missing'), ss('missing'), kernel('stored', 'a')], true],
    ['two values in two stores', [pick('stored', 'a'), pick('stored', 'a'), ss('stored', 'a'), kernel('stored', 'b')], true],
    ['missing at the first read, there at the next', [pick('missing'), pick('stored', 'a'), ss('stored', 'a'), kernel('missing')], true],
    ['a locked Secret Service says nothing', [pick('error'), pick('error'), ss('error'), kernel('missing')], false],
    ['not Linux: the pick alone, read twice alike', [pick('stored', 'a'), pick('stored', 'a')], false],
  ] as const)('%s → %s', (_name, answers, expected) => {
    expect(answersDisagree(answers)).toBe(expected);
  });
});
