/**
 * The three Responses dialects: what OpenAI, xAI and Meta each accept in a `/responses` request (the original's
 * measured shapes). Shared decoding and streaming live in `responsesWire.ts`.
 *
 * - Tools: with `useTools` off or tool choice `none`, neither function tools nor search tools are sent (a summary
 *   call must never run, and pay for, a web search).
 * - OpenAI: `store: false`; `reasoning` {effort as given, summary "detailed", context "current_turn", mode "pro"
 *   when openaiReasoningPro}; no temperature (refused); `include` the sources every search touched.
 * - xAI: `store: false`; `include: ["no_inline_citations"]` (clean text, full sources); web_search / x_search.
 * - Meta: no `tool_choice` (only auto exists), no `store`; effort `max` is sent as `xhigh`, its ceiling; the only
 *   Responses wire that carries audio (raw base64 + format) and video (a data URL).
 */
import { audioFormat, attachmentKind, dataUrl } from '../attachments/attachmentFormat.js';
import type { ChatRequest, PromptAttachment } from './canonical.js';
import type { Effort } from '../world/types.js';
import { decodeResponses, encodeResponsesInput, responsesAssembler, type AttachmentPart, type ResponsesReading } from './responsesWire.js';
import type { WireAdapter, WireSettings } from './wireAdapter.js';

/** Image and PDF: what the OpenAI and xAI Responses wires can put into `input`. */
const imageAndPdf: AttachmentPart = (a: PromptAttachment) => {
  const kind = attachmentKind(a.mediaType);
  if (kind === 'image') return { type: 'input_image', image_url: dataUrl(a) };
  if (kind === 'pdf') return { type: 'input_file', filename: a.fileName, file_data: dataUrl(a) };
  return null;
};

/** Meta carries all four kinds. */
const allFour: AttachmentPart = (a: PromptAttachment) => {
  const kind = attachmentKind(a.mediaType);
  const format = audioFormat(a.mediaType);
  if (kind === 'audio') return format === null ? null : { type: 'input_audio', input_audio: { data: a.data, format } };
  if (kind === 'video') return { type: 'input_video', video_url: dataUrl(a) };
  return imageAndPdf(a);
};

function functionTools(req: ChatRequest): Record<string, unknown>[] {
  return req.tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters }));
}

function toolChoice(req: ChatRequest): unknown {
  const c = req.toolChoice;
  if (c === 'none' || c === 'auto') return undefined;
  return c === 'required' ? 'required' : { type: 'function', name: c.name };
}

function offersTools(req: ChatRequest, settings: WireSettings): boolean {
  return settings.useTools && req.toolChoice !== 'none';
}

/** Meta's effort: its ceiling is xhigh, so max is sent as xhigh. */
export function metaEffort(effort: Effort): string {
  return effort === 'max' ? 'xhigh' : effort;
}

function withoutUndefined(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

/** Canonical request → OpenAI Responses body (pure). */
export function encodeOpenAiResponses(req: ChatRequest, settings: WireSettings, stream: boolean): Record<string, unknown> {
  const tools = offersTools(req, settings) ? [...(settings.openaiWebSearch ? [{ type: 'web_search' }] : []), ...functionTools(req)] : [];
  return withoutUndefined({
    model: req.model,
    input: encodeResponsesInput(req.messages, imageAndPdf),
    tools: tools.length > 0 ? tools : undefined,
    include: ['web_search_call.action.sources'],
    reasoning: withoutUndefined({
      effort: req.effort ?? undefined,
      summary: 'detailed',
      context: 'current_turn',
      mode: settings.openaiReasoningPro ? 'pro' : undefined,
    }),
    store: false,
    max_output_tokens: req.maxTokens,
    tool_choice: toolChoice(req),
    stream: stream ? true : undefined,
  });
}

/** Canonical request → xAI Responses body (pure). */
export function encodeXaiResponses(req: ChatRequest, settings: WireSettings, stream: boolean): Record<string, unknown> {
  const search = [...(settings.xaiWebSearch ? [{ type: 'web_search' }] : []), ...(settings.xaiXSearch ? [{ type: 'x_search' }] : [])];
  const tools = offersTools(req, settings) ? [...search, ...functionTools(req)] : [];
  return withoutUndefined({
    model: req.model,
    input: encodeResponsesInput(req.messages, imageAndPdf),
    tools: tools.length > 0 ? tools : undefined,
    include: ['no_inline_citations'],
    store: false,
    max_output_tokens: req.maxTokens,
    temperature: req.temperature ?? undefined,
    tool_choice: toolChoice(req),
    stream: stream ? true : undefined,
  });
}

/** Canonical request → Meta Responses body (pure). */
export function encodeMetaResponses(req: ChatRequest, settings: WireSettings, stream: boolean): Record<string, unknown> {
  const tools = offersTools(req, settings) ? [...(settings.metaWebSearch ? [{ type: 'web_search' }] : []), ...functionTools(req)] : [];
  return withoutUndefined({
    model: req.model,
    input: encodeResponsesInput(req.messages, allFour),
    tools: tools.length > 0 ? tools : undefined,
    reasoning: req.effort === null ? undefined : { effort: metaEffort(req.effort) },
    max_output_tokens: req.maxTokens,
    temperature: req.temperature ?? undefined,
    stream: stream ? true : undefined,
  });
}

const bearer = (apiKey: string): Record<string, string> => (apiKey === '' ? {} : { authorization: `Bearer ${apiKey}` });

function responsesWire(
  reading: ResponsesReading & { backend: WireAdapter['name'] },
  encode: (req: ChatRequest, settings: WireSettings, stream: boolean) => Record<string, unknown>,
  settings: WireSettings,
): WireAdapter {
  return {
    name: reading.backend,
    path: () => '/responses',
    headers: bearer,
    encode: (req, stream) => encode(req, settings, stream),
    decode: (json, req) => decodeResponses(json, reading, req.maxTokens),
    assembler: (req) => responsesAssembler(reading, req.maxTokens),
  };
}

/** OpenAI Responses (`open_ai_responses`). */
export function openAiResponsesWire(settings: WireSettings): WireAdapter {
  return responsesWire({ backend: 'openai-responses', engine: 'openai', searchKinds: ['web_search_call'], touchedSources: true }, encodeOpenAiResponses, settings);
}

/** xAI Responses (`xai_responses`); x_search is seen under three item names. */
export function xaiResponsesWire(settings: WireSettings): WireAdapter {
  return responsesWire(
    { backend: 'xai-responses', engine: 'xai', searchKinds: ['web_search_call', 'x_search_call', 'custom_tool_call'], touchedSources: false },
    encodeXaiResponses,
    settings,
  );
}

/** Meta Responses (`meta_responses`). */
export function metaResponsesWire(settings: WireSettings): WireAdapter {
  return responsesWire({ backend: 'meta-responses', engine: 'meta', searchKinds: ['web_search_call'], touchedSources: false }, encodeMetaResponses, settings);
}
