/**
 * The per-turn spend ledger: every call of the turn is absorbed here, including paid failures and the
 * summary call, so the `turn:` line and the settlement see one total.
 */
import type { Usage } from '../llm/canonical.js';
import type { TurnSpend } from './ports.js';

/** Accumulates usage (tokens) and effective cost (milli-tokens) of one turn. */
export class SpendLedger {
  private readonly spend: TurnSpend = { prompt: 0, cached: 0, cacheWrite: 0, completion: 0, reasoning: 0, effectiveMilli: 0 };

  /** Adds one call's usage and its effective cost in milli-tokens. */
  absorb(usage: Usage, milli: number): void {
    this.spend.prompt += usage.prompt;
    this.spend.cached += usage.cacheRead;
    this.spend.cacheWrite += usage.cacheWrite;
    this.spend.completion += usage.completion;
    this.spend.reasoning += usage.reasoning;
    this.spend.effectiveMilli += milli;
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

function isUsage(value: unknown): value is Usage {
  if (typeof value !== 'object' || value === null) return false;
  const u = value as Record<string, unknown>;
  return ['prompt', 'completion', 'cacheRead', 'cacheWrite', 'reasoning'].every((k) => typeof u[k] === 'number');
}

/** The usage a failed call was still billed for: only a truncated output carries it (core.md §6.5). */
export function paidUsage(error: unknown): Usage | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as { code?: unknown; usage?: unknown; details?: unknown };
  if (e.code !== 'LLM_OUTPUT_TRUNCATED') return null;
  if (isUsage(e.usage)) return e.usage;
  // A payload that crossed a thread keeps the usage only in its details.
  if (isUsage(e.details)) {
    const d = e.details;
    return { prompt: d.prompt, completion: d.completion, cacheRead: d.cacheRead, cacheWrite: d.cacheWrite, reasoning: d.reasoning };
  }
  return null;
}
