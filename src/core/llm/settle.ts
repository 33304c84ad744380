/**
 * The rules every decoder ends with, in one place: a safety block without an answer is LLM_BLOCKED, an output
 * that hit the token limit with nothing usable is LLM_OUTPUT_TRUNCATED (both paid), anything else is a response.
 */
import type { ChatResponse } from './canonical.js';
import { blockedError, truncatedError } from './llmError.js';

/** A decoded response plus the provider's block label (null when nothing was blocked). */
export interface Decoded extends ChatResponse {
  blockReason: string | null;
}

/** Applies the empty-answer rules; `maxTokens` names the limit in a truncation error. */
export function settle(backend: string, decoded: Decoded, maxTokens: number): ChatResponse {
  const { blockReason, ...response } = decoded;
  const empty = (response.text ?? '').trim() === '' && response.toolCalls.length === 0;
  if (empty && blockReason !== null) throw blockedError(backend, blockReason, response.usage);
  if (empty && response.finish === 'length') throw truncatedError(backend, maxTokens, response.usage);
  if (response.grounding !== undefined && response.grounding.queries.length === 0 && response.grounding.sources.length === 0) delete response.grounding;
  if (response.reasoningSummary !== undefined && response.reasoningSummary.length === 0) delete response.reasoningSummary;
  return response;
}
