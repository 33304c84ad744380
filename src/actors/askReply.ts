/**
 * What an asking turn receives when the turn it asked ends — one rule for both routes: the supervisor's (after it
 * recorded the turn) and the direct channel from the target's worker (directReplies.ts). Pure.
 */
import type { DeliveryResult, TurnResult } from '../core/turn/ports.js';
import type { Language } from '../core/world/types.js';
import { lostReplyText } from './labels.js';

/** The answer of a finished turn: its reply, or `handed_off` when it passed the request on. */
export function answerOfTurn(r: TurnResult): DeliveryResult {
  const stopped = r.stop.kind === 'interrupted' || r.stop.kind === 'budget_exhausted' || r.stop.kind === 'reserve_short';
  if (stopped || r.outcome.kind === 'finish') return { text: r.replyText, state: r.replyState };
  return { text: r.replyText, state: 'handed_off' };
}

/** As the asking model reads it: an empty answer says why it is empty (never an empty tool result). */
export function forAsker(r: DeliveryResult, language: Language): DeliveryResult {
  return r.text === '' ? { ...r, text: lostReplyText(r.state, language) } : r;
}
