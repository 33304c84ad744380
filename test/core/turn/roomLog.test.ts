import { describe, expect, it } from 'vitest';
import type { AgentMessage, Endpoint } from '../../../src/core/events.js';
import {
  ROOM_LOG_READ_MAX_CHARS,
  displayIds,
  presenceBlock,
  readRoomLog,
  roomLogExcerpt,
  visibleTo,
} from '../../../src/core/turn/roomLog.js';

const agent = (id: string): Endpoint => ({ kind: 'agent', id });
const user: Endpoint = { kind: 'user' };
const system: Endpoint = { kind: 'system' };
let seq = 0;
function msg(from: Endpoint, to: Endpoint, content: string, id?: string): AgentMessage {
  seq += 1;
  return { id: id ?? `${String(seq).padStart(8, '0')}-aaaa-4bbb-8ccc-dddddddddddd`, from, to, content, tokens: 0, tsMs: seq, hop: 1 };
}
const names = (e: Endpoint): string => (e.kind === 'agent' ? `N${e.id}` : e.kind === 'user' ? 'User' : e.kind === 'system' ? 'Fuseforks' : e.client);
const opts = { window: 12, excerptChars: 200 };

describe('visibleTo', () => {
  const cases: Array<[string, AgentMessage, boolean]> = [
    ['agent to another agent', msg(agent('A'), agent('B'), 'x'), true],
    ['reader is the sender', msg(agent('C'), agent('B'), 'x'), false],
    ['reader is the recipient', msg(agent('A'), agent('C'), 'x'), false],
    ['user sent it', msg(user, agent('A'), 'x'), false],
    ['system sent it', msg(system, user, 'x'), false],
    ['external sent it', msg({ kind: 'external', client: 'cli' }, agent('A'), 'x'), false],
    ['agent reply to the user', msg(agent('A'), user, 'x'), true],
    ['agent reply to an external client', msg(agent('A'), { kind: 'external', client: 'cli' }, 'x'), true],
  ];
  it.each(cases)('%s', (_, m, expected) => {
    expect(visibleTo('C', m)).toBe(expected);
  });
});

describe('displayIds', () => {
  const cases: Array<[string, string[], string[]]> = [
    ['unique at 8', ['aaaaaaaa-1', 'bbbbbbbb-1'], ['aaaaaaaa', 'bbbbbbbb']],
    ['collide at 8 → 12', ['aaaaaaaa-111-x', 'aaaaaaaa-222-x', 'cccccccc-0'], ['aaaaaaaa-111', 'aaaaaaaa-222', 'cccccccc']],
    ['collide at 12 → 16', ['aaaaaaaa-111-1111', 'aaaaaaaa-111-2222'], ['aaaaaaaa-111-111', 'aaaaaaaa-111-222']],
    ['collide at 16 → full', ['aaaaaaaa-111-1111-x', 'aaaaaaaa-111-1111-y'], ['aaaaaaaa-111-1111-x', 'aaaaaaaa-111-1111-y']],
  ];
  it.each(cases)('%s', (_, ids, handles) => {
    const map = displayIds(ids.map((id) => msg(agent('A'), agent('B'), 'x', id)));
    expect(ids.map((id) => map.get(id))).toEqual(handles);
  });
});

describe('roomLogExcerpt', () => {
  const long = 'y'.repeat(250);
  it('shows only visible messages, oldest first, with the handle and tail only on clipped lines', () => {
    const ring = [
      msg(user, agent('A'), 'from the user'),
      msg(agent('A'), agent('B'), 'short', '11111111-x'),
      msg(agent('B'), agent('A'), long, '22222222-x'),
      msg(agent('A'), agent('C'), 'to me'),
    ];
    const text = roomLogExcerpt('C', ring, opts, names, 'en')!;
    const lines = text.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toEqual([`- NA → NB: short`, `- [22222222] NB → NA: ${'y'.repeat(200)}… (full length: 250 chars)`]);
    expect(text).not.toContain('from the user');
    expect(text).not.toContain('to me');
  });
  it('uses the Japanese tail and widens the handle when a hidden-window visible id collides', () => {
    const ring = [msg(agent('A'), agent('B'), 'old', 'abcdefgh-1111'), msg(agent('A'), agent('B'), long, 'abcdefgh-2222')];
    const text = roomLogExcerpt('C', ring, { window: 1, excerptChars: 200 }, names, 'ja')!;
    expect(text).toContain(`- [abcdefgh-222] NA → NB: ${'y'.repeat(200)}…（全 250 字）`);
    expect(text).not.toContain('old');
  });
  it('keeps the newest `window` messages and is null when nothing is visible or the window is 0', () => {
    const ring = Array.from({ length: 15 }, (_, i) => msg(agent('A'), agent('B'), `m${i}`));
    const lines = roomLogExcerpt('C', ring, opts, names, 'en')!.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toHaveLength(12);
    expect(lines[0]).toBe('- NA → NB: m3');
    expect(roomLogExcerpt('C', ring, { window: 0, excerptChars: 200 }, names, 'en')).toBeNull();
    expect(roomLogExcerpt('A', ring, opts, names, 'en')).toBeNull();
  });
});

