// OpenAI Agents JS: the worker agent offered to the reception agent as a tool (agent-as-tool), on the Chat
// Completions model pointed at the stub, tracing off. One pair of agents serves every lane (runs are independent).
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { RECEPTION_INSTRUCTIONS, WORKER_INSTRUCTIONS } from './instructions.mjs';

export async function open(baseUrl, lanes) {
  setTracingDisabled(true);
  const client = new OpenAI({ apiKey: 'stub', baseURL: baseUrl, maxRetries: 0 });
  const model = new OpenAIChatCompletionsModel(client, 'stub-model');
  const worker = new Agent({ name: 'Worker', instructions: WORKER_INSTRUCTIONS, model });
  const reception = new Agent({
    name: 'Reception',
    instructions: RECEPTION_INSTRUCTIONS,
    model,
    tools: [worker.asTool({ toolName: 'ask_worker', toolDescription: 'Ask the worker agent a question.' })],
  });
  const ask = async (text) => String((await run(reception, text)).finalOutput);
  return { lanes: Array.from({ length: lanes }, () => ask), async close() {} };
}
