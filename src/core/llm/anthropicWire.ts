/**
 * The Anthropic Messages wire as pure functions: canonical request → body (with prompt-cache breakpoints)
 * and body → canonical response. The HTTP backend lives in `anthropic.ts`.
 */
import type { ChatMessage, ChatRequest, ChatResponse, FinishReason, ToolCall } from './canonical.js';
import { emptyResponseError, parseError, truncatedError } from './llmError.js';
import { tokenCount } from './usage.js';

const BACKEND = 'anthropic';

/** Below this many approximate tokens a cache breakpoint costs more than it saves (Anthropic's minimum). */
export const CACHE_MIN_TOKENS = 2048;

const EPHEMERAL = Object.freeze({ type: 'ephemeral' });

type Block = Record<string, unknown>;
interface WireMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

/** Approximate tokens: ASCII chars / 4 plus one per non-ASCII char (CJK text is about a token per char). */
export function approxTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const ch of text) {
    if (ch.charCodeAt(0) < 128) ascii++;
    else other++;
  }
  return Math.floor(ascii / 4) + other;
}

function plainObject(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function blocksOf(m: ChatMessage): WireMessage | null {
  if (m.role === 'tool') {
    return { role: 'user', content: [{ type: 'tool_result', tool_use_id: m.toolCallId ?? '', content: m.content }] };
  }
  const content: Block[] = m.content === '' ? [] : [{ type: 'text', text: m.content }];
  if (m.role === 'assistant') {
    for (const c of m.toolCalls ?? []) content.push({ type: 'tool_use', id: c.id, name: c.name, input: plainObject(c.args) });
  }
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

/** The `system` blocks, with a cache breakpoint after the stable prefix when `cache` is true. */
export function systemBlocks(system: string, prefixLen: number, cache: boolean): Block[] {
  if (system === '') return [];
  if (!cache) return [{ type: 'text', text: system }];
  // A boundary at or after the end marks the whole system text.
  const cut = Math.min(Math.max(0, prefixLen), system.length);
  const stable = system.slice(0, cut);
  const rest = system.slice(cut);
  const blocks: Block[] = [{ type: 'text', text: stable, cache_control: EPHEMERAL }];
  if (rest !== '') blocks.push({ type: 'text', text: rest });
  return blocks;
}

/** Canonical request → Messages API body (pure). */
export function encodeAnthropicRequest(req: ChatRequest): Record<string, unknown> {
  const system = req.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
  const tools = req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  const messages = encodeAnthropicMessages(req.messages);
  const toolTokens = tools.length === 0 ? 0 : approxTokens(JSON.stringify(tools));
  const stableLen = Math.min(Math.max(0, req.cacheablePrefixLen), system.length);
  const cachePrefix = stableLen > 0 && toolTokens + approxTokens(system.slice(0, stableLen)) >= CACHE_MIN_TOKENS;
  const total = toolTokens + approxTokens(system) + approxTokens(JSON.stringify(messages));
  const lastMessage = messages[messages.length - 1];
  if (total >= CACHE_MIN_TOKENS && lastMessage !== undefined) {
    // The rolling breakpoint: the next turn reads the whole conversation so far from cache.
    const lastBlock = lastMessage.content[lastMessage.content.length - 1];
    if (lastBlock !== undefined) lastMessage.content[lastMessage.content.length - 1] = { ...lastBlock, cache_control: EPHEMERAL };
  }
  const body: Record<string, unknown> = { model: req.model, max_tokens: req.maxTokens, messages };
  const sys = systemBlocks(system, stableLen, cachePrefix);
  if (sys.length > 0) body.system = sys;
  if (tools.length > 0) {
    body.tools = tools;
    const c = req.toolChoice;
    body.tool_choice =
      c === 'none' ? { type: 'none' } : c === 'auto' ? { type: 'auto' } : c === 'required' ? { type: 'any' } : { type: 'tool', name: c.name };
  }
  if (req.temperature !== null) body.temperature = req.temperature;
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
      return 'length';
    default:
      return 'other';
  }
}

/** Messages API body → canonical response (pure). `maxTokens` names the limit in a truncation error. */
export function decodeAnthropicResponse(json: unknown, maxTokens: number): ChatResponse {
  const root = plainObject(json);
  if (!Array.isArray(root.content)) throw emptyResponseError(BACKEND);
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  root.content.forEach((raw, i) => {
    const b = plainObject(raw);
    if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
    if (b.type === 'tool_use') {
      if (typeof b.name !== 'string' || b.name === '') throw parseError(BACKEND, `tool_use block #${i} has no name`);
      const id = typeof b.id === 'string' && b.id !== '' ? b.id : `toolu_${i}`;
      toolCalls.push({ id, name: b.name, args: b.input === undefined ? {} : b.input });
    }
  });
  const u = plainObject(root.usage);
  const input = tokenCount(u.input_tokens);
  const cacheRead = tokenCount(u.cache_read_input_tokens);
  const cacheWrite = tokenCount(u.cache_creation_input_tokens);
  // The 1-hour part of the write, when the wire breaks it down (`cache_creation.ephemeral_1h_input_tokens`).
  const cacheWrite1h = Math.min(cacheWrite, tokenCount(plainObject(u.cache_creation).ephemeral_1h_input_tokens));
  const usage = { prompt: input + cacheRead + cacheWrite, completion: tokenCount(u.output_tokens), cacheRead, cacheWrite, cacheWrite1h, reasoning: 0 };
  const joined = texts.join('');
  const text = joined === '' ? null : joined;
  const finish = mapStop(root.stop_reason);
  if (text === null && toolCalls.length === 0 && finish === 'length') throw truncatedError(BACKEND, maxTokens, usage);
  return { text, toolCalls, finish, usage };
}
