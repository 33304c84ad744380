/**
 * Script steps and request readers for the loopback stub LLM, for every wire it speaks: OpenAI chat completions,
 * Anthropic Messages, Gemini generateContent and the Responses API (OpenAI / xAI / Meta share its shapes).
 * The exact response bodies live in `stubLlmBodies.ts`, the event streams in `stubLlmStream.ts`.
 */

/** Which provider wire a request came in on. */
export type StubWire = 'openai' | 'anthropic' | 'gemini' | 'responses';

/** Canonical usage numbers for a scripted reply (tokens). `prompt` includes cacheRead and cacheWrite. */
export interface StubUsage {
  prompt?: number;
  completion?: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** Part of cacheWrite written for 1 hour (Anthropic). */
  cacheWrite1h?: number;
  /** Part of completion. */
  reasoning?: number;
  /**
   * Report reasoning outside the completion count, as xAI does on its OpenAI-compatible and Responses wires:
   * `completion_tokens`/`output_tokens` = completion − reasoning, and total = prompt + that + reasoning.
   */
  reasoningOutside?: boolean;
}

/** One scripted tool call. `rawArgs` sends an exact (possibly broken) JSON string where the wire uses strings. */
export interface StubToolCall {
  name: string;
  args?: unknown;
  id?: string;
  rawArgs?: string;
  /** Gemini: a thoughtSignature on the functionCall part (must come back on the next request). */
  signature?: string;
}

/** A provider-side search behind a text reply (Gemini grounding; Responses web_search_call + citations). */
export interface StubGrounding {
  queries: string[];
  sources: Array<{ uri: string; title: string }>;
}

interface StepTiming {
  /** Wait this long (ms) before answering: makes slow turns without a hang. */
  delayMs?: number;
  /** Streamed answers: split the text into pieces of this many chars (default 4). */
  chunkChars?: number;
  /** Streamed answers: wait this long between events (ms; default 0). */
  chunkDelayMs?: number;
  /** Streamed answers: send this many pieces of the text, then keep the connection open without another byte. */
  stallAfterChunks?: number;
}

/** A text reply. `finish: 'length'` with empty text makes a truncated (paid) reply. */
export interface StubTextStep extends StepTiming {
  kind: 'text';
  text: string;
  finish?: 'stop' | 'length';
  usage?: StubUsage;
  /** Thinking the model shows apart from the answer. */
  thinking?: string;
  grounding?: StubGrounding;
}

/** One or more tool calls, with optional accompanying text. */
export interface StubToolCallsStep extends StepTiming {
  kind: 'toolCalls';
  calls: StubToolCall[];
  text?: string;
  usage?: StubUsage;
  thinking?: string;
}

/** The provider's safety block (no answer): Gemini SAFETY, Anthropic refusal, OpenAI content_filter. */
export interface StubBlockedStep extends StepTiming {
  kind: 'blocked';
  usage?: StubUsage;
}

/** An HTTP error status; `body` defaults to the provider's error envelope. */
export interface StubErrorStep extends StepTiming {
  kind: 'error';
  status: number;
  body?: string | Record<string, unknown>;
}

/** A 200 stream that sends `text` and then the provider's in-stream error event (e.g. Anthropic overloaded). */
export interface StubStreamErrorStep extends StepTiming {
  kind: 'streamError';
  text: string;
  /** The HTTP status the error stands for (529/500 are transient, 400 is not). */
  status: number;
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
  /** Sent as this content type (default application/json). */
  contentType?: string;
}

/** One scripted answer of the stub LLM. */
export type StubStep = StubTextStep | StubToolCallsStep | StubBlockedStep | StubErrorStep | StubStreamErrorStep | StubHangStep | StubRawStep;

/** A request as the stub received it. `headers` include auth: assert on them, never print them. */
export interface StubRequest {
  wire: StubWire;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body (null when the body was not JSON). */
  body: Record<string, unknown> | null;
  model: string;
  /** The client asked for an event stream. */
  stream: boolean;
  /** System text (OpenAI system messages, Anthropic `system`, Gemini systemInstruction, Responses system items). */
  system: string;
  /** Text of the last user message (text only; tool results excluded). */
  lastUserText: string;
  /** 0-based arrival index over the stub's lifetime. */
  index: number;
  /** Epoch ms (performance clock) of the first response byte the stub wrote; null before. */
  firstByteAt: number | null;
  /** True once the client closed the connection before the stub had finished its answer. */
  closedEarly: boolean;
}

