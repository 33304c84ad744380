/**
 * The meter of one LLM call inside a turn: charges it to the turn's ledger (the budget's effective tokens) and
 * reports it as a `call` record through `TurnPorts.reportCall` — agent, template, model, usage, latency, outcome.
 * Every call is reported, paid or not, so the session store holds one record per request a provider saw.
 */
import { accountableUsage, effectiveMilli, utf8Bytes, usageTotal } from '../budget/effectiveTokens.js';
import type { ChatRequest, Usage } from '../llm/canonical.js';
import { ZERO_USAGE } from '../llm/canonical.js';
import type { CallOutcome, CallPurpose, CallRecord } from '../sessions/records.js';
import type { TurnDeps, TurnInput } from './ports.js';
import { requestText } from './turnMessages.js';
import type { SpendLedger } from './turnSpend.js';

/** What the meter needs of a running turn. */
export interface MeteredRun {
  input: TurnInput;
  deps: TurnDeps;
  ledger: SpendLedger;
  /** Milli effective tokens of the latest call (the next reservation's estimate). */
  lastCallMilli: number;
}

/** Why and when a call was made (epoch ms from `deps.now()`). */
export interface CallStamp {
  purpose: CallPurpose;
  startedMs: number;
}

/** The record of one call of `input`'s agent and template (usage already accountable). */
export function callRecord(input: Pick<TurnInput, 'agent' | 'template'>, backend: string, stamp: CallStamp, endedMs: number, usage: Usage, estimated: boolean, outcome: CallOutcome): CallRecord {
  return {
    agentId: input.agent.id,
    templateId: input.template.id,
    model: input.template.model,
    backend,
    purpose: stamp.purpose,
    tsMs: stamp.startedMs,
    latencyMs: Math.max(0, endedMs - stamp.startedMs),
    outcome,
    prompt: usage.prompt,
    cached: usage.cacheRead,
    cacheWrite: usage.cacheWrite,
    cacheWrite1h: usage.cacheWrite1h,
    completion: usage.completion,
    reasoning: usage.reasoning,
    estimated,
  };
}

/** How a failed call ended: interrupted when the turn's signal cut it, else failed with the error's code. */
export function failedOutcome(error: unknown, aborted: boolean): CallOutcome {
  if (aborted) return { kind: 'interrupted' };
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : 'BUG';
  return { kind: 'failed', code };
}

/**
 * Accounts one paid call (a reply, or a failure that still carried usage): the ledger, the last-call cost and the
 * call record. A wire that reported nothing is charged the bytes/4 estimate and marked `estimated`.
 * Returns the call's milli effective tokens (what the reservation commits).
 */
export function absorbCall(run: MeteredRun, request: ChatRequest, reported: Usage, received: string | (() => string), stamp: CallStamp, outcome: CallOutcome): number {
  // The estimate serializes the whole request: only a call without reported usage pays for it.
  const usage = usageTotal(reported) > 0 ? reported : accountableUsage(reported, utf8Bytes(requestText(request.messages)), utf8Bytes(typeof received === 'string' ? received : received()));
  const milli = effectiveMilli(usage);
  run.ledger.absorb(usage, milli);
  run.lastCallMilli = milli;
  report(run, stamp, usage, usageTotal(reported) === 0, outcome);
  return milli;
}

/** Reports a call that failed without usage (nothing charged; the provider may still have seen the request). */
export function reportUnpaid(run: MeteredRun, stamp: CallStamp, outcome: CallOutcome): void {
  report(run, stamp, ZERO_USAGE, false, outcome);
}

function report(run: MeteredRun, stamp: CallStamp, usage: Usage, estimated: boolean, outcome: CallOutcome): void {
  const { deps, input } = run;
  deps.ports.reportCall?.(callRecord(input, deps.backend.name, stamp, deps.now(), usage, estimated, outcome));
}
