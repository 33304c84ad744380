/**
 * Effective-token arithmetic (reference core.md §2.10): one number that weighs uncached input ×1, cached
 * input ×0.1 and output ×4, kept in milli-tokens so the weights stay integers.
 */
import type { Usage } from '../llm/canonical.js';

/** Milli effective tokens per uncached prompt token (cacheWrite counts here, at ×1). */
const UNCACHED_MILLI = 1000;
/** Milli effective tokens per cache-read prompt token (×0.1). */
const CACHED_MILLI = 100;
/** Milli effective tokens per completion token (×4; reasoning is part of completion, not added again). */
const COMPLETION_MILLI = 4000;
/** The estimate floor: 1,000 effective tokens, so a first call never reserves nothing. */
export const ESTIMATE_FLOOR_MILLI = 1_000_000;

/** Effective cost of one call in milli-tokens; saturates at 0 when a provider reports cacheRead > prompt. */
export function effectiveMilli(usage: Usage): number {
  const uncached = Math.max(0, usage.prompt - usage.cacheRead);
  const cached = Math.max(0, usage.cacheRead);
  const completion = Math.max(0, usage.completion);
  return uncached * UNCACHED_MILLI + cached * CACHED_MILLI + completion * COMPLETION_MILLI;
}

/** Whole effective tokens (rounded up) from milli-tokens. */
export function effectiveTokens(milli: number): number {
  return Math.ceil(Math.max(0, milli) / 1000);
}

/** `prompt + completion` as the providers report it (0 = the provider reported nothing). */
export function usageTotal(usage: Usage): number {
  return usage.prompt + usage.completion;
}

/**
 * The usage to account for one call: the reported one, or — when the provider reported nothing
 * (total 0) — a bytes/4 estimate of what was sent and received, so an unmetered backend still spends.
 */
export function accountableUsage(usage: Usage, sentBytes: number, receivedBytes: number): Usage {
  if (usageTotal(usage) > 0) return usage;
  return {
    prompt: Math.ceil(Math.max(0, sentBytes) / 4),
    completion: Math.ceil(Math.max(0, receivedBytes) / 4),
    cacheRead: 0,
    cacheWrite: 0,
    cacheWrite1h: 0,
    reasoning: 0,
  };
}

/** The reservation for the next call in milli-tokens: last call's cost, at least the floor, at most the ceiling. */
export function estimateMilli(lastCallMilli: number, ceilingMilli: number): number {
  return Math.min(Math.max(lastCallMilli, ESTIMATE_FLOOR_MILLI), ceilingMilli);
}

const encoder = new TextEncoder();

/** UTF-8 byte length of a string (the bytes/4 estimate counts bytes, not chars). */
export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}
