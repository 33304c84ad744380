// A loopback OpenAI-compatible model for bench/peers (its own process, so its CPU is nobody's): POST
// /v1/chat/completions, answered at once and without streaming, by one script every contender meets alike:
//   - tools offered include one named after the worker, and no tool result yet → call that tool with "question";
//   - a tool result is present → the final answer, built from it;
//   - otherwise (the worker agent) → a short answer.
// GET /stats gives {calls, promptChars, toolChars} since the last POST /reset; promptChars counts the characters of
// every message's text, toolChars those of the tool definitions sent. Prints its port on stdout.
import { createServer } from 'node:http';

let stats = { calls: 0, promptChars: 0, toolChars: 0 };
let nextId = 1;

function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

function reply(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const tools = Array.isArray(body.tools) ? body.tools : [];
  stats.calls += 1;
  for (const m of messages) stats.promptChars += textOf(m.content).length;
  stats.toolChars += tools.length === 0 ? 0 : JSON.stringify(tools).length;
  const askTool = tools.find((t) => /worker/i.test(t?.function?.name ?? ''));
  const toolResult = messages.findLast((m) => m.role === 'tool');
  let message;
  if (toolResult !== undefined) {
    message = { role: 'assistant', content: `Final answer, from the worker: ${textOf(toolResult.content).slice(0, 200)}` };
  } else if (askTool !== undefined) {
    const required = askTool.function.parameters?.required ?? Object.keys(askTool.function.parameters?.properties ?? {});
    const args = Object.fromEntries(required.map((name) => [name, 'What is the answer to the question?']));
    message = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `call_${nextId++}`, type: 'function', function: { name: askTool.function.name, arguments: JSON.stringify(args) } }],
    };
  } else {
    message = { role: 'assistant', content: 'The answer is 42.' };
  }
  return {
    id: `chatcmpl-${nextId++}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model ?? 'stub',
    choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop', logprobs: null }],
    usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
  };
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/stats') return send(res, 200, stats);
    if (req.method === 'POST' && req.url === '/reset') {
      stats = { calls: 0, promptChars: 0, toolChars: 0 };
      return send(res, 200, stats);
    }
    if (req.method === 'POST' && req.url?.endsWith('/chat/completions')) {
      try {
        return send(res, 200, reply(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      } catch (error) {
        return send(res, 400, { error: { message: String(error), type: 'invalid_request_error' } });
      }
    }
    send(res, 404, { error: { message: `no route ${req.method} ${req.url}`, type: 'not_found' } });
  });
});

function send(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
