/**
 * The outcome of one external ask as every face reports it (CLI `ask`, the door, library users): the answer (or
 * the fixed notice when none came back), how the delivery ended, the tokens of its whole chain and their cost.
 */
import { priceBook, summarizeCost, type CostSummary } from '../core/billing/pricing.js';
import { totalsOf, type TokenTotals } from '../core/billing/tokenTotals.js';
import type { PlanTaskState } from '../core/events.js';
import type { World } from '../core/world/types.js';
import { lostReplyText } from '../actors/labels.js';
import type { ExternalOutcome } from '../actors/supervisorOptions.js';

/** What an ask ended with, and what it cost. */
export interface AskOutcome {
  /** The reception's answer, or the fixed notice in the village language when no text came back. */
  answer: string;
  state: PlanTaskState;
  /** Every LLM call of the chain (the reception and the agents it asked), summed. */
  tokens: TokenTotals;
  /** The same calls priced from their templates; `usd` null when none of them has a price. */
  cost: CostSummary;
}

/** Turns the supervisor's outcome into the reported one, priced with `world`'s templates. */
export function askOutcome(outcome: ExternalOutcome, world: World): AskOutcome {
  const answer = outcome.answer !== '' ? outcome.answer : lostReplyText(outcome.state, world.language);
  return {
    answer,
    state: outcome.state,
    tokens: totalsOf(outcome.calls),
    cost: summarizeCost(outcome.calls, priceBook(world.modelTemplates)),
  };
}
