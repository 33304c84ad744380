/**
 * Pure wire shaping for the loopback stub LLM: script steps in, exact provider response bodies out,
 * and the few request readers a responder needs (model, system text, last user text) for both wires.
 * Kept apart from the HTTP server so the shapes can be read (and reused) without a socket.
 */

/** Which provider wire a request came in on. */
export type StubWire = 'openai' | 'anthropic';

/** Canonical usage numbers for a scripted reply (tokens). `prompt` includes cacheRead and cacheWrite. */
export interface StubUsage {
  prompt?: number;
  completion?: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** Part of cacheWrite written with the 1-hour TTL (Anthropic's `cache_creation` breakdown). */
  cacheWrite1h?: number;
  reasoning?: number;
}

/** One scripted tool call. `rawArgs` sends an exact (possibly broken) JSON string on the OpenAI wire. */
export interface StubToolCall {
  name: string;
  args?: unknown;
  id?: string;
  rawArgs?: string;
}

interface StepTiming {
  /** Wait this long (ms) before answering: makes slow turns without a hang. */
  delayMs?: number;
}

/** A text reply. `finish: 'length'` with empty text makes a truncated (paid) reply. */
export interface StubTextStep extends StepTiming {
  kind: 'text';
  text: string;
  finish?: 'stop' | 'length';
  usage?: StubUsage;
}

/** One or more tool calls, with optional accompanying text. */
export interface StubToolCallsStep extends StepTiming {
  kind: 'toolCalls';
  calls: StubToolCall[];
  text?: string;
  usage?: StubUsage;
}

/** An HTTP error status; `body` defaults to the provider's error envelope. */
export interface StubErrorStep extends StepTiming {
  kind: 'error';
  status: number;
  body?: string | Record<string, unknown>;
}

/** Never answers: the socket stays open until the client aborts or the stub closes. */
export interface StubHangStep {
  kind: 'hang';
}

/** An exact response body (JSON value or raw string) with a status, for wire shapes the other steps cannot make. */
export interface StubRawStep extends StepTiming {
  kind: 'raw';
  status?: number;
  body: unknown;
}

/** One scripted answer of the stub LLM. */
export type StubStep = StubTextStep | StubToolCallsStep | StubErrorStep | StubHangStep | StubRawStep;

/** A request as the stub received it. `headers` include auth: assert on them, never print them. */
export interface StubRequest {
  wire: StubWire;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body (null when the body was not JSON). */
  body: Record<string, unknown> | null;
  model: string;
  /** System text: OpenAI system messages or the Anthropic `system` field, joined with "\n\n". */
  system: string;
  /** Text of the last user message (text blocks only; tool results excluded). */
  lastUserText: string;
  /** 0-based arrival index over the stub's lifetime. */
  index: number;
}

/** Builders, so scripts read as sentences. */
export const reply = {
  text: (text: string, extra: Omit<StubTextStep, 'kind' | 'text'> = {}): StubTextStep => ({ kind: 'text', text, ...extra }),
  toolCalls: (calls: StubToolCall[], extra: Omit<StubToolCallsStep, 'kind' | 'calls'> = {}): StubToolCallsStep => ({
    kind: 'toolCalls',
    calls,
    ...extra,
  }),
  tool: (name: string, args: unknown = {}, extra: Omit<StubToolCallsStep, 'kind' | 'calls'> = {}): StubToolCallsStep => ({
    kind: 'toolCalls',
    calls: [{ name, args }],
    ...extra,
  }),
  error: (status: number, body?: string | Record<string, unknown>, delayMs?: number): StubErrorStep => ({
    kind: 'error',
    status,
    ...(body === undefined ? {} : { body }),
    ...(delayMs === undefined ? {} : { delayMs }),
  }),
  hang: (): StubHangStep => ({ kind: 'hang' }),
  raw: (body: unknown, status = 200): StubRawStep => ({ kind: 'raw', body, status }),
};

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b): b is { type: string; text: string } => typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text')
    .map((b) => b.text)
    .join('');
}

