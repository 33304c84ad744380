/**
 * The OpenAI-compatible chat-completions wire (OpenAI, Ollama `/v1`, LM Studio, vLLM, …): `POST
 * {baseUrl}/chat/completions` with Bearer auth. Pure encode / decode / stream assembly; HTTP lives in
 * `httpBackend.ts`. `useTools=false` sends no native tools, only the first tool's JSON schema as an instruction.
 */
import { audioFormat, attachmentKind, dataUrl } from '../attachments/attachmentFormat.js';
import type { Effort } from '../world/types.js';
import type { ChatMessage, ChatRequest, ChatResponse, FinishReason, StreamDelta, ToolCall, Usage } from './canonical.js';
import { emptyResponseError, parseError, streamCutError, streamErrorEvent } from './llmError.js';
import { settle } from './settle.js';
import { completionWithReasoning, tokenCount } from './usage.js';
import type { StreamAssembler, WireAdapter, WireSettings } from './wireAdapter.js';
import { arrayOr, asRecord, recordOr, stringOr, tryJson } from './wireJson.js';

const BACKEND = 'openai-compat';

/** Where an OpenAI-compatible tool call keeps provider data it must get back (Gemini's thought signature). */
const EXTRA_CONTENT = 'extraContent';

function isOSeries(model: string): boolean {
  return /^o\d/.test(model);
}

/** Models that take `max_completion_tokens` instead of `max_tokens` (gpt-5 family and o-series). */
export function isReasoningModel(model: string): boolean {
  return model.startsWith('gpt-5') || isOSeries(model);
}

/**
 * `reasoning_effort` as the original sends it: gpt-5 refuses function tools together with reasoning on this
 * wire, so it gets `none` exactly when tools are sent (and nothing otherwise); o-series and grok-4.3/4.5 get the
 * template's effort (default low, grok-4.3 none) with xhigh/max rounded to high; every other model gets nothing.
 */
export function compatReasoningEffort(model: string, effort: Effort | null, sendsTools: boolean): string | null {
  if (model.startsWith('gpt-5')) return sendsTools ? 'none' : null;
  const grok = model.startsWith('grok-4.3') || model.startsWith('grok-4.5');
  if (!grok && !isOSeries(model)) return null;
  if (effort === null) return model.startsWith('grok-4.3') ? 'none' : 'low';
  return effort === 'low' || effort === 'medium' ? effort : 'high';
}

/** The system instruction that replaces native tools when `useTools` is false. */
export function jsonInstruction(schema: unknown): string {
  return (
    'Important: this server does not support tool calls. Answer with exactly ONE JSON object that follows the ' +
    'JSON Schema below, and nothing else: no preface, no explanation, no code fence label.\nJSON Schema:\n' +
    JSON.stringify(schema ?? {})
  );
}

function userContent(m: ChatMessage): unknown {
  const parts: unknown[] = [];
  for (const a of m.attachments ?? []) {
    const kind = attachmentKind(a.mediaType);
    const format = audioFormat(a.mediaType);
    if (kind === 'image') parts.push({ type: 'image_url', image_url: { url: dataUrl(a) } });
    else if (kind === 'audio' && format !== null) parts.push({ type: 'input_audio', input_audio: { data: a.data, format } });
    else if (kind === 'pdf') parts.push({ type: 'file', file: { filename: a.fileName, file_data: dataUrl(a) } });
  }
  // No attachment: always a plain string (servers that do not know content arrays keep working).
  if (parts.length === 0) return m.content;
  if (m.content !== '') parts.push({ type: 'text', text: m.content });
  return parts;
}

