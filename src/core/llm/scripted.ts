/**
 * A scripted LLM backend for tests and demos: replays queued responses (or throws queued errors) in order,
 * records every request, and can fall back to a responder function. No network, no clock.
 */
import { BugError, type FuseforksError } from '../errors.js';
import { LlmError, type LlmErrorCode } from './llmError.js';
import type {
  BackendName,
  ChatOptions,
  ChatRequest,
  ChatResponse,
  LlmBackend,
  ToolCall,
  Usage,
} from './canonical.js';
import { ZERO_USAGE } from './canonical.js';

/** Computes a response from the request (and its 0-based index among all requests). */
export type Responder = (request: ChatRequest, index: number) => ChatResponse | Promise<ChatResponse>;

/** One scripted step: a response, an error to throw, or a function of the request. */
export type ScriptStep = ChatResponse | FuseforksError | Responder;

/** Options of a scripted backend. */
export interface ScriptedOptions {
  /** Reported `name` (the `backend=` log field); default `echo`. */
  name?: BackendName;
  /** Used when the queue is empty; without it an empty queue is a test bug. */
  responder?: Responder;
}

/** A text-only response. */
export function textResponse(text: string, usage: Partial<Usage> = {}): ChatResponse {
  return { text, toolCalls: [], finish: 'stop', usage: { ...ZERO_USAGE, ...usage } };
}

/** A response with tool calls (ids default to `call_{n}`). */
export function toolCallResponse(
  calls: Array<{ name: string; args?: unknown; id?: string }>,
  text: string | null = null,
  usage: Partial<Usage> = {},
): ChatResponse {
  const toolCalls: ToolCall[] = calls.map((c, i) => ({ id: c.id ?? `call_${i + 1}`, name: c.name, args: c.args ?? {} }));
  return { text, toolCalls, finish: 'tool_use', usage: { ...ZERO_USAGE, ...usage } };
}

/** An LLM error as a backend would throw it; `usage` marks a paid failure (truncated output). */
export function llmError(
  code: LlmErrorCode,
  options: { message?: string; retryable?: boolean; usage?: Partial<Usage> } = {},
): LlmError {
  const usage = options.usage ? { ...ZERO_USAGE, ...options.usage } : undefined;
  return new LlmError(code, options.message ?? `scripted ${code}`, { retryable: options.retryable ?? false, usage });
}

/** The scripted backend. */
export class ScriptedBackend implements LlmBackend {
  readonly name: BackendName;
  /** Snapshot of every request, in order (deep copies: the engine keeps mutating its message list). */
  readonly requests: ChatRequest[] = [];
  private readonly queue: ScriptStep[];
  private readonly responder: Responder | undefined;

  constructor(steps: ScriptStep[] = [], options: ScriptedOptions = {}) {
    this.queue = [...steps];
    this.name = options.name ?? 'echo';
    this.responder = options.responder;
  }

  /** Appends steps to the queue. */
  push(...steps: ScriptStep[]): void {
    this.queue.push(...steps);
  }

  /** Steps not consumed yet. */
  get pending(): number {
    return this.queue.length;
  }

  async chat(request: ChatRequest, _options?: ChatOptions): Promise<ChatResponse> {
    const index = this.requests.length;
    this.requests.push(structuredClone(request));
    const step = this.queue.shift() ?? this.responder;
    if (step === undefined) {
      throw new BugError(`scripted backend: no response queued for request ${index + 1}`);
    }
    if (step instanceof Error) throw step;
    if (typeof step === 'function') return step(request, index);
    return structuredClone(step);
  }
}
