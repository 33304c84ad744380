/**
 * The Anthropic Messages wire as pure functions: canonical request → body (prompt-cache breakpoints with the
 * 1-hour TTL, adaptive thinking for the models that take it, attachments), body → canonical response (thinking
 * kept apart from the answer), and the stream assembler. The adapter (`anthropic.ts`) adds URL and headers.
 */
import { attachmentKind } from '../attachments/attachmentFormat.js';
import type { ChatMessage, ChatRequest, ChatResponse, FinishReason, ToolCall, Usage } from './canonical.js';
import { emptyResponseError, parseError } from './llmError.js';
import { settle } from './settle.js';
import { tokenCount } from './usage.js';
import { arrayOr, recordOr, stringOr } from './wireJson.js';

const BACKEND = 'anthropic';

/** Below this many approximate tokens a cache breakpoint costs more than it saves (the strictest model minimum). */
export const CACHE_MIN_TOKENS = 2048;

/**
 * The cache lives 1 hour: a person reading and thinking easily takes longer than the default 5 minutes, and one
 * extra write (2.0×) already costs more than the longer TTL's write premium. Needs the extended-TTL beta header.
 */
export const CACHE_CONTROL = Object.freeze({ type: 'ephemeral', ttl: '1h' });

/** Where the thinking blocks of a tool-calling answer ride back (they must return unchanged with the tool results). */
const THINKING_EXTRA = 'anthropicThinking';

type Block = Record<string, unknown>;
interface WireMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

/** Approximate tokens: ASCII chars / 4 plus one per non-ASCII char (CJK text is about a token per char). Rounds down. */
export function approxTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const ch of text) {
    if (ch.charCodeAt(0) < 128) ascii++;
    else other++;
  }
  return Math.floor(ascii / 4) + other;
}

/**
 * Adaptive thinking is sent only to the fifth generation, `claude-{family}-5[-{date}]`: older models answer 400
 * to it, and they do not think unless asked (asking would only add cost). Position, never substring: `-5-`
 * also appears in `claude-haiku-4-5-20251001` and `claude-3-5-sonnet`.
 */
export function takesAdaptiveThinking(model: string): boolean {
  const [prefix, family, generation, ...rest] = model.split('-');
  return (
    prefix === 'claude' &&
    family !== undefined &&
    /^[A-Za-z]+$/.test(family) &&
    generation === '5' &&
    rest.every((part) => /^\d+$/.test(part))
  );
}

function attachmentBlocks(m: ChatMessage): Block[] {
  const out: Block[] = [];
  for (const a of m.attachments ?? []) {
    const source = { type: 'base64', media_type: a.mediaType, data: a.data };
    const kind = attachmentKind(a.mediaType);
    if (kind === 'image') out.push({ type: 'image', source });
    else if (kind === 'pdf') out.push({ type: 'document', source });
  }
  return out;
}

function thinkingBlocks(calls: ToolCall[]): Block[] {
  const raw = calls[0]?.extra?.[THINKING_EXTRA];
  if (raw === undefined) return [];
  try {
    return arrayOr(JSON.parse(raw)).map(recordOr);
  } catch {
    return [];
  }
}

function blocksOf(m: ChatMessage): WireMessage | null {
  if (m.role === 'tool') {
    return { role: 'user', content: [{ type: 'tool_result', tool_use_id: m.toolCallId ?? '', content: m.content }] };
  }
  const calls = m.toolCalls ?? [];
  // Attachments go before the text (the provider's recommendation); thinking goes first in an assistant turn.
  const content: Block[] = m.role === 'assistant' ? thinkingBlocks(calls) : attachmentBlocks(m);
  if (m.content !== '') content.push({ type: 'text', text: m.content });
  for (const c of calls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: recordOr(c.args) });
  // An empty text block (or content array) is a 400 that would poison every later request: drop the message.
  return content.length === 0 ? null : { role: m.role === 'assistant' ? 'assistant' : 'user', content };
}

/** Non-system messages as wire messages: tool results in the user role, empties dropped, same roles merged. */
export function encodeAnthropicMessages(messages: ChatMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    const wire = blocksOf(m);
    if (wire === null) continue;
    const last = out[out.length - 1];
    if (last !== undefined && last.role === wire.role) last.content.push(...wire.content);
    else out.push(wire);
  }
  return out;
}

/** Approximate tokens of the tool definitions (they sit before the system text and are cached with it). */
function toolTokens(tools: ChatRequest['tools']): number {
  return tools.reduce((n, t) => n + approxTokens(t.name) + approxTokens(t.description) + approxTokens(JSON.stringify(t.parameters)), 0);
}

/** Approximate tokens of the conversation: text, tool names and inputs, tool results (attachments count 0). */
function messageTokens(messages: WireMessage[]): number {
  let n = 0;
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type === 'text') n += approxTokens(stringOr(b.text));
      else if (b.type === 'tool_use') n += approxTokens(stringOr(b.name)) + approxTokens(JSON.stringify(b.input ?? {}));
      else if (b.type === 'tool_result') n += approxTokens(stringOr(b.content));
    }
  }
  return n;
}

/**
 * The `system` blocks: when tools + the stable prefix reach CACHE_MIN_TOKENS, a breakpoint after the first
 * `prefixLen` characters (code points); a boundary at or after the end marks the whole text, one at 0 marks nothing.
 */