function encodeMessage(m: ChatMessage): Record<string, unknown> {
  switch (m.role) {
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content };
    case 'assistant': {
      const calls = m.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: m.content };
      return {
        role: 'assistant',
        content: m.content === '' ? null : m.content,
        tool_calls: calls.map((c) => {
          const extra = c.extra?.[EXTRA_CONTENT] === undefined ? undefined : tryJson(c.extra[EXTRA_CONTENT]);
          return {
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) },
            ...(extra === undefined ? {} : { extra_content: extra }),
          };
        }),
      };
    }
    case 'user':
      return { role: 'user', content: userContent(m) };
    default:
      return { role: m.role, content: m.content };
  }
}

/** Canonical request → chat-completions body (pure). */
export function encodeOpenAiRequest(req: ChatRequest, settings: Pick<WireSettings, 'useTools'> = { useTools: true }, stream = false): Record<string, unknown> {
  const messages = req.messages.map(encodeMessage);
  const sendsTools = req.tools.length > 0 && settings.useTools;
  const body: Record<string, unknown> = { model: req.model, messages };
  if (sendsTools) {
    body.tools = req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
    // tool_choice without tools is rejected by OpenAI, so it is sent only alongside them.
    body.tool_choice = typeof req.toolChoice === 'string' ? req.toolChoice : { type: 'function', function: { name: req.toolChoice.name } };
  } else if (req.tools.length > 0) {
    messages.push({ role: 'system', content: jsonInstruction(req.tools[0]?.parameters) });
  }
  if (isReasoningModel(req.model)) body.max_completion_tokens = req.maxTokens;
  else body.max_tokens = req.maxTokens;
  const effort = compatReasoningEffort(req.model, req.effort, sendsTools);
  if (effort !== null) body.reasoning_effort = effort;
  if (req.temperature !== null) body.temperature = req.temperature;
  if (stream) {
    body.stream = true;
    // The usage of a streamed answer comes only with this option (a last chunk with empty choices).
    body.stream_options = { include_usage: true };
  }
  return body;
}

function mapFinish(reason: unknown, hasCalls: boolean): FinishReason {
  switch (reason) {
    case 'stop':
      // Some local servers (Ollama) report `stop` even when they return tool calls.
      return hasCalls ? 'tool_use' : 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'length';
    default:
      return hasCalls ? 'tool_use' : 'other';
  }
}

function decodeToolCall(raw: unknown, i: number): ToolCall {
  const call = asRecord(raw);
  const fn = asRecord(call?.function);
  const name = typeof fn?.name === 'string' ? fn.name : '';
  if (name === '') throw parseError(BACKEND, `tool call #${i} has no function name`);
  const id = typeof call?.id === 'string' && call.id !== '' ? call.id : `call_${i}`;
  const extra = call?.extra_content === undefined ? {} : { extra: { [EXTRA_CONTENT]: JSON.stringify(call.extra_content) } };
  const rawArgs = fn?.arguments;
  if (typeof rawArgs !== 'string') return { id, name, args: asRecord(rawArgs) ?? {}, ...extra };
  if (rawArgs.trim() === '') return { id, name, args: {}, ...extra };
  const args = tryJson(rawArgs);
  if (args === undefined) throw parseError(BACKEND, `the arguments of tool call "${name}" are not valid JSON (${rawArgs.length} chars)`);
  return { id, name, args, ...extra };
}

/** The usage block of a chat completion (or of the last streamed chunk). */
export function compatUsage(raw: unknown): Usage {
  const u = recordOr(raw);
  const details = recordOr(u.prompt_tokens_details);
  const prompt = tokenCount(u.prompt_tokens);
  const reasoning = tokenCount(recordOr(u.completion_tokens_details).reasoning_tokens);
  return {
    prompt,
    // xAI's reasoning is beside completion_tokens (total says so); OpenAI's inside.
    completion: completionWithReasoning({ prompt, completion: tokenCount(u.completion_tokens), reasoning, total: tokenCount(u.total_tokens) }),
    cacheRead: tokenCount(details.cached_tokens),
    cacheWrite: tokenCount(details.cache_write_tokens),
    // No TTL split on this wire.
    cacheWrite1h: 0,
    reasoning,
  };
}

