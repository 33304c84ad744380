/**
 * The Gemini native wire: `POST {baseUrl}/models/{model}:generateContent` (or `:streamGenerateContent?alt=sse`)
 * with `x-goog-api-key`. Function declarations and calls, the system instruction, Google Search grounding (its
 * sources land on the message), thoughts kept apart from the answer, the call's `thoughtSignature` round-tripped,
 * and safety blocks mapped to LLM_BLOCKED. Pure encode / decode / stream assembly.
 */
import type { ChatMessage, ChatRequest, ChatResponse, FinishReason, Grounding, StreamDelta, ToolCall, Usage } from './canonical.js';
import { geminiParameters } from './geminiSchema.js';
import { emptyResponseError, streamCutError, streamErrorEvent } from './llmError.js';
import { settle } from './settle.js';
import { tokenCount } from './usage.js';
import type { StreamAssembler, WireAdapter, WireSettings } from './wireAdapter.js';
import { arrayOr, asRecord, recordOr, stringOr, tryJson } from './wireJson.js';

const BACKEND = 'gemini';

/** The default base URL of the Gemini API (the original's, for the GUI's provider switch). */
export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

/** ToolCall.extra keys: the signature Gemini needs back, and a marker for an id we made up (never sent back). */
const THOUGHT_SIGNATURE = 'thoughtSignature';
const LOCAL_ID = 'geminiLocalId';

/** Finish reasons that mean "the content was refused" (an answer without text then is LLM_BLOCKED). */
const BLOCK_REASONS = new Set([
  'SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION', 'LANGUAGE',
]);

type Part = Record<string, unknown>;
interface Content {
  role: 'user' | 'model';
  parts: Part[];
}

function encodeMessage(m: ChatMessage): Content {
  if (m.role === 'tool') {
    const local = m.toolCallId?.startsWith('gemini_call_') === true;
    return {
      role: 'user',
      parts: [{ functionResponse: { ...(m.toolCallId && !local ? { id: m.toolCallId } : {}), name: m.toolName ?? '', response: { result: m.content } } }],
    };
  }
  if (m.role === 'assistant') {
    const parts: Part[] = m.content === '' ? [] : [{ text: m.content }];
    for (const c of m.toolCalls ?? []) {
      const signature = c.extra?.[THOUGHT_SIGNATURE];
      const call = { ...(c.extra?.[LOCAL_ID] === undefined ? { id: c.id } : {}), name: c.name, args: recordOr(c.args) };
      // The signature goes back exactly as received: without it the next round may be refused.
      parts.push({ functionCall: call, ...(signature === undefined ? {} : { thoughtSignature: signature }) });
    }
    return { role: 'model', parts };
  }
  // Attachments before the text; the only wire besides meta_responses that carries audio and video.
  const parts: Part[] = (m.attachments ?? []).map((a) => ({ inlineData: { mimeType: a.mediaType, data: a.data } }));
  if (parts.length === 0 || m.content !== '') parts.push({ text: m.content });
  return { role: 'user', parts };
}

/** Canonical request → generateContent body (pure). */
export function encodeGeminiRequest(req: ChatRequest, settings: Pick<WireSettings, 'googleSearch'>): Record<string, unknown> {
  const system = req.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
  const contents: Content[] = [];
  for (const m of req.messages) {
    if (m.role === 'system') continue;
    const content = encodeMessage(m);
    if (content.parts.length === 0) continue;
    // Parallel function responses (and any same-role run) travel as one content.
    const last = contents[contents.length - 1];
    if (last !== undefined && last.role === content.role) last.parts.push(...content.parts);
    else contents.push(content);
  }
  const body: Record<string, unknown> = { contents };
  if (system.trim() !== '') body.systemInstruction = { parts: [{ text: system }] };
  const tools: Record<string, unknown>[] = [];
  if (settings.googleSearch) tools.push({ google_search: {} });
  if (req.tools.length > 0) {
    tools.push({
      functionDeclarations: req.tools.map((t) => {
        const parameters = geminiParameters(t.parameters);
        return { name: t.name, description: t.description, ...(parameters === undefined ? {} : { parameters }) };
      }),
    });
  }
  if (tools.length > 0) body.tools = tools;
  const toolConfig: Record<string, unknown> = {};
  if (req.tools.length > 0) {
    const c = req.toolChoice;
    toolConfig.functionCallingConfig =
      c === 'none' ? { mode: 'NONE' } : c === 'auto' ? { mode: 'AUTO' } : c === 'required' ? { mode: 'ANY' } : { mode: 'ANY', allowedFunctionNames: [c.name] };
  }
  // A built-in tool next to function calling is refused unless its invocations come back in the response.
  if (settings.googleSearch) toolConfig.includeServerSideToolInvocations = true;
  if (Object.keys(toolConfig).length > 0) body.toolConfig = toolConfig;
  body.generationConfig = {
    ...(req.temperature === null ? {} : { temperature: req.temperature }),
    maxOutputTokens: req.maxTokens,
    // Always: thinking happens (and is billed) anyway; this only decides whether its summary comes back.
    thinkingConfig: { includeThoughts: true },
  };
  return body;
}

