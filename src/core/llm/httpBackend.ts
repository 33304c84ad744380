/**
 * The one HTTP backend every provider wire runs through: refuses attachments its wire cannot carry before any
 * network use, posts (streamed or not, per template), retries transient failures, and turns an interrupt into
 * an immediate abort of the request. What a wire says lives in its `WireAdapter`; nothing here reads a body.
 */
import type { ChatOptions, ChatRequest, ChatResponse, LlmBackend, Usage } from './canonical.js';
import { refuseUncarried } from './carries.js';
import { joinUrl, postJson, postStream, type HttpBackendConfig } from './httpClient.js';
import { InterruptedCall } from './llmError.js';
import { abortReason, attemptsFor, withRetry } from './retry.js';
import type { WireAdapter } from './wireAdapter.js';

/**
 * What a cut stream cost: the usage the wire reported so far, with the output estimated from the text received
 * (UTF-8 bytes / 4) when the wire reports output only at the end. All zeros = nothing reported: the turn then
 * estimates prompt and output from what was sent and received, as for any call without usage.
 */
function paidSoFar(usage: Usage, received: string): Usage {
  if (usage.prompt === 0 || usage.completion > 0 || received === '') return usage;
  return { ...usage, completion: Math.ceil(new TextEncoder().encode(received).length / 4) };
}

/** A provider wire over HTTP with the template's connection settings. */
export class HttpBackend implements LlmBackend {
  constructor(
    private readonly wire: WireAdapter,
    private readonly config: HttpBackendConfig,
  ) {}

  get name(): WireAdapter['name'] {
    return this.wire.name;
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    refuseUncarried(request, this.wire.name);
    const { baseUrl, apiKey, timeoutSecs, maxRetries, maxResponseBytes, stream, sleep, onRetry } = this.config;
    const base = {
      backend: this.wire.name,
      url: joinUrl(baseUrl, this.wire.path(request.model, stream)),
      headers: this.wire.headers(apiKey),
      body: this.wire.encode(request, stream),
      timeoutSecs,
      signal: options.signal,
      secret: apiKey,
      ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }),
    };
    // Set once something of an attempt was shown: a retry must tell the viewer to drop it first.
    let shown = false;
    return withRetry(
      async () => {
        if (shown) {
          shown = false;
          options.onDelta?.({ kind: 'restart' });
        }
        if (!stream) return this.wire.decode(await postJson(base), request);
        const assembler = this.wire.assembler(request);
        let open = false;
        try {
          const answer = await postStream({
            ...base,
            onOpen: () => void (open = true),
            onEvent: (event) => {
              for (const delta of assembler.push(event)) {
                shown = true;
                options.onDelta?.(delta);
              }
            },
          });
          return answer.kind === 'json' ? this.wire.decode(answer.json, request) : assembler.finish();
        } catch (error) {
          // Cut by an interrupt after the provider began answering: the prompt (and what streamed) was billed.
          if (options.signal?.aborted && open) throw new InterruptedCall(paidSoFar(assembler.partialUsage(), assembler.received()), assembler.received());
          if (options.signal?.aborted) throw abortReason(options.signal);
          throw error;
        }
      },
      { attempts: attemptsFor(maxRetries), signal: options.signal, sleep, onRetry },
    );
  }
}
