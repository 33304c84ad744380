/**
 * The stub LLM's server-sent event streams, one per wire, in the providers' published event shapes: OpenAI
 * chat.completion.chunk + `[DONE]`, Anthropic `message_start … message_stop`, Gemini `alt=sse` chunks of
 * GenerateContentResponse, and Responses `response.created … response.completed`. Text is split into pieces so a
 * client can be watched assembling them; `textPiece` marks the frames that carry answer text.
 */
import {
  anthropicBlocks,
  anthropicStop,
  anthropicUsage,
  callId,
  geminiFinish,
  geminiGrounding,
  geminiUsage,
  openAiUsage,
  responsesBody,
  responsesOutput,
  type Answer,
} from './stubLlmBodies.js';
import type { StubWire } from './stubLlmWire.js';

/** One SSE frame, ready to write. */
export interface Frame {
  text: string;
  /** Carries a piece of the answer text (a stall point). */
  textPiece: boolean;
}

const frame = (data: unknown, event?: string, textPiece = false): Frame => ({
  text: `${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
  textPiece,
});

/** Splits text into pieces of `size` chars (one empty piece for empty text is never produced). */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function openAiFrames(a: Answer, size: number, error: number | null): Frame[] {
  const base = { id: `chatcmpl-stub-${a.index}`, object: 'chat.completion.chunk', created: 1_700_000_000, model: a.model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const out: Frame[] = [frame(chunk({ role: 'assistant', content: '' }))];
  for (const p of pieces(a.text, size)) out.push(frame(chunk({ content: p }), undefined, true));
  if (error !== null) return [...out, frame({ error: { message: 'stub stream error', type: error >= 500 ? 'server_error' : 'invalid_request_error', code: null } })];
  a.calls.forEach((c, i) => {
    const args = c.rawArgs ?? JSON.stringify(c.args ?? {});
    out.push(frame(chunk({ tool_calls: [{ index: i, id: callId(a, c, i, 'call_'), type: 'function', function: { name: c.name, arguments: '' } }] })));
    for (const p of pieces(args, 7)) out.push(frame(chunk({ tool_calls: [{ index: i, function: { arguments: p } }] })));
  });
  const finish = { tool: 'tool_calls', blocked: 'content_filter', stop: 'stop', length: 'length' }[a.finish];
  out.push(frame(chunk({}, finish)));
  out.push(frame({ ...base, choices: [], usage: openAiUsage(a.usage) }));
  out.push(frame('[DONE]'));
  return out;
}

function anthropicFrames(a: Answer, size: number, error: number | null): Frame[] {
  const usage = anthropicUsage(a.usage);
  const start = { ...usage, output_tokens: 1 };
  const out: Frame[] = [
    frame({ type: 'message_start', message: { id: `msg_stub_${a.index}`, type: 'message', role: 'assistant', model: a.model, content: [], stop_reason: null, stop_sequence: null, usage: start } }, 'message_start'),
    frame({ type: 'ping' }, 'ping'),
  ];
  anthropicBlocks(a).forEach((block, index) => {
    if (block.type === 'text') {
      out.push(frame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'));
      for (const p of pieces(String(block.text), size)) out.push(frame({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: p } }, 'content_block_delta', true));
    } else if (block.type === 'thinking') {
      out.push(frame({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }, 'content_block_start'));
      for (const p of pieces(String(block.thinking), size)) out.push(frame({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: p } }, 'content_block_delta'));
      out.push(frame({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: String(block.signature) } }, 'content_block_delta'));
    } else {
      out.push(frame({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }, 'content_block_start'));
      for (const p of pieces(JSON.stringify(block.input), 7)) out.push(frame({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: p } }, 'content_block_delta'));
    }
    out.push(frame({ type: 'content_block_stop', index }, 'content_block_stop'));
  });
  if (error !== null) {
    const type = error === 529 ? 'overloaded_error' : error >= 500 ? 'api_error' : 'invalid_request_error';
    return [...out, frame({ type: 'error', error: { type, message: 'stub stream error' } }, 'error')];
  }
  out.push(frame({ type: 'message_delta', delta: { stop_reason: anthropicStop(a), stop_sequence: null }, usage: { output_tokens: a.usage.completion } }, 'message_delta'));
  out.push(frame({ type: 'message_stop' }, 'message_stop'));
  return out;
}

function geminiFrames(a: Answer, size: number, error: number | null): Frame[] {
  const chunk = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
    usageMetadata: { promptTokenCount: a.usage.prompt },
    modelVersion: a.model,
    responseId: `resp-stub-${a.index}`,
  });
  const out: Frame[] = [];
  for (const p of pieces(a.thinking, size)) out.push(frame(chunk([{ text: p, thought: true }])));
  for (const p of pieces(a.text, size)) out.push(frame(chunk([{ text: p }]), undefined, true));
  if (error !== null) return [...out, frame({ error: { code: error, message: 'stub stream error', status: error >= 500 ? 'UNAVAILABLE' : 'INVALID_ARGUMENT' } })];
  const calls = a.calls.map((c) => ({ functionCall: { name: c.name, args: c.args ?? {} }, ...(c.signature === undefined ? {} : { thoughtSignature: c.signature }) }));
  const grounding = geminiGrounding(a);
  const last = {
    candidates: [{ content: { role: 'model', parts: calls.length > 0 ? calls : [{ text: '' }] }, finishReason: geminiFinish(a), index: 0, ...(grounding === undefined ? {} : { groundingMetadata: grounding }) }],
    usageMetadata: geminiUsage(a.usage),
    modelVersion: a.model,
    responseId: `resp-stub-${a.index}`,
  };
  out.push(frame(last));
  return out;
}

function responsesFrames(a: Answer, size: number, error: number | null): Frame[] {
  const body = responsesBody(a);
  let seq = 0;
  const ev = (type: string, data: Record<string, unknown>, textPiece = false): Frame => frame({ type, sequence_number: seq++, ...data }, type, textPiece);
  const out: Frame[] = [ev('response.created', { response: { ...body, status: 'in_progress', output: [], usage: null } })];
  responsesOutput(a).forEach((item, output_index) => {
    const id = String(item.id);
    if (item.type === 'message') {
      out.push(ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } }));
      out.push(ev('response.content_part.added', { item_id: id, output_index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }));
      for (const p of pieces(a.text, size)) out.push(ev('response.output_text.delta', { item_id: id, output_index, content_index: 0, delta: p }, true));
      if (error !== null) return;
      out.push(ev('response.output_text.done', { item_id: id, output_index, content_index: 0, text: a.text }));
    } else if (item.type === 'reasoning') {
      out.push(ev('response.output_item.added', { output_index, item: { ...item, summary: [] } }));
      for (const p of pieces(a.thinking, size)) out.push(ev('response.reasoning_summary_text.delta', { item_id: id, output_index, summary_index: 0, delta: p }));
    } else if (item.type === 'function_call') {
      out.push(ev('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } }));
      for (const p of pieces(String(item.arguments), 7)) out.push(ev('response.function_call_arguments.delta', { item_id: id, output_index, delta: p }));
    } else {
      out.push(ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress' } }));
    }
    out.push(ev('response.output_item.done', { output_index, item }));
  });
  if (error !== null) return [...out, ev('error', { code: error >= 500 ? 'server_error' : 'invalid_request', message: 'stub stream error', param: null })];
  out.push(ev(body.status === 'completed' ? 'response.completed' : 'response.incomplete', { response: body }));
  return out;
}

/** The frames of an answer on `wire`; with `error` set, the text is followed by the wire's error event instead of an end. */
export function streamFrames(wire: StubWire, a: Answer, chunkChars: number, error: number | null = null): Frame[] {
  switch (wire) {
    case 'openai':
      return openAiFrames(a, chunkChars, error);
    case 'anthropic':
      return anthropicFrames(a, chunkChars, error);
    case 'gemini':
      return geminiFrames(a, chunkChars, error);
    case 'responses':
      return responsesFrames(a, chunkChars, error);
  }
}