/** usageMetadata → Usage: thoughts are billed output (and counted again as reasoning); cached ⊆ prompt. */
export function geminiUsage(raw: unknown): Usage {
  const u = recordOr(raw);
  const thoughts = tokenCount(u.thoughtsTokenCount);
  return {
    prompt: tokenCount(u.promptTokenCount),
    completion: tokenCount(u.candidatesTokenCount) + thoughts,
    cacheRead: tokenCount(u.cachedContentTokenCount),
    // No cache-write field on this wire: only implicit caching is used.
    cacheWrite: 0,
    cacheWrite1h: 0,
    reasoning: thoughts,
  };
}

function mapFinish(reason: string, hasCalls: boolean): FinishReason {
  if (hasCalls) return 'tool_use';
  // STOP also comes with function calls, so calls decide first.
  if (reason === 'STOP') return 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  return 'other';
}

/** generateContent body → canonical response (pure). `maxTokens` names the limit in a truncation error. */
export function decodeGeminiResponse(json: unknown, maxTokens: number): ChatResponse {
  const root = recordOr(json);
  const usage = geminiUsage(root.usageMetadata);
  const promptBlock = stringOr(recordOr(root.promptFeedback).blockReason);
  const candidate = asRecord(arrayOr(root.candidates)[0]);
  if (candidate === null) {
    if (promptBlock !== '') return settle(BACKEND, { text: null, toolCalls: [], finish: 'other', usage, blockReason: promptBlock }, maxTokens);
    throw emptyResponseError(BACKEND);
  }
  const grounding: Grounding = { queries: [], sources: [], engine: 'google' };
  const meta = recordOr(candidate.groundingMetadata);
  for (const q of arrayOr(meta.webSearchQueries)) if (typeof q === 'string' && !grounding.queries.includes(q)) grounding.queries.push(q);
  for (const chunk of arrayOr(meta.groundingChunks)) {
    const web = recordOr(recordOr(chunk).web);
    const uri = stringOr(web.uri);
    if (uri !== '' && !grounding.sources.some((s) => s.uri === uri)) grounding.sources.push({ uri, title: stringOr(web.title) });
  }
  let text = '';
  const toolCalls: ToolCall[] = [];
  const summary: string[] = [];
  arrayOr(recordOr(candidate.content).parts).forEach((raw, i) => {
    const part = recordOr(raw);
    // A search Google already ran: nothing to execute, but its queries belong to the grounding.
    const server = asRecord(part.toolCall);
    if (server !== null) {
      for (const q of arrayOr(recordOr(server.args).queries)) if (typeof q === 'string' && !grounding.queries.includes(q)) grounding.queries.push(q);
      return;
    }
    if (part.thought === true) {
      // Thoughts are never the answer.
      const t = stringOr(part.text);
      if (t !== '') summary.push(t);
      return;
    }
    if (typeof part.text === 'string') text += part.text;
    const call = asRecord(part.functionCall);
    if (call !== null) {
      const given = stringOr(call.id);
      const extra: Record<string, string> = {};
      if (typeof part.thoughtSignature === 'string') extra[THOUGHT_SIGNATURE] = part.thoughtSignature;
      if (given === '') extra[LOCAL_ID] = '1';
      toolCalls.push({
        id: given === '' ? `gemini_call_${i}` : given,
        name: stringOr(call.name),
        args: asRecord(call.args) ?? {},
        ...(Object.keys(extra).length > 0 ? { extra } : {}),
      });
    }
  });
  const reason = stringOr(candidate.finishReason);
  return settle(
    BACKEND,
    {
      text: text === '' ? null : text,
      toolCalls,
      finish: mapFinish(reason, toolCalls.length > 0),
      usage,
      grounding,
      reasoningSummary: summary,
      blockReason: BLOCK_REASONS.has(reason) ? reason : promptBlock !== '' ? promptBlock : null,
    },
    maxTokens,
  );
}

