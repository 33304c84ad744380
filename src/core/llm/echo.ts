/**
 * The offline backend: answers with a prefix and the last user message. Deterministic, no network.
 * Used on first run, in tests, and (with a reason in the prefix) as the visible degraded fallback.
 */
import type { ChatRequest, ChatResponse, LlmBackend, Usage } from './canonical.js';

/** Default prefix of an echo reply. */
export const ECHO_PREFIX = '[echo]';

/** Echo backend: text = `${prefix} ${last user content}`; usage is a chars/4 estimate; never calls tools. */
export class EchoBackend implements LlmBackend {
  readonly name = 'echo' as const;
  constructor(readonly prefix: string = ECHO_PREFIX) {}

  chat(request: ChatRequest): Promise<ChatResponse> {
    let last = '';
    for (let i = request.messages.length - 1; i >= 0; i--) {
      const m = request.messages[i];
      if (m !== undefined && m.role === 'user') {
        last = m.content;
        break;
      }
    }
    const text = `${this.prefix} ${last}`;
    return Promise.resolve({ text, toolCalls: [], finish: 'stop', usage: estimatedUsage(request, text) });
  }
}

/** What an offline reply costs, estimated as chars/4 (prompt: every message; completion: the reply, at least 1). */
export function estimatedUsage(request: ChatRequest, reply: string): Usage {
  const promptChars = request.messages.reduce((n, m) => n + m.content.length, 0);
  return {
    prompt: Math.ceil(promptChars / 4),
    completion: Math.max(1, Math.ceil(reply.length / 4)),
    cacheRead: 0,
    cacheWrite: 0,
    cacheWrite1h: 0,
    reasoning: 0,
  };
}
