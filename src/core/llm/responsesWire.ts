/**
 * What the three Responses wires (`open_ai_responses`, `xai_responses`, `meta_responses`; `POST /responses`,
 * Bearer) share: the `input` items of a conversation, the decoding of `output` (messages with URL citations,
 * reasoning summaries, provider-side searches, function calls) and usage, and the stream assembler, which takes
 * the whole response from `response.completed` and decodes it like a non-streamed body. The dialects — what each
 * provider accepts in the request — live in `responsesDialects.ts`.
 */
import type { ChatMessage, ChatResponse, Grounding, GroundingEngine, PromptAttachment, StreamDelta, ToolCall, Usage } from './canonical.js';
import { emptyResponseError, parseError, streamCutError, streamErrorEvent } from './llmError.js';
import { settle } from './settle.js';
import { completionWithReasoning, tokenCount } from './usage.js';
import type { StreamAssembler } from './wireAdapter.js';
import { arrayOr, asRecord, recordOr, stringOr, tryJson, typedEvent } from './wireJson.js';

/** Builds the input part of one attachment, or null when this dialect has no part for its kind. */
export type AttachmentPart = (a: PromptAttachment) => Record<string, unknown> | null;

function userContent(m: ChatMessage, partFor: AttachmentPart): unknown {
  const parts = (m.attachments ?? []).map(partFor).filter((p): p is Record<string, unknown> => p !== null);
  // Without attachments the content stays a plain string (the request shape of a village that never attaches).
  if (parts.length === 0) return m.content;
  return [...parts, { type: 'input_text', text: m.content }];
}

/** Canonical messages → Responses `input` items (function calls and their outputs as items of their own). */
export function encodeResponsesInput(messages: ChatMessage[], partFor: AttachmentPart): Record<string, unknown>[] {
  const input: Record<string, unknown>[] = [];
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        input.push({ role: 'system', content: m.content });
        break;
      case 'user':
        input.push({ role: 'user', content: userContent(m, partFor) });
        break;
      case 'assistant':
        // An empty assistant message is a 400 on the next turn: only the calls go.
        if (m.content !== '') input.push({ role: 'assistant', content: m.content });
        for (const c of m.toolCalls ?? []) input.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: JSON.stringify(c.args ?? {}) });
        break;
      case 'tool':
        input.push({ type: 'function_call_output', call_id: m.toolCallId ?? '', output: m.content });
        break;
    }
  }
  return input;
}

/** How a dialect reads what the three share. */
export interface ResponsesReading {
  backend: string;
  engine: GroundingEngine;
  /** Output item types that are provider-side searches. */
  searchKinds: readonly string[];
  /** Also count every URL a search touched (`action.sources`), after the cited ones. */
  touchedSources: boolean;
}

/** The usage block of a Responses answer; the same fields on all three wires. */
export function responsesUsage(raw: unknown): Usage {
  const u = recordOr(raw);
  const input = recordOr(u.input_tokens_details);
  const prompt = tokenCount(u.input_tokens);
  const reasoning = tokenCount(recordOr(u.output_tokens_details).reasoning_tokens);
  return {
    prompt,
    // As on chat completions: reasoning beside output_tokens (xAI) is added in, inside it (OpenAI) is not.
    completion: completionWithReasoning({ prompt, completion: tokenCount(u.output_tokens), reasoning, total: tokenCount(u.total_tokens) }),
    cacheRead: tokenCount(input.cached_tokens),
    cacheWrite: tokenCount(input.cache_write_tokens),
    cacheWrite1h: 0,
    reasoning,
  };
}

function searchQuery(item: Record<string, unknown>): string {
  const query = stringOr(recordOr(item.action).query);
  if (query !== '') return query;
  // x_search comes as a custom tool call whose `input` is a JSON string {"query": …}.
  return stringOr(recordOr(tryJson(stringOr(item.input))).query);
}