/** Streamed GenerateContentResponse chunks → one response: parts appended, the last finish/usage/grounding win. */
export function geminiAssembler(maxTokens: number): StreamAssembler {
  const parts: Part[] = [];
  let finishReason = '';
  let usage: unknown = null;
  let grounding: unknown;
  let feedback: unknown;
  let text = '';
  return {
    push(event) {
      const chunk = recordOr(tryJson(event.data));
      const error = asRecord(chunk.error);
      if (error !== null) {
        const status = typeof error.code === 'number' ? error.code : 500;
        throw streamErrorEvent(BACKEND, status, stringOr(error.status) || 'error', stringOr(error.message), '');
      }
      if (chunk.usageMetadata !== undefined) usage = chunk.usageMetadata;
      if (chunk.promptFeedback !== undefined) feedback = chunk.promptFeedback;
      const candidate = recordOr(arrayOr(chunk.candidates)[0]);
      if (typeof candidate.finishReason === 'string' && candidate.finishReason !== '') finishReason = candidate.finishReason;
      if (candidate.groundingMetadata !== undefined) grounding = candidate.groundingMetadata;
      const out: StreamDelta[] = [];
      for (const raw of arrayOr(recordOr(candidate.content).parts)) {
        const part = recordOr(raw);
        const last = parts[parts.length - 1];
        const plainText = typeof part.text === 'string' && part.functionCall === undefined;
        if (plainText && last !== undefined && typeof last.text === 'string' && last.thought === part.thought && last.thoughtSignature === undefined) {
          last.text = `${last.text}${stringOr(part.text)}`;
          if (part.thoughtSignature !== undefined) last.thoughtSignature = part.thoughtSignature;
        } else {
          parts.push({ ...part });
        }
        const piece = stringOr(part.text);
        if (piece === '' || part.functionCall !== undefined) continue;
        if (part.thought === true) out.push({ kind: 'thinking', text: piece });
        else {
          text += piece;
          out.push({ kind: 'text', text: piece });
        }
      }
      return out;
    },
    finish() {
      const blocked = stringOr(recordOr(feedback).blockReason) !== '';
      if (finishReason === '' && !blocked) throw streamCutError(BACKEND);
      const candidate = { content: { role: 'model', parts }, finishReason, ...(grounding === undefined ? {} : { groundingMetadata: grounding }) };
      const body = { candidates: parts.length === 0 && blocked ? [] : [candidate], usageMetadata: usage, ...(feedback === undefined ? {} : { promptFeedback: feedback }) };
      return decodeGeminiResponse(body, maxTokens);
    },
    partialUsage: () => geminiUsage(usage),
    received: () => text,
  };
}

/** The Gemini adapter for one template's settings. */
export function geminiWire(settings: WireSettings): WireAdapter {
  return {
    name: BACKEND,
    path: (model, stream) => `/models/${encodeURIComponent(model)}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    headers: (apiKey): Record<string, string> => (apiKey === '' ? {} : { 'x-goog-api-key': apiKey }),
    encode: (req) => encodeGeminiRequest(req, settings),
    decode: (json, req) => decodeGeminiResponse(json, req.maxTokens),
    assembler: (req) => geminiAssembler(req.maxTokens),
  };
}
