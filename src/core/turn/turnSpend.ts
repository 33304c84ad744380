/**
 * The per-turn spend ledger: every call of the turn is absorbed here, including paid failures and the
 * summary call, so the `turn:` line and the settlement see one total.
 */
import { effectiveMilli } from '../budget/effectiveTokens.js';
import type { Usage } from '../llm/canonical.js';
import type { CallRecord } from '../sessions/records.js';
import type { TurnSpend } from './ports.js';

/** Accumulates usage (tokens) and effective cost (milli-tokens) of one turn. */
export class SpendLedger {
  private readonly spend: TurnSpend = { prompt: 0, cached: 0, cacheWrite: 0, cacheWrite1h: 0, completion: 0, reasoning: 0, effectiveMilli: 0 };

  /** Adds one call's usage and its effective cost in milli-tokens. */
  absorb(usage: Usage, milli: number): void {
    this.spend.prompt += usage.prompt;
    this.spend.cached += usage.cacheRead;
    this.spend.cacheWrite += usage.cacheWrite;
    this.spend.cacheWrite1h += usage.cacheWrite1h;
    this.spend.completion += usage.completion;
    this.spend.reasoning += usage.reasoning;
    this.spend.effectiveMilli += milli;
  }

  /** Adds one reported call (the driver's tally of a turn that failed before it could settle). */
  absorbCall(call: CallRecord): void {
    const usage = usageOfCall(call);
    this.absorb(usage, effectiveMilli(usage));
  }

  /** prompt + completion tokens so far. */
  get total(): number {
    return this.spend.prompt + this.spend.completion;
  }

  /** A copy of the totals. */
  snapshot(): TurnSpend {
    return { ...this.spend };
  }
}

/** The canonical usage a call record carries. */
export function usageOfCall(call: CallRecord): Usage {
  return {
    prompt: call.prompt,
    completion: call.completion,
    cacheRead: call.cached,
    cacheWrite: call.cacheWrite,
    cacheWrite1h: call.cacheWrite1h,
    reasoning: call.reasoning,
  };
}

type Reported = Omit<Usage, 'cacheWrite1h'> & { cacheWrite1h?: unknown };

function isUsage(value: unknown): value is Reported {
  if (typeof value !== 'object' || value === null) return false;
  const u = value as Record<string, unknown>;
  return ['prompt', 'completion', 'cacheRead', 'cacheWrite', 'reasoning'].every((k) => typeof u[k] === 'number');
}

/** The canonical usage of a reported one (an older payload may lack the 1-hour write: 0). */
function canonical(u: Reported): Usage {
  const cacheWrite1h = typeof u.cacheWrite1h === 'number' ? u.cacheWrite1h : 0;
  return { prompt: u.prompt, completion: u.completion, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite, cacheWrite1h, reasoning: u.reasoning };
}

/**
 * The usage a failed call was still billed for: a truncated output (core.md §6.5), a safety block, or a stream an interrupt cut
 * after the provider had started answering (`InterruptedCall`). Null when nothing was paid for.
 */
export function paidUsage(error: unknown): Usage | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as { code?: unknown; name?: unknown; usage?: unknown; details?: unknown };
  const paidFailure = e.code === 'LLM_OUTPUT_TRUNCATED' || e.code === 'LLM_BLOCKED';
  if (!paidFailure && !(e.name === 'AbortError' && isUsage(e.usage))) return null;
  if (isUsage(e.usage)) return canonical(e.usage);
  // A payload that crossed a thread keeps the usage only in its details.
  if (isUsage(e.details)) return canonical(e.details);
  return null;
}

/** The text an interrupted stream had delivered before the cut ('' for anything else): the completion estimate. */
export function receivedBeforeCut(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const received = (error as { received?: unknown }).received;
  return typeof received === 'string' ? received : '';
}