/** A Responses body → canonical response (pure). */
export function decodeResponses(json: unknown, reading: ResponsesReading, maxTokens: number): ChatResponse {
  const root = recordOr(json);
  if (!Array.isArray(root.output) && root.status === undefined) throw emptyResponseError(reading.backend);
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  const summary: string[] = [];
  const grounding: Grounding = { queries: [], sources: [], engine: reading.engine };
  const touched: string[] = [];
  const addSource = (uri: string, title: string): void => {
    if (uri !== '' && !grounding.sources.some((s) => s.uri === uri)) grounding.sources.push({ uri, title: title === uri ? '' : title });
  };
  for (const raw of arrayOr(root.output)) {
    const item = recordOr(raw);
    const type = stringOr(item.type);
    if (type === 'message') {
      for (const p of arrayOr(item.content)) {
        const part = recordOr(p);
        // A refusal is the model's own answer: shown as text, not an error.
        const text = part.type === 'refusal' ? stringOr(part.refusal) : stringOr(part.text);
        if (text !== '') texts.push(text);
        for (const a of arrayOr(part.annotations)) {
          const ann = recordOr(a);
          if (ann.type === 'url_citation') addSource(stringOr(ann.url), stringOr(ann.title));
        }
      }
    } else if (type === 'reasoning') {
      for (const s of arrayOr(item.summary)) {
        const part = recordOr(s);
        if (part.type === 'summary_text' && stringOr(part.text) !== '') summary.push(stringOr(part.text));
      }
    } else if (reading.searchKinds.includes(type)) {
      const q = searchQuery(item);
      if (q !== '' && !grounding.queries.includes(q)) grounding.queries.push(q);
      if (reading.touchedSources) {
        for (const src of arrayOr(recordOr(item.action).sources)) {
          const source = recordOr(src);
          if (source.type === 'url' && stringOr(source.url) !== '') touched.push(stringOr(source.url));
        }
      }
    } else if (type === 'function_call') {
      const name = stringOr(item.name);
      const rawArgs = stringOr(item.arguments);
      const args = rawArgs.trim() === '' ? {} : tryJson(rawArgs);
      if (args === undefined) throw parseError(reading.backend, `the arguments of tool call "${name}" are not valid JSON (${rawArgs.length} chars)`);
      toolCalls.push({ id: stringOr(item.call_id) || stringOr(item.id) || `call_${toolCalls.length}`, name, args });
    }
  }
  // Cited sources first (they carry titles), then every other URL a search touched.
  for (const url of touched) addSource(url, '');
  const reason = stringOr(recordOr(root.incomplete_details).reason);
  const finish = toolCalls.length > 0 ? 'tool_use' : root.status === 'completed' ? 'stop' : reason === 'max_output_tokens' ? 'length' : 'other';
  const text = texts.length === 0 ? null : texts.join('\n\n');
  return settle(
    reading.backend,
    { text, toolCalls, finish, usage: responsesUsage(root.usage), grounding, reasoningSummary: summary, blockReason: reason === 'content_filter' ? 'content_filter' : null },
    maxTokens,
  );
}

/** The HTTP status a Responses stream error code stands for (so the retry rule stays the one of HTTP). */
function statusOfCode(code: string): number {
  if (code === 'rate_limit_exceeded') return 429;
  if (code === 'server_error' || code === 'server_is_overloaded' || code === '') return 500;
  return 400;
}

/** Responses events → the response of `response.completed` / `response.incomplete`, decoded as one body. */
export function responsesAssembler(reading: ResponsesReading, maxTokens: number): StreamAssembler {
  let final: Record<string, unknown> | null = null;
  const items: unknown[] = [];
  let text = '';
  return {
    push(event) {
      const { data, type } = typedEvent(event);
      const out: StreamDelta[] = [];
      switch (type) {
        case 'response.output_text.delta': {
          const piece = stringOr(data.delta);
          text += piece;
          if (piece !== '') out.push({ kind: 'text', text: piece });
          break;
        }
        case 'response.reasoning_summary_text.delta': {
          const piece = stringOr(data.delta);
          if (piece !== '') out.push({ kind: 'thinking', text: piece });
          break;
        }
        case 'response.output_item.done':
          items.push(data.item);
          break;
        case 'response.completed':
        case 'response.incomplete':
          final = recordOr(data.response);
          break;
        case 'response.failed': {
          const error = recordOr(recordOr(data.response).error);
          throw streamErrorEvent(reading.backend, statusOfCode(stringOr(error.code)), stringOr(error.code) || 'failed', stringOr(error.message), '');
        }
        case 'error':
          throw streamErrorEvent(reading.backend, statusOfCode(stringOr(data.code)), stringOr(data.code) || 'error', stringOr(data.message), '');
        default:
          break;
      }
      return out;
    },
    finish() {
      if (final === null) throw streamCutError(reading.backend);
      // Some servers send the items only as output_item.done events and a bare final response.
      const output = arrayOr(final.output).length > 0 ? final.output : items;
      return decodeResponses({ ...final, output }, reading, maxTokens);
    },
    partialUsage: () => responsesUsage(null),
    received: () => text,
  };
}
