import { describe, expect, it } from 'vitest';
import { chatRows } from '../../../src/gui/client/lib/chatRows.js';
import { applyEvent, emptyView, toolLineTime } from '../../../src/gui/client/lib/view.js';
import type { CoreEvent } from '../../../src/core/events.js';

const typing = (active: boolean): CoreEvent => ({ type: 'agentTyping', agentId: 'a', active });
const reply = (id: string, tsMs: number): CoreEvent => ({ type: 'messageSent', message: { id, from: { kind: 'agent', id: 'a' }, to: { kind: 'user' }, content: id, tokens: 1, tsMs, hop: 1 } });
const tool = (name: string): CoreEvent => ({ type: 'toolInvoked', agentId: 'a', tool: name, ok: true, reason: { kind: 'omitted' } });
const order = (view: ReturnType<typeof emptyView>) => chatRows(view.messages, view.lines, '', null).map((r) => (r.kind === 'line' ? `tool:${r.l.text}` : r.m.id));

describe('toolLineTime', () => {
  it.each<[string, number[] | undefined, number, number]>([
    ['no message since the last line: now', undefined, 500, 500],
    ['an empty list: now', [], 500, 500],
    ['before the earliest message that came in', [300, 200], 500, 199],
    ['never later than now', [900], 500, 500],
  ])('%s', (_name, list, now, expected) => {
    expect(toolLineTime(list, now)).toBe(expected);
  });
});

describe('tool lines in the chat order', () => {
  it('a tool event that arrives after the reply it led to is shown before that reply', () => {
    const view = emptyView();
    applyEvent(view, typing(true), 100);
    applyEvent(view, tool('read'), 150);
    applyEvent(view, reply('final', 200), 200);
    applyEvent(view, tool('grep'), 260);
    applyEvent(view, typing(false), 270);
    expect(order(view)).toEqual(['tool:read', 'tool:grep', 'final']);
  });

  it('the next turn\'s tools come after the last turn\'s reply', () => {
    const view = emptyView();
    applyEvent(view, typing(true), 100);
    applyEvent(view, reply('first', 200), 200);
    applyEvent(view, typing(false), 210);
    applyEvent(view, typing(true), 300);
    applyEvent(view, tool('read'), 350);
    expect(order(view)).toEqual(['first', 'tool:read']);
  });
});