describe('presenceBlock', () => {
  it('lists System→User notices among the last 12 entries, newest last, roster line only with a roster', () => {
    const ring = [
      msg(system, user, 'too old'),
      ...Array.from({ length: 9 }, (_, i) => msg(agent('A'), agent('B'), `m${i}`)),
      msg(system, user, 'B started'),
      msg(system, agent('A'), 'not a notice'),
      msg(system, user, 'C stopped'),
    ];
    ring.splice(1, 0, msg(agent('A'), agent('B'), 'pad'));
    const en = presenceBlock(ring, true, 'en')!;
    expect(en.split('\n')).toEqual([
      '## Arrivals and departures (newest last)',
      '- B started',
      '- C stopped',
      'For who runs now, the roster wins over these notices.',
    ]);
    expect(presenceBlock(ring, false, 'ja')!.split('\n')).toEqual(['## 出入りのお知らせ（新しいものが最後）', '- B started', '- C stopped']);
    expect(presenceBlock([msg(agent('A'), agent('B'), 'x')], true, 'en')).toBeNull();
  });
});

describe('readRoomLog', () => {
  const ring = [
    msg(agent('A'), agent('B'), 'hello B', 'abcdefgh-1111'),
    msg(agent('A'), agent('B'), 'second', 'abcdefgh-2222'),
    msg(agent('A'), agent('C'), 'secret for C', 'cccccccc-0000'),
    msg(user, agent('B'), 'user words', 'uuuuuuuu-0000'),
    msg(agent('B'), user, 'z'.repeat(ROOM_LOG_READ_MAX_CHARS + 5), 'bbbbbbbb-0000'),
  ];
  const cases: Array<[string, string, string, string, RegExp | string]> = [
    ['found (en)', 'abcdefgh-1', 'en', 'ok', '【Sender: NA → NB】\nhello B'],
    ['found (ja), brackets tolerated', '[abcdefgh-2222]', 'ja', 'ok', '【送り手: NA → NB】\nsecond'],
    ['ambiguous never lists candidates', 'abcdefgh', 'en', 'ambiguous', /^More than one message matches id "abcdefgh"\. Pass a longer id\.$/],
    ['not visible', 'cccccccc', 'en', 'not_visible', 'No message with id "cccccccc" was found. Pass an [id] exactly as the village square shows it.'],
    ['user-sent is not visible', 'uuuuuuuu', 'en', 'not_visible', 'No message with id "uuuuuuuu" was found. Pass an [id] exactly as the village square shows it.'],
    ['not found', 'ffffffff', 'en', 'not_found', 'No message with id "ffffffff" was found. Pass an [id] exactly as the village square shows it.'],
    ['empty id', '  ', 'en', 'not_found', 'No message with id "" was found. Pass an [id] exactly as the village square shows it.'],
  ];
  it.each(cases)('%s', (_, id, language, outcome, body) => {
    const read = readRoomLog('C', id, ring, language as 'en' | 'ja', names);
    expect(read.outcome).toBe(outcome);
    if (typeof body === 'string') expect(read.body).toBe(body);
    else expect(read.body).toMatch(body);
  });
  it('gives not_visible and not_found the same model text', () => {
    const hidden = readRoomLog('C', 'cccccccc', ring, 'ja', names);
    const missing = readRoomLog('C', 'cccccccc', [], 'ja', names);
    expect([hidden.outcome, missing.outcome]).toEqual(['not_visible', 'not_found']);
    expect(hidden.body).toBe(missing.body);
  });
  it('cuts at 20,000 chars and states the total and the part shown', () => {
    const read = readRoomLog('C', 'bbbbbbbb', ring, 'en', names);
    expect(read.outcome).toBe('truncated');
    expect(read.chars).toBe(ROOM_LOG_READ_MAX_CHARS + 5);
    expect(read.body.startsWith(`【Sender: NB → User】\n${'z'.repeat(ROOM_LOG_READ_MAX_CHARS)}\n\n(Showing the first 20000 of 20005 chars.`)).toBe(true);
    expect(read.body).toContain('Ask the sender');
  });
});
