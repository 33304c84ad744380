import { describe, expect, it } from 'vitest';
import { CURRENT_RECORD_VERSION, RECORD_KINDS, checkRecord, stampRecord } from '../../../src/core/sessions/records.js';
import { readFixture, V1_FIXTURES, V2_FIXTURES } from './fixtures.js';

describe('checkRecord on the frozen corpus', () => {
  it.each([...V1_FIXTURES, ...V2_FIXTURES])('accepts %s', (name) => {
    const check = checkRecord(readFixture(name));
    expect(check.ok).toBe(true);
  });

  it('covers every record kind with a fixture', () => {
    const kinds = new Set([...V1_FIXTURES, ...V2_FIXTURES].map((name) => (readFixture(name) as { kind: string }).kind));
    expect([...kinds].sort()).toEqual([...RECORD_KINDS].sort());
  });

  it('reads a v1 turn with cacheWrite1h 0 and keeps a v2 turn\'s 1-hour write', () => {
    const v1 = checkRecord(readFixture('turn.v1.json'));
    const v2 = checkRecord(readFixture('turn.v2.json'));
    expect(v1.ok && v1.record.kind === 'turn' ? v1.record.cacheWrite1h : null).toBe(0);
    expect(v2.ok && v2.record.kind === 'turn' ? v2.record.cacheWrite1h : null).toBe(600);
  });

  it('skips the malformed fixture as malformed and the future one as future_version', () => {
    expect(checkRecord(readFixture('malformed.json'))).toEqual({ ok: false, reason: 'malformed' });
    expect(checkRecord(readFixture('future.v99.json'))).toEqual({ ok: false, reason: 'future_version' });
  });
});

const turn = readFixture('turn.v1.json') as Record<string, unknown>;
const call = readFixture('call.v2.json') as Record<string, unknown>;
const message = readFixture('message.v1.json') as { message: Record<string, unknown> } & Record<string, unknown>;

describe('checkRecord table', () => {
  const cases: [string, unknown, 'ok' | 'malformed' | 'future_version'][] = [
    ['null', null, 'malformed'],
    ['array', [], 'malformed'],
    ['no version', { kind: 'exchange', agentId: 'a', sent: 's', replied: 'r' }, 'malformed'],
    ['version 0', { v: 0, kind: 'exchange', agentId: 'a', sent: 's', replied: 'r' }, 'malformed'],
    ['fractional version', { v: 1.5, kind: 'exchange', agentId: 'a', sent: 's', replied: 'r' }, 'malformed'],
    ['unknown kind', { v: 1, kind: 'note', text: 'x' }, 'malformed'],
    ['unknown kind of the future', { v: 3, kind: 'note', text: 'x' }, 'future_version'],
    ['call in a v1 record', { ...call, v: 1 }, 'malformed'],
    ['call failed with a code', { ...call, outcome: { kind: 'failed', code: 'LLM_HTTP' } }, 'ok'],
    ['call failed without a code', { ...call, outcome: { kind: 'failed' } }, 'malformed'],
    ['call with an unknown purpose', { ...call, purpose: 'chat' }, 'malformed'],
    ['call without estimated', { ...call, estimated: undefined }, 'malformed'],
    ['call with negative latency', { ...call, latencyMs: -1 }, 'malformed'],
    ['exchange missing replied', { v: 1, kind: 'exchange', agentId: 'a', sent: 's' }, 'malformed'],
    ['summary negative covers', { v: 1, kind: 'summary', agentId: 'a', text: 't', coversUpToSeq: -1 }, 'malformed'],
    ['turn with NaN prompt', { ...turn, prompt: Number.NaN }, 'malformed'],
    ['turn with unknown stop', { ...turn, stop: { kind: 'exploded' } }, 'malformed'],
    ['turn repeat without tool', { ...turn, stop: { kind: 'repeat' } }, 'malformed'],
    ['turn repeat with tool', { ...turn, stop: { kind: 'repeat', tool: 'grep' } }, 'ok'],
    ['message with bad endpoint', { ...message, message: { ...message.message, to: { kind: 'agent' } } }, 'malformed'],
    ['message external sender', { ...message, message: { ...message.message, from: { kind: 'external', client: 'cli' } } }, 'ok'],
    ['message bad coRecipients', { ...message, message: { ...message.message, coRecipients: [1] } }, 'malformed'],
  ];
  it.each(cases)('%s', (_name, value, expected) => {
    const check = checkRecord(value);
    expect(check.ok ? 'ok' : check.reason).toBe(expected);
  });
});

describe('stampRecord', () => {
  it('writes the current version and passes its own check', () => {
    const stamped = stampRecord({ kind: 'exchange', agentId: 'a', sent: 's', replied: 'r' });
    expect(stamped.v).toBe(CURRENT_RECORD_VERSION);
    expect(checkRecord(stamped).ok).toBe(true);
    const original = stampRecord({ kind: 'toolResult', agentId: 'a', tool: 't', round: 1, original: 'o', compressedChars: 1 });
    expect(original.v).toBe(CURRENT_RECORD_VERSION);
    expect(checkRecord(original).ok).toBe(true);
  });
});
