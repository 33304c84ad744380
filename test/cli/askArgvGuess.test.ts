import { describe, expect, it } from 'vitest';
import { guessAskWorkers } from '../../src/cli/ask/askArgvGuess.js';

describe('guessAskWorkers (raw argv → the early worker spawn of ask)', () => {
  const cases: Array<[string, string[], string | undefined, ReturnType<typeof guessAskWorkers>]> = [
    ['flags as separate words', ['ask', '--data-dir', 'd', '--start', 'batch', 'hi'], undefined, { dataDir: 'd', start: 'batch' }],
    ['--flag=value', ['ask', '--data-dir=d', '--start=front,writer', 'hi'], undefined, { dataDir: 'd', start: 'front,writer' }],
    ['-d short flag', ['ask', '-d', 'd', '--start', 'reception', 'hi'], undefined, { dataDir: 'd', start: 'reception' }],
    ['data dir from the environment', ['ask', '--start', 'batch', 'hi'], '/v', { dataDir: '/v', start: 'batch' }],
    ['the flag wins over the environment', ['ask', '-d', 'd', '--start', 'batch', 'hi'], '/v', { dataDir: 'd', start: 'batch' }],
    ['other flags are skipped', ['ask', '--json', '--timeout', '5', '-d', 'd', '--start', 'batch', 'x'], undefined, { dataDir: 'd', start: 'batch' }],
    ['not ask', ['serve', '-d', 'd', '--start', 'batch'], undefined, null],
    ['no start', ['ask', '-d', 'd', 'hi'], undefined, null],
    ['no data dir anywhere', ['ask', '--start', 'batch', 'hi'], undefined, null],
    ['empty environment data dir', ['ask', '--start', 'batch', 'hi'], '', null],
    ['help', ['ask', '-d', 'd', '--start', 'batch', '--help'], undefined, null],
    ['repeated flag', ['ask', '-d', 'd', '--start', 'batch', '--start', 'reception', 'x'], undefined, null],
    ['flag without value', ['ask', '-d', 'd', '--start'], undefined, null],
    ['a flag as the value', ['ask', '-d', '--start', 'batch', 'x'], undefined, null],
    ['empty value', ['ask', '--data-dir=', '--start', 'batch', 'x'], undefined, null],
    ['after -- it is request text', ['ask', '-d', 'd', '--', '--start', 'batch'], undefined, null],
  ];
  it.each(cases)('%s', (_name, argv, env, expected) => {
    expect(guessAskWorkers(argv, env)).toEqual(expected);
  });
});
