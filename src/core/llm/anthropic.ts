/**
 * The Anthropic backend: `POST {baseUrl}/messages` with `x-api-key` and `anthropic-version`, through the
 * shared HTTP client with retries. Encoding and decoding are the pure functions in `anthropicWire.ts`.
 */
import type { ChatOptions, ChatRequest, ChatResponse, LlmBackend } from './canonical.js';
import { decodeAnthropicResponse, encodeAnthropicRequest } from './anthropicWire.js';
import { joinUrl, postJson, type HttpBackendConfig } from './httpClient.js';
import { attemptsFor, withRetry } from './retry.js';

/** The API version header value this wire speaks. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Anthropic Messages backend. */
export class AnthropicBackend implements LlmBackend {
  readonly name = 'anthropic' as const;
  constructor(private readonly config: HttpBackendConfig) {}

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    const { baseUrl, apiKey, timeoutSecs, maxRetries, sleep, onRetry } = this.config;
    const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
    if (apiKey !== '') headers['x-api-key'] = apiKey;
    const body = encodeAnthropicRequest(request);
    return withRetry(
      async () => {
        const json = await postJson({ backend: 'anthropic', url: joinUrl(baseUrl, '/messages'), headers, body, timeoutSecs, signal: options.signal, secret: apiKey });
        return decodeAnthropicResponse(json, request.maxTokens);
      },
      { attempts: attemptsFor(maxRetries), signal: options.signal, sleep, onRetry },
    );
  }
}
