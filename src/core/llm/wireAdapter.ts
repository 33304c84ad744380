/**
 * The seam between the one HTTP backend (`httpBackend.ts`: URL, auth, retries, streaming, interrupts) and a
 * provider wire (pure encode/decode). Adding a wire = one adapter; the backend never looks inside a body.
 */
import type { ModelTemplate } from '../world/types.js';
import type { SseEvent } from './httpClient.js';
import type { BackendName, ChatRequest, ChatResponse, StreamDelta, Usage } from './canonical.js';

/** Builds one response out of a provider's event stream. One assembler per attempt. */
export interface StreamAssembler {
  /** Takes one event; returns what to show now (text and thinking pieces). Throws an LlmError for an error event. */
  push(event: SseEvent): StreamDelta[];
  /** The whole response, decoded exactly as the non-streamed body would be; throws when the stream ended early. */
  finish(): ChatResponse;
  /** Usage reported so far (0s where the wire reports usage only at the end): what an interrupt still paid. */
  partialUsage(): Usage;
  /** Answer text received so far (the completion estimate when usage never came). */
  received(): string;
}

/** A provider wire: where to post, how to authenticate, and the pure translations both ways. */
export interface WireAdapter {
  readonly name: BackendName;
  /** Path under the base URL (Gemini puts the model and the streaming method into it). */
  path(model: string, stream: boolean): string;
  /** Auth and version headers; an empty key sends no auth header. */
  headers(apiKey: string): Record<string, string>;
  encode(request: ChatRequest, stream: boolean): Record<string, unknown>;
  /** A whole (non-streamed) body → canonical response; throws LLM_PARSE / LLM_BLOCKED / LLM_OUTPUT_TRUNCATED / … */
  decode(json: unknown, request: ChatRequest): ChatResponse;
  assembler(request: ChatRequest): StreamAssembler;
}

/** The template switches an adapter reads (each search flag only on its own wire; see ModelTemplate). */
export type WireSettings = Pick<
  ModelTemplate,
  'useTools' | 'googleSearch' | 'xaiWebSearch' | 'xaiXSearch' | 'openaiWebSearch' | 'openaiReasoningPro' | 'metaWebSearch'
>;
