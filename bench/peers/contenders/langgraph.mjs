// LangGraph JS: a tool-calling graph (model node ⇄ ToolNode) for the reception, whose `ask_worker` tool invokes the
// worker's own one-node graph; both on ChatOpenAI pointed at the stub. One compiled graph serves every lane.
import { tool } from '@langchain/core/tools';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { RECEPTION_INSTRUCTIONS, WORKER_INSTRUCTIONS } from './instructions.mjs';

export async function open(baseUrl, lanes) {
  const llm = new ChatOpenAI({ model: 'stub-model', apiKey: 'stub', maxRetries: 0, configuration: { baseURL: baseUrl } });
  const workerGraph = new StateGraph(MessagesAnnotation)
    .addNode('model', async (state) => ({ messages: [await llm.invoke([{ role: 'system', content: WORKER_INSTRUCTIONS }, ...state.messages])] }))
    .addEdge(START, 'model')
    .addEdge('model', END)
    .compile();
  const askWorker = tool(
    async ({ question }) => {
      const out = await workerGraph.invoke({ messages: [{ role: 'user', content: question }] });
      return String(out.messages.at(-1).content);
    },
    { name: 'ask_worker', description: 'Ask the worker agent a question.', schema: z.object({ question: z.string() }) },
  );
  const model = llm.bindTools([askWorker]);
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('model', async (state) => ({ messages: [await model.invoke([{ role: 'system', content: RECEPTION_INSTRUCTIONS }, ...state.messages])] }))
    .addNode('tools', new ToolNode([askWorker]))
    .addEdge(START, 'model')
    .addConditionalEdges('model', (state) => (state.messages.at(-1).tool_calls?.length ? 'tools' : END))
    .addEdge('tools', 'model')
    .compile();
  const ask = async (text) => String((await graph.invoke({ messages: [{ role: 'user', content: text }] })).messages.at(-1).content);
  return { lanes: Array.from({ length: lanes }, () => ask), async close() {} };
}