export function systemBlocks(system: string, prefixLen: number, toolTokenCount: number): Block[] {
  if (system === '') return [];
  const chars = Array.from(system);
  const stable = chars.slice(0, Math.max(0, prefixLen)).join('');
  if (prefixLen <= 0 || toolTokenCount + approxTokens(stable) < CACHE_MIN_TOKENS) return [{ type: 'text', text: system }];
  if (prefixLen >= chars.length) return [{ type: 'text', text: system, cache_control: CACHE_CONTROL }];
  return [
    { type: 'text', text: stable, cache_control: CACHE_CONTROL },
    { type: 'text', text: chars.slice(prefixLen).join('') },
  ];
}

/** Canonical request → Messages API body (pure). */
export function encodeAnthropicRequest(req: ChatRequest, stream = false): Record<string, unknown> {
  const system = req.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
  const tools = req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  const messages = encodeAnthropicMessages(req.messages);
  const toolCount = toolTokens(req.tools);
  // The rolling breakpoint: the history only grows within a turn, so the next round reads it all from cache.
  const lastMessage = messages[messages.length - 1];
  if (lastMessage !== undefined && toolCount + approxTokens(system) + messageTokens(messages) >= CACHE_MIN_TOKENS) {
    const i = lastMessage.content.length - 1;
    const lastBlock = lastMessage.content[i];
    if (lastBlock !== undefined) lastMessage.content[i] = { ...lastBlock, cache_control: CACHE_CONTROL };
  }
  const body: Record<string, unknown> = { model: req.model, max_tokens: req.maxTokens, messages };
  const sys = systemBlocks(system, req.cacheablePrefixLen, toolCount);
  if (sys.length > 0) body.system = sys;
  if (tools.length > 0) {
    body.tools = tools;
    const c = req.toolChoice;
    body.tool_choice =
      c === 'none' ? { type: 'none' } : c === 'auto' ? { type: 'auto' } : c === 'required' ? { type: 'any' } : { type: 'tool', name: c.name };
  }
  if (req.temperature !== null) body.temperature = req.temperature;
  if (takesAdaptiveThinking(req.model)) body.thinking = { type: 'adaptive', display: 'summarized' };
  if (stream) body.stream = true;
  return body;
}

function mapStop(reason: unknown): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_use';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    default:
      return 'other';
  }
}

/** The usage block of a message (or of a stream's message_start + message_delta). */
export function anthropicUsage(raw: unknown): Usage {
  const u = recordOr(raw);
  const input = tokenCount(u.input_tokens);
  const cacheRead = tokenCount(u.cache_read_input_tokens);
  const cacheWrite = tokenCount(u.cache_creation_input_tokens);
  return {
    // Cache reads and writes are reported apart from input_tokens: prompt is their sum on every wire.
    prompt: input + cacheRead + cacheWrite,
    completion: tokenCount(u.output_tokens),
    cacheRead,
    cacheWrite,
    cacheWrite1h: Math.min(cacheWrite, tokenCount(recordOr(u.cache_creation).ephemeral_1h_input_tokens)),
    reasoning: tokenCount(recordOr(u.output_tokens_details).thinking_tokens),
  };
}

/** Messages API body → canonical response (pure). `maxTokens` names the limit in a truncation error. */
export function decodeAnthropicResponse(json: unknown, maxTokens: number): ChatResponse {
  const root = recordOr(json);
  if (!Array.isArray(root.content)) throw emptyResponseError(BACKEND);
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  const summary: string[] = [];
  const thinking: Block[] = [];
  root.content.forEach((raw, i) => {
    const b = recordOr(raw);
    if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
    else if (b.type === 'thinking' || b.type === 'redacted_thinking') {
      // Thinking is never the answer: it is shown as thinking, and returned unchanged with a tool round.
      if (b.type === 'thinking' && stringOr(b.thinking) !== '') summary.push(stringOr(b.thinking));
      thinking.push(b);
    } else if (b.type === 'tool_use') {
      if (typeof b.name !== 'string' || b.name === '') throw parseError(BACKEND, `tool_use block #${i} has no name`);
      const id = typeof b.id === 'string' && b.id !== '' ? b.id : `toolu_${i}`;
      toolCalls.push({ id, name: b.name, args: b.input === undefined ? {} : b.input });
    }
  });
  const first = toolCalls[0];
  if (first !== undefined && thinking.length > 0) first.extra = { [THINKING_EXTRA]: JSON.stringify(thinking) };
  const joined = texts.join('');
  return settle(
    BACKEND,
    {
      text: joined === '' ? null : joined,
      toolCalls,
      finish: mapStop(root.stop_reason),
      usage: anthropicUsage(root.usage),
      reasoningSummary: summary,
      blockReason: root.stop_reason === 'refusal' ? 'refusal' : null,
    },
    maxTokens,
  );
}

/** The HTTP status an Anthropic error type stands for (stream `error` events carry only the type). */
export function anthropicErrorStatus(type: string): number {
  const table: Record<string, number> = {
    invalid_request_error: 400,
    authentication_error: 401,
    permission_error: 403,
    not_found_error: 404,
    request_too_large: 413,
    rate_limit_error: 429,
    api_error: 500,
    overloaded_error: 529,
  };
  return table[type] ?? 500;
}

