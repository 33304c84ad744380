/** Shared inputs for the LLM tests: a model template and a canonical request. */
import { NO_PRICES } from '../../../src/core/billing/pricing.js';
import type { ChatRequest } from '../../../src/core/llm/canonical.js';
import type { ModelTemplate } from '../../../src/core/world/types.js';

/** A model template pointing at `baseUrl`, with small retry/timeout numbers for quick tests. */
export function template(baseUrl: string, over: Partial<ModelTemplate> = {}): ModelTemplate {
  return {
    id: 'tpl-test',
    name: 'Test',
    baseUrl,
    model: 'test-model',
    contextLength: 128_000,
    temperature: null,
    maxOutputTokens: 256,
    credential: 'not_required',
    provider: null,
    useTools: true,
    effort: null,
    requestTimeoutSecs: 5,
    maxRetries: 3,
    ...NO_PRICES,
    googleSearch: false, xaiWebSearch: false, xaiXSearch: false, openaiWebSearch: false, openaiReasoningPro: false, metaWebSearch: false, stream: true,
    ...over,
  };
}

/** A one-question request with optional overrides. */
export function request(over: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model: 'test-model',
    messages: [
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: 'hello' },
    ],
    tools: [],
    toolChoice: 'auto',
    temperature: null,
    maxTokens: 256,
    effort: null,
    cacheablePrefixLen: 0,
    ...over,
  };
}

/** A grep-like tool spec. */
export const GREP_TOOL = {
  name: 'grep',
  description: 'Search files',
  parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
};