/** Reads model, system text and last user text out of a parsed request body of either wire. */
export function describeRequest(wire: StubWire, body: Record<string, unknown> | null): Pick<StubRequest, 'model' | 'system' | 'lastUserText'> {
  const model = typeof body?.model === 'string' ? body.model : '';
  const messages = Array.isArray(body?.messages) ? (body.messages as Array<{ role?: unknown; content?: unknown }>) : [];
  let system = '';
  if (wire === 'openai') {
    system = messages.filter((m) => m.role === 'system').map((m) => textOf(m.content)).join('\n\n');
  } else {
    system = textOf(body?.system);
  }
  let lastUserText = '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    const text = textOf(m.content);
    // An Anthropic user message holding only tool results is not the person's last words.
    if (text === '' && wire === 'anthropic' && Array.isArray(m.content)) continue;
    lastUserText = text;
    break;
  }
  return { model, system, lastUserText };
}

function usageNumbers(usage: StubUsage | undefined, text: string, promptGuess: number): Required<StubUsage> {
  return {
    prompt: usage?.prompt ?? promptGuess,
    completion: usage?.completion ?? Math.max(1, Math.ceil(text.length / 4)),
    cacheRead: usage?.cacheRead ?? 0,
    cacheWrite: usage?.cacheWrite ?? 0,
    cacheWrite1h: usage?.cacheWrite1h ?? 0,
    reasoning: usage?.reasoning ?? 0,
  };
}

/** Default prompt tokens when a step gives none: request JSON chars / 4, at least 1. */
export function guessPromptTokens(rawBody: string): number {
  return Math.max(1, Math.ceil(rawBody.length / 4));
}

/** The success body for a text or tool-call step, in the exact wire shape. */
export function successBody(wire: StubWire, step: StubTextStep | StubToolCallsStep, model: string, index: number, promptGuess: number): Record<string, unknown> {
  const text = step.kind === 'text' ? step.text : (step.text ?? '');
  const calls = step.kind === 'toolCalls' ? step.calls : [];
  const u = usageNumbers(step.usage, text, promptGuess);
  const finish = step.kind === 'toolCalls' ? 'tool' : (step.finish ?? 'stop');
  const callId = (c: StubToolCall, i: number, prefix: string): string => c.id ?? `${prefix}${index}_${i}`;
  if (wire === 'openai') {
    return {
      id: `chatcmpl-stub-${index}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text === '' && calls.length > 0 ? null : text,
            ...(calls.length === 0
              ? {}
              : {
                  tool_calls: calls.map((c, i) => ({
                    id: callId(c, i, 'call_'),
                    type: 'function',
                    function: { name: c.name, arguments: c.rawArgs ?? JSON.stringify(c.args ?? {}) },
                  })),
                }),
          },
          finish_reason: finish === 'tool' ? 'tool_calls' : finish,
        },
      ],
      usage: {
        prompt_tokens: u.prompt,
        completion_tokens: u.completion,
        total_tokens: u.prompt + u.completion,
        prompt_tokens_details: { cached_tokens: u.cacheRead },
        completion_tokens_details: { reasoning_tokens: u.reasoning },
      },
    };
  }
  const content: Array<Record<string, unknown>> = [];
  if (text !== '') content.push({ type: 'text', text });
  calls.forEach((c, i) => content.push({ type: 'tool_use', id: callId(c, i, 'toolu_'), name: c.name, input: c.args ?? {} }));
  return {
    id: `msg_stub_${index}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: finish === 'tool' ? 'tool_use' : finish === 'length' ? 'max_tokens' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: Math.max(0, u.prompt - u.cacheRead - u.cacheWrite),
      output_tokens: u.completion,
      cache_creation_input_tokens: u.cacheWrite,
      cache_read_input_tokens: u.cacheRead,
      cache_creation: { ephemeral_5m_input_tokens: Math.max(0, u.cacheWrite - u.cacheWrite1h), ephemeral_1h_input_tokens: u.cacheWrite1h },
    },
  };
}

/** The provider's error envelope for a status (used when an error step has no body). */
export function errorBody(wire: StubWire, status: number): Record<string, unknown> {
  const message = `stub error ${status}`;
  if (wire === 'openai') return { error: { message, type: status === 401 ? 'invalid_request_error' : 'server_error', code: String(status) } };
  const type = status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  return { type: 'error', error: { type, message } };
}
