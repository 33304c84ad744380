/**
 * Whole (non-streamed) response bodies of the stub LLM, in each provider's published shape, and each provider's
 * error envelope. Shared pieces (usage blocks, ids) are reused by the event streams in `stubLlmStream.ts`.
 */
import { usageNumbers, type StubBlockedStep, type StubTextStep, type StubToolCall, type StubToolCallsStep, type StubUsage, type StubWire } from './stubLlmWire.js';

/** A step the stub answers with a body (or a stream) of the provider's success shape. */
export type AnswerStep = StubTextStep | StubToolCallsStep | StubBlockedStep;

/** What every wire needs to know about an answer. */
export interface Answer {
  text: string;
  thinking: string;
  calls: StubToolCall[];
  finish: 'stop' | 'length' | 'tool' | 'blocked';
  usage: Required<StubUsage>;
  grounding: StubTextStep['grounding'];
  model: string;
  index: number;
}

/** The answer a step stands for. */
export function answerOf(step: AnswerStep, model: string, index: number, promptGuess: number): Answer {
  const text = step.kind === 'text' ? step.text : step.kind === 'toolCalls' ? (step.text ?? '') : '';
  const calls = step.kind === 'toolCalls' ? step.calls : [];
  const finish = step.kind === 'blocked' ? 'blocked' : step.kind === 'toolCalls' ? 'tool' : (step.finish ?? 'stop');
  const thinking = step.kind === 'blocked' ? '' : (step.thinking ?? '');
  return {
    text,
    thinking,
    calls,
    finish,
    usage: usageNumbers(step.usage, text, promptGuess),
    grounding: step.kind === 'text' ? step.grounding : undefined,
    model,
    index,
  };
}

/** A tool call's id as the wire names ids. */
export function callId(a: Answer, c: StubToolCall, i: number, prefix: string): string {
  return c.id ?? `${prefix}${a.index}_${i}`;
}

/** The completion count an OpenAI-shaped usage block reports: xAI leaves the reasoning out of it. */
function reportedCompletion(u: Required<StubUsage>): number {
  return u.reasoningOutside ? u.completion - u.reasoning : u.completion;
}

export function openAiUsage(u: Required<StubUsage>): Record<string, unknown> {
  return {
    prompt_tokens: u.prompt,
    completion_tokens: reportedCompletion(u),
    total_tokens: u.prompt + u.completion,
    prompt_tokens_details: { cached_tokens: u.cacheRead, ...(u.cacheWrite > 0 ? { cache_write_tokens: u.cacheWrite } : {}) },
    completion_tokens_details: { reasoning_tokens: u.reasoning },
  };
}

export function anthropicUsage(u: Required<StubUsage>): Record<string, unknown> {
  return {
    input_tokens: Math.max(0, u.prompt - u.cacheRead - u.cacheWrite),
    cache_creation_input_tokens: u.cacheWrite,
    cache_read_input_tokens: u.cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: u.cacheWrite - u.cacheWrite1h, ephemeral_1h_input_tokens: u.cacheWrite1h },
    output_tokens: u.completion,
    ...(u.reasoning > 0 ? { output_tokens_details: { thinking_tokens: u.reasoning } } : {}),
  };
}

export function geminiUsage(u: Required<StubUsage>): Record<string, unknown> {
  return {
    promptTokenCount: u.prompt,
    candidatesTokenCount: u.completion - u.reasoning,
    ...(u.reasoning > 0 ? { thoughtsTokenCount: u.reasoning } : {}),
    ...(u.cacheRead > 0 ? { cachedContentTokenCount: u.cacheRead } : {}),
    totalTokenCount: u.prompt + u.completion,
  };
}

export function responsesUsage(u: Required<StubUsage>): Record<string, unknown> {
  return {
    input_tokens: u.prompt,
    input_tokens_details: { cached_tokens: u.cacheRead, ...(u.cacheWrite > 0 ? { cache_write_tokens: u.cacheWrite } : {}) },
    output_tokens: reportedCompletion(u),
    output_tokens_details: { reasoning_tokens: u.reasoning },
    total_tokens: u.prompt + u.completion,
  };
}

function openAiBody(a: Answer): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: a.text === '' && a.calls.length > 0 ? null : a.text };
  if (a.calls.length > 0) {
    message.tool_calls = a.calls.map((c, i) => ({ id: callId(a, c, i, 'call_'), type: 'function', function: { name: c.name, arguments: c.rawArgs ?? JSON.stringify(c.args ?? {}) } }));
  }
  const finish = { tool: 'tool_calls', blocked: 'content_filter', stop: 'stop', length: 'length' }[a.finish];
  if (a.finish === 'blocked') message.content = null;
  return { id: `chatcmpl-stub-${a.index}`, object: 'chat.completion', created: 1_700_000_000, model: a.model, choices: [{ index: 0, message, finish_reason: finish }], usage: openAiUsage(a.usage) };
}

