import { describe, expect, it } from 'vitest';
import { endpointField, externalClientName, normalizeName, senderLabel, statusNotice } from '../../src/actors/labels.js';
import type { AgentStatus, Endpoint } from '../../src/core/events.js';

describe('names', () => {
  it.each([
    ['  Claude Desktop ', 'Claude Desktop'],
    ['', null],
    ['a【b', null],
    ['x'.repeat(33), null],
    ['x'.repeat(32), 'x'.repeat(32)],
    ['tab\there', null],
  ])('normalizeName(%j) = %j', (raw, expected) => {
    expect(normalizeName(raw)).toBe(expected);
  });

  it('the village externalName wins, then the client name, then "external"', () => {
    expect(externalClientName('cli', 'Ops')).toBe('Ops');
    expect(externalClientName('cli', null)).toBe('cli');
    expect(externalClientName('【bad】', '  ')).toBe('external');
  });
});

describe('labels', () => {
  const nameOf = (id: string) => `Name ${id}`;
  it.each<[Endpoint, string, string]>([
    [{ kind: 'user' }, 'User', 'user'],
    [{ kind: 'system' }, 'Fuseforks', 'system'],
    [{ kind: 'agent', id: 'b' }, 'Name b', 'b'],
    [{ kind: 'external', client: 'cli' }, 'cli (external client)', 'external:cli'],
  ])('%j → label %j, field %j', (from, label, field) => {
    expect(senderLabel(from, 'en', null, nameOf)).toBe(label);
    expect(endpointField(from)).toBe(field);
  });

  it('uses the userName and Japanese defaults', () => {
    expect(senderLabel({ kind: 'user' }, 'ja', null, nameOf)).toBe('ユーザー');
    expect(senderLabel({ kind: 'user' }, 'en', 'Mika', nameOf)).toBe('Mika');
  });
});

describe('statusNotice', () => {
  it.each<[AgentStatus, AgentStatus, string | null]>([
    ['starting', 'running', 'A is now running.'],
    ['running', 'stopping', 'A has stopped.'],
    ['running', 'failed', 'A stopped after a failure.'],
    ['starting', 'failed', null],
    ['stopping', 'idle', null],
    ['idle', 'starting', null],
  ])('%s → %s', (from, to, line) => {
    expect(statusNotice('A', from, to, 'en')).toBe(line);
  });

  it('speaks Japanese in a ja village', () => {
    expect(statusNotice('A', 'starting', 'running', 'ja')).toContain('A');
    expect(statusNotice('A', 'starting', 'running', 'ja')).not.toBe('A is now running.');
  });
});