/** Chat-completions body → canonical response (pure). `maxTokens` names the limit in a truncation error. */
export function decodeOpenAiResponse(json: unknown, maxTokens: number): ChatResponse {
  const root = asRecord(json);
  const choice = asRecord(arrayOr(root?.choices)[0]);
  const message = asRecord(choice?.message);
  if (choice === null || message === null) throw emptyResponseError(BACKEND);
  const toolCalls = arrayOr(message.tool_calls).map(decodeToolCall);
  const text = typeof message.content === 'string' && message.content !== '' ? message.content : null;
  const blocked = choice.finish_reason === 'content_filter';
  return settle(
    BACKEND,
    { text, toolCalls, finish: mapFinish(choice.finish_reason, toolCalls.length > 0), usage: compatUsage(root?.usage), blockReason: blocked ? 'content_filter' : null },
    maxTokens,
  );
}

interface CallPieces {
  id: string;
  name: string;
  args: string;
  extra?: unknown;
}

/** Streamed chunks → one chat completion: text concatenated, tool calls assembled by index, usage from the end. */
export function compatAssembler(maxTokens: number): StreamAssembler {
  let text = '';
  const calls: CallPieces[] = [];
  let finish: unknown = null;
  let usage: unknown = null;
  let done = false;
  return {
    push(event) {
      if (event.data.trim() === '[DONE]') {
        done = true;
        return [];
      }
      const chunk = recordOr(tryJson(event.data));
      const error = asRecord(chunk.error);
      if (error !== null) throw streamErrorEvent(BACKEND, error.type === 'server_error' ? 500 : 400, stringOr(error.type) || 'error', stringOr(error.message), '');
      if (chunk.usage !== undefined && chunk.usage !== null) usage = chunk.usage;
      const choice = recordOr(arrayOr(chunk.choices)[0]);
      if (choice.finish_reason !== undefined && choice.finish_reason !== null) finish = choice.finish_reason;
      const delta = recordOr(choice.delta);
      for (const raw of arrayOr(delta.tool_calls)) {
        const piece = recordOr(raw);
        const index = typeof piece.index === 'number' ? piece.index : calls.length;
        const call = (calls[index] ??= { id: '', name: '', args: '' });
        const fn = recordOr(piece.function);
        if (typeof piece.id === 'string' && piece.id !== '') call.id = piece.id;
        if (typeof fn.name === 'string' && fn.name !== '') call.name = fn.name;
        if (typeof fn.arguments === 'string') call.args += fn.arguments;
        if (piece.extra_content !== undefined) call.extra = piece.extra_content;
      }
      const out: StreamDelta[] = [];
      if (typeof delta.content === 'string' && delta.content !== '') {
        text += delta.content;
        out.push({ kind: 'text', text: delta.content });
      }
      return out;
    },
    finish() {
      // Some servers end the stream without [DONE]; a finish reason means the answer itself was complete.
      if (!done && finish === null) throw streamCutError(BACKEND);
      const toolCalls = calls
        .filter((c) => c !== undefined)
        .map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args }, ...(c.extra === undefined ? {} : { extra_content: c.extra }) }));
      const message = { role: 'assistant', content: text === '' ? null : text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
      return decodeOpenAiResponse({ choices: [{ index: 0, message, finish_reason: finish }], usage }, maxTokens);
    },
    partialUsage: () => compatUsage(usage),
    received: () => text,
  };
}

/** The chat-completions adapter for one template's settings. */
export function openAiCompatWire(settings: WireSettings): WireAdapter {
  return {
    name: BACKEND,
    path: () => '/chat/completions',
    headers: (apiKey): Record<string, string> => (apiKey === '' ? {} : { authorization: `Bearer ${apiKey}` }),
    encode: (req, stream) => encodeOpenAiRequest(req, settings, stream),
    decode: (json, req) => decodeOpenAiResponse(json, req.maxTokens),
    assembler: (req) => compatAssembler(req.maxTokens),
  };
}
