/**
 * Canonical LLM types: the turn engine speaks only these; backends translate to and from provider wires.
 */
import type { Effort } from '../world/types.js';

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCall {
  id: string;
  name: string;
  /** Parsed JSON arguments (an object for well-formed calls). */
  args: unknown;
}

export interface ChatMessage {
  role: Role;
  content: string;
  /** Assistant only. */
  toolCalls?: ToolCall[];
  /** Tool results only. */
  toolCallId?: string;
  toolName?: string;
}

/** JSON Schema object for a tool's parameters. */
export type JsonSchema = Record<string, unknown>;

export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export type ToolChoice = 'none' | 'auto' | 'required' | { name: string };

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  toolChoice: ToolChoice;
  temperature: number | null;
  maxTokens: number;
  effort: Effort | null;
  /** Chars of the joined system text that are stable across turns (the prompt-cache breakpoint). */
  cacheablePrefixLen: number;
}

export type FinishReason = 'stop' | 'tool_use' | 'length' | 'other';

/**
 * Token usage of one call (tokens). cacheRead and cacheWrite are disjoint parts of prompt; cacheWrite1h is the part of
 * cacheWrite written with the 1-hour TTL (the rest is the 5-minute default); reasoning is part of completion.
 * A field the wire does not report is 0.
 */
export interface Usage {
  prompt: number;
  completion: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite1h: number;
  reasoning: number;
}

export const ZERO_USAGE: Usage = Object.freeze({ prompt: 0, completion: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 });

export interface ChatResponse {
  text: string | null;
  toolCalls: ToolCall[];
  finish: FinishReason;
  usage: Usage;
}

export interface ChatOptions {
  signal?: AbortSignal;
}

/** `openai-compat | anthropic | echo` (the `backend=` field of the `turn:` log record). */
export type BackendName = 'openai-compat' | 'anthropic' | 'echo';

export interface LlmBackend {
  readonly name: BackendName;
  /** Throws an LlmError (a FuseforksError with an `LLM_*` code) on failure. */
  chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResponse>;
}