/** Anthropic content blocks of an answer (thinking first, then text, then tool uses). */
export function anthropicBlocks(a: Answer): Array<Record<string, unknown>> {
  const content: Array<Record<string, unknown>> = [];
  if (a.thinking !== '') content.push({ type: 'thinking', thinking: a.thinking, signature: `sig-${a.index}` });
  if (a.text !== '') content.push({ type: 'text', text: a.text });
  a.calls.forEach((c, i) => content.push({ type: 'tool_use', id: callId(a, c, i, 'toolu_'), name: c.name, input: c.args ?? {} }));
  return content;
}

export function anthropicStop(a: Answer): string {
  return { tool: 'tool_use', blocked: 'refusal', stop: 'end_turn', length: 'max_tokens' }[a.finish];
}

function anthropicBody(a: Answer): Record<string, unknown> {
  return { id: `msg_stub_${a.index}`, type: 'message', role: 'assistant', model: a.model, content: anthropicBlocks(a), stop_reason: anthropicStop(a), stop_sequence: null, usage: anthropicUsage(a.usage) };
}

/** Gemini parts of an answer (thought first, then text, then function calls). */
export function geminiParts(a: Answer): Array<Record<string, unknown>> {
  const parts: Array<Record<string, unknown>> = [];
  if (a.thinking !== '') parts.push({ text: a.thinking, thought: true });
  if (a.text !== '') parts.push({ text: a.text });
  for (const c of a.calls) parts.push({ functionCall: { name: c.name, args: c.args ?? {} }, ...(c.signature === undefined ? {} : { thoughtSignature: c.signature }) });
  return parts;
}

export function geminiFinish(a: Answer): string {
  return { tool: 'STOP', blocked: 'SAFETY', stop: 'STOP', length: 'MAX_TOKENS' }[a.finish];
}

export function geminiGrounding(a: Answer): Record<string, unknown> | undefined {
  if (a.grounding === undefined) return undefined;
  return { webSearchQueries: a.grounding.queries, groundingChunks: a.grounding.sources.map((s) => ({ web: { uri: s.uri, title: s.title } })) };
}

function geminiBody(a: Answer): Record<string, unknown> {
  const grounding = geminiGrounding(a);
  const candidate = {
    content: { role: 'model', parts: geminiParts(a) },
    finishReason: geminiFinish(a),
    index: 0,
    ...(a.finish === 'blocked' ? { safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }] } : {}),
    ...(grounding === undefined ? {} : { groundingMetadata: grounding }),
  };
  return { candidates: [candidate], usageMetadata: geminiUsage(a.usage), modelVersion: a.model, responseId: `resp-stub-${a.index}` };
}

/** Responses `output` items of an answer (reasoning, searches, message, function calls). */
export function responsesOutput(a: Answer): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  if (a.thinking !== '') out.push({ type: 'reasoning', id: `rs_${a.index}`, summary: [{ type: 'summary_text', text: a.thinking }] });
  for (const q of a.grounding?.queries ?? []) out.push({ type: 'web_search_call', id: `ws_${a.index}`, status: 'completed', action: { type: 'search', query: q } });
  if (a.text !== '') {
    const annotations = (a.grounding?.sources ?? []).map((s) => ({ type: 'url_citation', start_index: 0, end_index: a.text.length, url: s.uri, title: s.title }));
    out.push({ type: 'message', id: `msg_${a.index}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: a.text, annotations }] });
  }
  a.calls.forEach((c, i) => {
    out.push({ type: 'function_call', id: `fc_${a.index}_${i}`, call_id: callId(a, c, i, 'call_'), name: c.name, arguments: c.rawArgs ?? JSON.stringify(c.args ?? {}), status: 'completed' });
  });
  return out;
}

/** The Responses object of an answer (status completed / incomplete). */
export function responsesBody(a: Answer): Record<string, unknown> {
  const incomplete = a.finish === 'length' ? 'max_output_tokens' : a.finish === 'blocked' ? 'content_filter' : null;
  return {
    id: `resp_stub_${a.index}`,
    object: 'response',
    created_at: 1_700_000_000,
    status: incomplete === null ? 'completed' : 'incomplete',
    incomplete_details: incomplete === null ? null : { reason: incomplete },
    model: a.model,
    output: responsesOutput(a),
    usage: responsesUsage(a.usage),
  };
}

/** The success body of an answer, in the exact wire shape. */
export function successBody(wire: StubWire, a: Answer): Record<string, unknown> {
  switch (wire) {
    case 'openai':
      return openAiBody(a);
    case 'anthropic':
      return anthropicBody(a);
    case 'gemini':
      return geminiBody(a);
    case 'responses':
      return responsesBody(a);
  }
}

const ANTHROPIC_ERROR: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 529: 'overloaded_error' };
const GOOGLE_STATUS: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED' };

/** The provider's error envelope for a status (used when an error step has no body). */
export function errorBody(wire: StubWire, status: number): Record<string, unknown> {
  const message = `stub error ${status}`;
  switch (wire) {
    case 'anthropic':
      return { type: 'error', error: { type: ANTHROPIC_ERROR[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message } };
    case 'gemini':
      return { error: { code: status, message, status: GOOGLE_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } };
    default: {
      const type = status === 401 ? 'invalid_request_error' : status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error';
      const code = status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : null;
      return { error: { message, type, param: null, code } };
    }
  }
}
