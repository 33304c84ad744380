/**
 * The worker's half of "summarize and continue": plans the call over the given (or its own) history, runs it on
 * the agent's backend without tools, and reports the text with the call's usage record. Folding the worker's
 * history is the caller's (it owns the history); this only decides from the text whether a fold is due.
 */
import { accountableUsage, usageTotal, utf8Bytes } from '../core/budget/effectiveTokens.js';
import { toWire } from '../core/errors.js';
import type { LlmBackend } from '../core/llm/canonical.js';
import { ZERO_USAGE } from '../core/llm/canonical.js';
import { planSummary } from '../core/summaries/summaryRequest.js';
import { judgeSummary } from '../core/summaries/summaryVerdict.js';
import { callRecord, failedOutcome } from '../core/turn/callMeter.js';
import type { Exchange } from '../core/turn/ports.js';
import { requestText } from '../core/turn/turnMessages.js';
import type { InitMessage } from './protocol.js';
import type { SummaryCallReply } from './summaryCall.js';

/** Runs one summary call; never throws for an LLM failure (it comes back as `failed` with its call record). */
export async function runSummaryCall(
  init: InitMessage,
  backend: LlmBackend,
  previous: string | null,
  history: readonly Exchange[],
  now: () => number,
): Promise<SummaryCallReply> {
  const plan = planSummary(init.template, init.language, previous, history);
  if (plan === null) return { kind: 'nothing' };
  const stamp = { purpose: 'summarize' as const, startedMs: now() };
  let text: string;
  let reported;
  try {
    const response = await backend.chat(plan.request);
    text = (response.text ?? '').trim();
    reported = response.usage;
  } catch (error) {
    const call = callRecord(init, backend.name, stamp, now(), ZERO_USAGE, false, failedOutcome(error, false));
    return { kind: 'failed', error: toWire(error), call };
  }
  const usage = accountableUsage(reported, utf8Bytes(requestText(plan.request.messages)), utf8Bytes(text));
  const call = callRecord(init, backend.name, stamp, now(), usage, usageTotal(reported) === 0, { kind: 'ok' });
  const verdict = judgeSummary(text, plan.foldedChars);
  return { kind: 'done', text, folded: verdict.fold, foldedMsgs: plan.foldedMsgs, foldedChars: plan.foldedChars, unread: plan.unread, call };
}
