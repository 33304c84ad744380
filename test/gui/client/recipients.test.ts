import { describe, expect, it } from 'vitest';
import { continuesFanOut, recipientSummary } from '../../../src/gui/client/lib/recipients.js';
import { formatCount } from '../../../src/gui/client/lib/formatCount.js';
import type { AgentMessage, Endpoint } from '../../../src/gui/client/lib/types.js';

const agent = (id: string): Endpoint => ({ kind: 'agent', id });
const copy = (to: string, extra: Partial<AgentMessage> = {}): AgentMessage => ({
  id: `m-${to}`, from: agent('alice'), to: agent(to), content: 'split the work', tokens: 0, tsMs: 5, hop: 1, coRecipients: ['bob', 'carol', 'dave'], ...extra,
});

describe('recipientSummary (the collapse rule)', () => {
  it.each<[string, string[], { first: string; more: number }]>([
    ['one recipient: just the name', ['Bob'], { first: 'Bob', more: 0 }],
    ['two: the first and +1', ['Bob', 'Carol'], { first: 'Bob', more: 1 }],
    ['four: the first and +3', ['Bob', 'Carol', 'Dave', 'Erin'], { first: 'Bob', more: 3 }],
    ['none (never shown, but no crash)', [], { first: '', more: 0 }],
  ])('%s', (_name, names, expected) => {
    expect(recipientSummary(names)).toEqual(expected);
  });
});

describe('continuesFanOut', () => {
  const first = copy('bob');
  it.each<[string, AgentMessage, Endpoint[], boolean]>([
    ['the next copy of the same fan-out', copy('carol'), [agent('bob')], true],
    ['a recipient already in the row', copy('bob'), [agent('bob')], false],
    ['other text', copy('carol', { content: 'something else' }), [agent('bob')], false],
    ['another sender', copy('carol', { from: agent('erin') }), [agent('bob')], false],
    ['another hop', copy('carol', { hop: 2 }), [agent('bob')], false],
    ['another recipient list', copy('carol', { coRecipients: ['bob', 'carol'] }), [agent('bob')], false],
    ['no recipient list', copy('carol', { coRecipients: undefined }), [agent('bob')], false],
    ['addressed outside the list', copy('erin'), [agent('bob')], false],
    ['addressed to the person', { ...copy('carol'), to: { kind: 'user' } }, [agent('bob')], false],
  ])('%s', (_name, next, seen, expected) => {
    expect(continuesFanOut(first, next, seen)).toBe(expected);
  });

  it('a single-recipient list never starts a fan-out', () => {
    expect(continuesFanOut(copy('bob', { coRecipients: ['bob'] }), copy('bob', { coRecipients: ['bob'] }), [])).toBe(false);
  });
});

describe('formatCount', () => {
  it.each<[number, 'ja' | 'en', string]>([
    [0, 'en', '0'],
    [1050, 'en', '1,050'],
    [1234567, 'ja', '1,234,567'],
  ])('%d in %s → %s', (n, lang, expected) => {
    expect(formatCount(n, lang)).toBe(expected);
  });
});
