import { describe, expect, it } from 'vitest';
import { DEFAULT_JEV_SETTINGS, jevFileObject, parseJevSettings } from '../../../src/core/jev/jevSettings.js';
import { parseJudgeConfig } from '../../../src/core/jev/judgeConfig.js';

describe('jev.json', () => {
  const cases: Array<[string, Record<string, unknown>, Partial<typeof DEFAULT_JEV_SETTINGS>]> = [
    ['empty = defaults', {}, {}],
    ['pruning: true (the short form)', { pruning: true }, { compression: { enabled: true, thresholdChars: 8000 } }],
    ['pruning object with a threshold', { pruning: { enabled: true, thresholdChars: 3000 } }, { compression: { enabled: true, thresholdChars: 3000 } }],
    ['a threshold below the floor is raised', { pruning: { enabled: true, thresholdChars: 10 } }, { compression: { enabled: true, thresholdChars: 1000 } }],
    ['an unknown wire falls back', { wire: 'mistral_native', model: 'x' }, { model: 'x' }],
    ['enabled false', { enabled: false, baseUrl: ' http://h/v1 ' }, { enabled: false, baseUrl: 'http://h/v1' }],
  ];
  it.each(cases)('%s', (_label, raw, expected) => {
    expect(parseJevSettings(raw)).toEqual({ ...DEFAULT_JEV_SETTINGS, ...expected });
  });

  it('a rewrite keeps keys this build does not know', () => {
    const raw = { accountId: 'abc', pruning: { enabled: false, note: 'keep' } };
    const out = jevFileObject(raw, { ...DEFAULT_JEV_SETTINGS, model: 'm', compression: { enabled: true, thresholdChars: 4000 } });
    expect(out).toMatchObject({ accountId: 'abc', model: 'm', pruning: { enabled: true, thresholdChars: 4000, note: 'keep' } });
  });
});

describe('judge.json', () => {
  it.each([
    [null, { declared: false, enabled: false }],
    ['{}', { declared: false, enabled: true, to: null }],
    ['{"to": "judge"}', { declared: true, enabled: true, to: 'judge' }],
    ['{"to": null}', { declared: false, to: null }],
    ['{"enabled": false, "to": "judge"}', { declared: true, enabled: false, to: 'judge' }],
    ['[1]', { declared: false, problem: 'expected a JSON object' }],
    ['{oops', { declared: false, problem: 'not valid JSON' }],
  ])('%j', (text, expected) => {
    expect(parseJudgeConfig(text)).toMatchObject(expected);
  });
});
