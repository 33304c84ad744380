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
  /**
   * Opaque provider data that must travel back with the call in the next request (Gemini's `thoughtSignature`).
   * Only the adapter that decoded it reads it again.
   */
  extra?: Record<string, string>;
}

/** What a file attached to a prompt is, as the providers' `carries` table counts it. */
export type AttachmentKind = 'image' | 'audio' | 'video' | 'pdf';

/** The media types an attachment may have (magic bytes decide, never the file name). */
export type AttachmentMediaType =
  | 'image/png'
  | 'image/jpeg'
  | 'image/webp'
  | 'audio/mpeg'
  | 'audio/wav'
  | 'video/mp4'
  | 'application/pdf';

/** A file riding on a user message: base64 body, media type and the name the person gave it. */
export interface PromptAttachment {
  mediaType: AttachmentMediaType;
  /** Standard base64 of the bytes. */
  data: string;
  fileName: string;
}

export interface ChatMessage {
  role: Role;
  content: string;
  /** Assistant only. */
  toolCalls?: ToolCall[];
  /** Tool results only. */
  toolCallId?: string;
  toolName?: string;
  /** User only: files of this turn (they ride only on the message they came with, never in history). */
  attachments?: PromptAttachment[];
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
 * Token usage of one call — THE usage record of this codebase (turn ledger, turn records, stats and cost build on
 * it). `cacheRead` and `cacheWrite` are disjoint parts of `prompt`; `cacheWrite1h` ⊆ `cacheWrite` (the rest was
 * written for 5 minutes); `reasoning` ⊆ `completion`. Unreported fields are 0.
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

/** Who ran a provider-side search. */
export type GroundingEngine = 'google' | 'xai' | 'openai' | 'meta';

/** One web source a provider-side search used. `title` may be ''. */
export interface GroundingSource {
  uri: string;
  title: string;
}

/** What a provider-side search (Google Search grounding, web/X search) looked up and used. */
export interface Grounding {
  queries: string[];
  sources: GroundingSource[];
  engine: GroundingEngine;
}

export interface ChatResponse {
  text: string | null;
  toolCalls: ToolCall[];
  finish: FinishReason;
  usage: Usage;
  /** Present when a provider-side search ran. */
  grounding?: Grounding;
  /** The model's thinking as the provider summarized it (never part of `text`); absent when none came. */
  reasoningSummary?: string[];
}

/**
 * A piece of a reply as it streams in: answer text, thinking text, or `restart` (a retried attempt begins; what
 * was shown of the failed one is void).
 */
export type StreamDelta = { kind: 'text' | 'thinking'; text: string } | { kind: 'restart' };

export interface ChatOptions {
  signal?: AbortSignal;
  /** Called with each piece of a streamed reply (streaming templates only); tool calls are never streamed. */
  onDelta?: (delta: StreamDelta) => void;
}

/** The `backend=` field of the `turn:` log record, one per wire. */
export type BackendName =
  | 'openai-compat'
  | 'anthropic'
  | 'gemini'
  | 'xai-responses'
  | 'openai-responses'
  | 'meta-responses'
  | 'echo';

export interface LlmBackend {
  readonly name: BackendName;
  /** Throws an LlmError (a FuseforksError with an `LLM_*` code) on failure. */
  chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResponse>;
}