/** Builders, so scripts read as sentences. */
export const reply = {
  text: (text: string, extra: Omit<StubTextStep, 'kind' | 'text'> = {}): StubTextStep => ({ kind: 'text', text, ...extra }),
  toolCalls: (calls: StubToolCall[], extra: Omit<StubToolCallsStep, 'kind' | 'calls'> = {}): StubToolCallsStep => ({ kind: 'toolCalls', calls, ...extra }),
  tool: (name: string, args: unknown = {}, extra: Omit<StubToolCallsStep, 'kind' | 'calls'> = {}): StubToolCallsStep => ({ kind: 'toolCalls', calls: [{ name, args }], ...extra }),
  blocked: (usage?: StubUsage): StubBlockedStep => ({ kind: 'blocked', ...(usage === undefined ? {} : { usage }) }),
  error: (status: number, body?: string | Record<string, unknown>, delayMs?: number): StubErrorStep => ({
    kind: 'error',
    status,
    ...(body === undefined ? {} : { body }),
    ...(delayMs === undefined ? {} : { delayMs }),
  }),
  streamError: (text: string, status: number): StubStreamErrorStep => ({ kind: 'streamError', text, status }),
  hang: (): StubHangStep => ({ kind: 'hang' }),
  raw: (body: unknown, status = 200, contentType?: string): StubRawStep => ({ kind: 'raw', body, status, ...(contentType === undefined ? {} : { contentType }) }),
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return list(content)
    .map(obj)
    .filter((b) => (b.type === 'text' || b.type === 'input_text') && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('');
}

function geminiText(content: unknown): string {
  return list(obj(content).parts)
    .map(obj)
    .filter((p) => typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('');
}

/** Reads model, stream flag, system text and last user text out of a parsed request body of any wire. */
export function describeRequest(wire: StubWire, path: string, body: Obj | null): Pick<StubRequest, 'model' | 'stream' | 'system' | 'lastUserText'> {
  if (wire === 'gemini') {
    const model = decodeURIComponent(/\/models\/([^:]+):/.exec(path)?.[1] ?? '');
    const contents = list(body?.contents).map(obj);
    let lastUserText = '';
    for (let i = contents.length - 1; i >= 0; i--) {
      const c = contents[i] as Obj;
      const text = geminiText(c);
      if (c.role !== 'user' || (text === '' && list(c.parts).some((p) => obj(p).functionResponse !== undefined))) continue;
      lastUserText = text;
      break;
    }
    return { model, stream: path.includes(':streamGenerateContent'), system: geminiText(body?.systemInstruction), lastUserText };
  }
  const model = typeof body?.model === 'string' ? body.model : '';
  const stream = body?.stream === true;
  const items = list(wire === 'responses' ? body?.input : body?.messages).map(obj);
  const system =
    wire === 'anthropic'
      ? textOf(body?.system)
      : items.filter((m) => m.role === 'system').map((m) => textOf(m.content)).join('\n\n');
  let lastUserText = '';
  for (let i = items.length - 1; i >= 0; i--) {
    const m = items[i] as Obj;
    if (m.role !== 'user') continue;
    const text = textOf(m.content);
    // An Anthropic user message holding only tool results is not the person's last words.
    if (text === '' && wire === 'anthropic' && Array.isArray(m.content)) continue;
    lastUserText = text;
    break;
  }
  return { model, stream, system, lastUserText };
}

/** Canonical numbers of a step, with defaults: prompt = request chars/4, completion = text chars/4 (at least 1). */
export function usageNumbers(usage: StubUsage | undefined, text: string, promptGuess: number): Required<StubUsage> {
  return {
    reasoningOutside: usage?.reasoningOutside ?? false,
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

/** One tool result as the client sent it back, in any wire's framing. */
export interface StubToolResult {
  /** The call id it answers (Gemini: the function name, its only key). */
  callId: string;
  text: string;
}

/**
 * The tool results a request carries, oldest first, read from each wire's own framing: OpenAI `role: tool`
 * messages, Anthropic `tool_result` blocks in user turns, Gemini `functionResponse` parts, Responses
 * `function_call_output` items.
 */
export function toolResultsOf(r: Pick<StubRequest, 'wire' | 'body'>): StubToolResult[] {
  const body = r.body ?? {};
  switch (r.wire) {
    case 'openai':
      return list(body.messages)
        .map(obj)
        .filter((m) => m.role === 'tool')
        .map((m) => ({ callId: String(m.tool_call_id ?? ''), text: textOf(m.content) }));
    case 'anthropic':
      return list(body.messages)
        .map(obj)
        .filter((m) => m.role === 'user')
        .flatMap((m) => list(m.content).map(obj))
        .filter((b) => b.type === 'tool_result')
        .map((b) => ({ callId: String(b.tool_use_id ?? ''), text: textOf(b.content) }));
    case 'gemini':
      return list(body.contents)
        .map(obj)
        .flatMap((c) => list(c.parts).map(obj))
        .filter((p) => p.functionResponse !== undefined)
        .map((p) => obj(p.functionResponse))
        .map((f) => ({ callId: String(f.id ?? f.name ?? ''), text: String(obj(f.response).result ?? '') }));
    case 'responses':
      return list(body.input)
        .map(obj)
        .filter((i) => i.type === 'function_call_output')
        .map((i) => ({ callId: String(i.call_id ?? ''), text: typeof i.output === 'string' ? i.output : textOf(i.output) }));
  }
}
