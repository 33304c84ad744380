/**
 * The Anthropic adapter: `POST {baseUrl}/messages` with `x-api-key`, `anthropic-version` and the extended cache TTL
 * beta (without it a 1-hour `ttl` is silently ignored), plus the stream assembler that rebuilds one Messages body
 * from `message_start … message_stop` and decodes it exactly as a non-streamed answer.
 */
import type { StreamDelta, Usage } from './canonical.js';
import { anthropicErrorStatus, anthropicUsage, decodeAnthropicResponse, encodeAnthropicRequest } from './anthropicWire.js';
import { parseError, streamCutError, streamErrorEvent } from './llmError.js';
import type { StreamAssembler, WireAdapter } from './wireAdapter.js';
import { recordOr, stringOr, tryJson, typedEvent } from './wireJson.js';

/** The API version header value this wire speaks. */
export const ANTHROPIC_VERSION = '2023-06-01';
/** The beta that makes `cache_control.ttl: "1h"` take effect. */
export const EXTENDED_CACHE_BETA = 'extended-cache-ttl-2025-04-11';

const BACKEND = 'anthropic';

/** A content block under construction; tool input arrives as JSON text pieces. */
interface OpenBlock {
  block: Record<string, unknown>;
  json: string;
}

/** `message_start … message_stop` → one Messages body → the canonical response. */
export function anthropicAssembler(maxTokens: number): StreamAssembler {
  let message: Record<string, unknown> = {};
  let usage: Record<string, unknown> = {};
  const blocks: OpenBlock[] = [];
  let text = '';
  let done = false;
  return {
    push(event) {
      const { data, type } = typedEvent(event);
      const out: StreamDelta[] = [];
      switch (type) {
        case 'message_start':
          message = recordOr(data.message);
          usage = { ...recordOr(message.usage) };
          break;
        case 'content_block_start': {
          const index = typeof data.index === 'number' ? data.index : blocks.length;
          blocks[index] = { block: { ...recordOr(data.content_block) }, json: '' };
          break;
        }
        case 'content_block_delta': {
          const open = blocks[typeof data.index === 'number' ? data.index : blocks.length - 1];
          const delta = recordOr(data.delta);
          if (open === undefined) break;
          if (delta.type === 'text_delta') {
            const piece = stringOr(delta.text);
            open.block.text = stringOr(open.block.text) + piece;
            text += piece;
            if (piece !== '') out.push({ kind: 'text', text: piece });
          } else if (delta.type === 'thinking_delta') {
            const piece = stringOr(delta.thinking);
            open.block.thinking = stringOr(open.block.thinking) + piece;
            if (piece !== '') out.push({ kind: 'thinking', text: piece });
          } else if (delta.type === 'signature_delta') {
            open.block.signature = stringOr(open.block.signature) + stringOr(delta.signature);
          } else if (delta.type === 'input_json_delta') {
            open.json += stringOr(delta.partial_json);
          }
          break;
        }
        case 'content_block_stop': {
          const open = blocks[typeof data.index === 'number' ? data.index : blocks.length - 1];
          if (open !== undefined && open.block.type === 'tool_use') {
            const input = open.json.trim() === '' ? {} : tryJson(open.json);
            if (input === undefined) throw parseError(BACKEND, `the input of tool call "${stringOr(open.block.name)}" is not valid JSON (${open.json.length} chars)`);
            open.block.input = input;
          }
          break;
        }
        case 'message_delta':
          // Usage here is cumulative; it may restate input and cache counts, so later values win.
          usage = { ...usage, ...recordOr(data.usage) };
          message = { ...message, ...recordOr(data.delta) };
          break;
        case 'message_stop':
          done = true;
          break;
        case 'error': {
          const error = recordOr(data.error);
          const kind = stringOr(error.type) || 'error';
          throw streamErrorEvent(BACKEND, anthropicErrorStatus(kind), kind, stringOr(error.message), '');
        }
        default:
          // ping and future event types carry nothing this wire reads.
          break;
      }
      return out;
    },
    finish() {
      if (!done) throw streamCutError(BACKEND);
      const content = blocks.filter((b) => b !== undefined).map((b) => b.block);
      return decodeAnthropicResponse({ ...message, content, usage }, maxTokens);
    },
    partialUsage: (): Usage => anthropicUsage(usage),
    received: () => text,
  };
}

/** The Messages adapter. */
export function anthropicWire(): WireAdapter {
  return {
    name: BACKEND,
    path: () => '/messages',
    headers: (apiKey) => ({
      'anthropic-version': ANTHROPIC_VERSION,
      'anthropic-beta': EXTENDED_CACHE_BETA,
      ...(apiKey === '' ? {} : { 'x-api-key': apiKey }),
    }),
    encode: (req, stream) => encodeAnthropicRequest(req, stream),
    decode: (json, req) => decodeAnthropicResponse(json, req.maxTokens),
    assembler: (req) => anthropicAssembler(req.maxTokens),
  };
}
