// The floor: the same three model calls made with plain fetch and hand-built messages, no framework.
import { RECEPTION_INSTRUCTIONS, WORKER_INSTRUCTIONS } from './instructions.mjs';

const TOOLS = [{
  type: 'function',
  function: { name: 'ask_worker', description: 'Ask the worker agent a question.', parameters: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] } },
}];

export async function open(baseUrl, lanes) {
  const call = async (body) => {
    const res = await fetch(`${baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer stub' }, body: JSON.stringify({ model: 'stub-model', ...body }) });
    if (!res.ok) throw new Error(`raw fetch: HTTP ${res.status}`);
    return (await res.json()).choices[0].message;
  };
  const ask = async (text) => {
    const messages = [{ role: 'system', content: RECEPTION_INSTRUCTIONS }, { role: 'user', content: text }];
    const first = await call({ messages, tools: TOOLS });
    const toolCall = first.tool_calls[0];
    const { question } = JSON.parse(toolCall.function.arguments);
    const answer = await call({ messages: [{ role: 'system', content: WORKER_INSTRUCTIONS }, { role: 'user', content: question }] });
    const final = await call({ messages: [...messages, first, { role: 'tool', tool_call_id: toolCall.id, content: answer.content }], tools: TOOLS });
    return final.content;
  };
  return { lanes: Array.from({ length: lanes }, () => ask), async close() {} };
}
