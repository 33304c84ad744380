/**
 * The OpenAI-compatible chat-completions wire (OpenAI, Ollama `/v1`, LM Studio, vLLM, …): pure encode and
 * decode functions, and a backend that posts through the shared HTTP client with retries.
 */
import type { ChatMessage, ChatOptions, ChatRequest, ChatResponse, FinishReason, LlmBackend, ToolCall } from './canonical.js';
import { emptyResponseError, parseError, truncatedError } from './llmError.js';
import { joinUrl, postJson, type HttpBackendConfig } from './httpClient.js';
import { attemptsFor, withRetry } from './retry.js';
import { tokenCount } from './usage.js';

const BACKEND = 'openai-compat';

/** Models that take `max_completion_tokens` (and reasoning effort) instead of `max_tokens`. */
export function isReasoningModel(model: string): boolean {
  return /^gpt-5/.test(model) || /^o\d/.test(model);
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
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) },
        })),
      };
    }
    default:
      return { role: m.role, content: m.content };
  }
}

/** Canonical request → chat-completions body (pure). */
export function encodeOpenAiRequest(req: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model: req.model, messages: req.messages.map(encodeMessage) };
  if (req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    // tool_choice without tools is rejected by OpenAI, so it is sent only alongside them.
    body.tool_choice = typeof req.toolChoice === 'string' ? req.toolChoice : { type: 'function', function: { name: req.toolChoice.name } };
  }
  if (isReasoningModel(req.model)) {
    body.max_completion_tokens = req.maxTokens;
    if (req.effort !== null) body.reasoning_effort = req.effort === 'low' || req.effort === 'medium' ? req.effort : 'high';
  } else {
    body.max_tokens = req.maxTokens;
  }
  if (req.temperature !== null) body.temperature = req.temperature;
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

function asRecord(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function decodeToolCall(raw: unknown, i: number): ToolCall {
  const call = asRecord(raw);
  const fn = asRecord(call?.function);
  const name = typeof fn?.name === 'string' ? fn.name : '';
  if (name === '') throw parseError(BACKEND, `tool call #${i} has no function name`);
  const id = typeof call?.id === 'string' && call.id !== '' ? call.id : `call_${i}`;
  const rawArgs = fn?.arguments;
  if (typeof rawArgs !== 'string') return { id, name, args: asRecord(rawArgs) ?? {} };
  if (rawArgs.trim() === '') return { id, name, args: {} };
  try {
    return { id, name, args: JSON.parse(rawArgs) as unknown };
  } catch {
    throw parseError(BACKEND, `the arguments of tool call "${name}" are not valid JSON (${rawArgs.length} chars)`);
  }
}

/** Chat-completions body → canonical response (pure). `maxTokens` names the limit in a truncation error. */
export function decodeOpenAiResponse(json: unknown, maxTokens: number): ChatResponse {
  const root = asRecord(json);
  const choices = Array.isArray(root?.choices) ? root.choices : [];
  const choice = asRecord(choices[0]);
  const message = asRecord(choice?.message);
  if (choice === null || message === null) throw emptyResponseError(BACKEND);
  const rawCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const toolCalls = rawCalls.map(decodeToolCall);
  const text = typeof message.content === 'string' && message.content !== '' ? message.content : null;
  const u = asRecord(root?.usage);
  const promptDetails = asRecord(u?.prompt_tokens_details);
  const completionDetails = asRecord(u?.completion_tokens_details);
  const usage = {
    prompt: tokenCount(u?.prompt_tokens),
    completion: tokenCount(u?.completion_tokens),
    cacheRead: tokenCount(promptDetails?.cached_tokens),
    cacheWrite: tokenCount(promptDetails?.cache_write_tokens),
    cacheWrite1h: 0,
    reasoning: tokenCount(completionDetails?.reasoning_tokens),
  };
  const finish = mapFinish(choice.finish_reason, toolCalls.length > 0);
  if (text === null && toolCalls.length === 0 && finish === 'length') throw truncatedError(BACKEND, maxTokens, usage);
  return { text, toolCalls, finish, usage };
}

/** OpenAI-compatible backend: `POST {baseUrl}/chat/completions` with Bearer auth. */
export class OpenAiCompatBackend implements LlmBackend {
  readonly name = 'openai-compat' as const;
  constructor(private readonly config: HttpBackendConfig) {}

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    const { baseUrl, apiKey, timeoutSecs, maxRetries, sleep, onRetry } = this.config;
    const headers: Record<string, string> = apiKey === '' ? {} : { authorization: `Bearer ${apiKey}` };
    const body = encodeOpenAiRequest(request);
    return withRetry(
      async () => {
        const json = await postJson({ backend: BACKEND, url: joinUrl(baseUrl, '/chat/completions'), headers, body, timeoutSecs, signal: options.signal, secret: apiKey });
        return decodeOpenAiResponse(json, request.maxTokens);
      },
      { attempts: attemptsFor(maxRetries), signal: options.signal, sleep, onRetry },
    );
  }
}
