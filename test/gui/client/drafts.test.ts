import { describe, expect, it } from 'vitest';
import { applyEvent, emptyView } from '../../../src/gui/client/lib/view.js';
import type { CoreEvent } from '../../../src/core/events.js';

const delta = (turnSeq: number, round: number, kind: 'text' | 'thinking' | 'restart', text = ''): CoreEvent => ({ type: 'textDelta', agentId: 'a', turnSeq, round, kind, text });

describe('streamed drafts in the chat view', () => {
  it('grows with each piece; thinking apart; a new round or a restart starts over', () => {
    const view = emptyView();
    applyEvent(view, delta(1, 1, 'thinking', 'hmm'), 0);
    applyEvent(view, delta(1, 1, 'text', 'Hel'), 0);
    applyEvent(view, delta(1, 1, 'text', 'lo'), 0);
    expect(view.drafts.a).toEqual({ turnSeq: 1, round: 1, text: 'Hello', thinking: 'hmm' });
    applyEvent(view, delta(1, 1, 'restart'), 0);
    expect(view.drafts.a).toMatchObject({ text: '', thinking: '' });
    applyEvent(view, delta(1, 2, 'text', 'Round two'), 0);
    expect(view.drafts.a).toMatchObject({ round: 2, text: 'Round two' });
  });

  it('the recorded reply, the end of the turn or a cleared conversation removes the draft', () => {
    const view = emptyView();
    applyEvent(view, delta(1, 1, 'text', 'x'), 0);
    applyEvent(view, { type: 'messageSent', message: { id: 'm', from: { kind: 'agent', id: 'a' }, to: { kind: 'user' }, content: 'x', tokens: 1, tsMs: 0, hop: 1 } }, 0);
    expect(view.drafts.a).toBeUndefined();
    applyEvent(view, delta(2, 1, 'text', 'y'), 0);
    applyEvent(view, { type: 'agentTyping', agentId: 'a', active: false }, 0);
    expect(view.drafts.a).toBeUndefined();
    applyEvent(view, delta(3, 1, 'text', 'z'), 0);
    applyEvent(view, { type: 'conversationCleared' }, 0);
    expect(view.drafts).toEqual({});
  });
});
