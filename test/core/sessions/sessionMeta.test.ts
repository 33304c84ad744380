import { describe, expect, it } from 'vitest';
import { checkMeta, collapseAndCut, newSessionId, titleFrom } from '../../../src/core/sessions/sessionMeta.js';
import type { Endpoint } from '../../../src/core/events.js';

function message(from: Endpoint, content: string) {
  return { kind: 'message' as const, message: { id: 'x', from, to: { kind: 'agent' as const, id: 'a' }, content, tokens: 0, tsMs: 0, hop: 0 } };
}

describe('session meta rules', () => {
  it('ids are {epoch_ms}-{8 hex}', () => {
    expect(newSessionId(1767225600000)).toMatch(/^1767225600000-[0-9a-f]{8}$/);
  });

  it.each([
    ['  a \n\t b  ', 30, 'a b'],
    ['日本語のタイトルです', 3, '日本語'],
    ['😀😀😀', 2, '😀😀'],
  ])('collapseAndCut(%j, %i)', (text, max, expected) => {
    expect(collapseAndCut(text, max)).toBe(expected);
  });

  it.each([
    ['user message titles', message({ kind: 'user' }, 'Plan   the\nlaunch'), 'Plan the launch'],
    ['agent message does not', message({ kind: 'agent', id: 'b' }, 'hi'), null],
    ['blank user message does not', message({ kind: 'user' }, '   '), null],
    ['exchange does not', { kind: 'exchange' as const, agentId: 'a', sent: 's', replied: 'r' }, null],
  ])('%s', (_n, body, expected) => {
    expect(titleFrom(body)).toBe(expected);
  });

  it('rejects meta that is not one', () => {
    expect(checkMeta({ id: 'a', createdAtMs: 1, updatedAtMs: 2, recordCount: 0 })).not.toBeNull();
    expect(checkMeta({ id: 'a', createdAtMs: '1', updatedAtMs: 2, recordCount: 0 })).toBeNull();
    expect(checkMeta({ id: 'a', createdAtMs: 1, updatedAtMs: 2, recordCount: 0, forkedFrom: { sessionId: 1 } })).toBeNull();
    expect(checkMeta(null)).toBeNull();
  });
});
