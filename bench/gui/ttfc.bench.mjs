// Time to first streamed character: from the loopback model server's first SSE byte to the first `textDelta`
// on the GUI's event stream (/api/events), across the real path — HTTP into the agent's worker, SSE parsing, the
// worker's delta coalescer, the worker → main hop, the event bus, the GUI server's SSE. Both ends are timed in this
// one process (one clock). The baseline in the same run is the model server itself: POST received → its first
// byte, and the reply's full stream duration (what a non-streaming client would wait before showing anything).
// Usage (after npm run build): node bench/gui/ttfc.bench.mjs [n]
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const root = new URL('../../', import.meta.url).pathname;
const n = Number(process.argv[2] ?? 12);
const PIECES = 40;
const PIECE_GAP_MS = 15;
const now = () => performance.now();

// The model server: OpenAI chat-completions chunks, one piece every PIECE_GAP_MS, then usage and [DONE].
let marks = null;
const model = createServer((req, res) => {
  req.resume();
  req.on('end', async () => {
    const m = marks ?? {};
    m.requestAt = now();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta, finish = null) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    m.firstByteAt = now();
    res.write(chunk({ role: 'assistant', content: 'Hel' }));
    for (let i = 0; i < PIECES; i += 1) {
      await new Promise((r) => setTimeout(r, PIECE_GAP_MS));
      res.write(chunk({ content: ` p${i}` }));
    }
    res.write(chunk({}, 'stop'));
    res.write(`data: ${JSON.stringify({ id: 'c', choices: [], usage: { prompt_tokens: 10, completion_tokens: PIECES } })}\n\n`);
    res.end('data: [DONE]\n\n');
    m.lastByteAt = now();
  });
});
await new Promise((r) => model.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${model.address().port}/v1`;

const data = mkdtempSync(join(tmpdir(), 'ff-bench-ttfc-'));
// A private runtime folder: the launch token for a program is in its server file (the printed URL carries a ticket).
const runtime = mkdtempSync(join(tmpdir(), 'ff-bench-ttfc-run-'));
const gui = spawn(process.execPath, [join(root, 'bin/run.js'), 'gui', '--data-dir', data, '--no-open'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_RUNTIME_DIR: runtime } });
const { port, token } = await new Promise((resolve, reject) => {
  let out = '';
  gui.stdout.on('data', (d) => {
    out += d;
    if (!/^http:\/\/127\.0\.0\.1:\d+\/#ticket=[A-Za-z0-9_-]+\n/.test(out)) return;
    const dir = join(runtime, 'fuseforks');
    const file = readdirSync(dir).find((f) => /^gui-\d+\.json$/.test(f));
    resolve(JSON.parse(readFileSync(join(dir, file), 'utf8')));
  });
  gui.on('exit', (code) => reject(new Error(`gui exited ${code}`)));
});
const origin = `http://127.0.0.1:${port}`;
const headers = { 'x-fuseforks-token': token, origin, 'content-type': 'application/json' };
const api = async (method, path, body) => {
  const res = await fetch(`${origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
};

const samples = [];
try {
  while ((await api('GET', '/api/boot')).state === 'booting') await new Promise((r) => setTimeout(r, 100));
  await api('PUT', '/api/templates', { template: { id: 'm', name: 'M', provider: 'open_ai_compat', baseUrl, model: 'bench', credential: 'not_required', stream: true } });
  await api('POST', '/api/agents', { name: 'Alice' });
  await api('POST', '/api/agents/alice/start');

  // The GUI's one event stream, read as the browser reads it.
  const events = await fetch(`${origin}/api/events`, { headers });
  const reader = events.body.pipeThrough(new TextDecoderStream()).getReader();
  let waiter = null;
  let buffer = '';
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value;
      let i;
      while ((i = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const line = frame.split('\n').find((l) => l.startsWith('data: '));
        if (line === undefined) continue;
        const event = JSON.parse(line.slice(6));
        waiter?.(event, now());
      }
    }
  })();

  for (let run = 0; run < n + 1; run += 1) {
    marks = {};
    const seen = new Promise((resolve) => {
      let firstDeltaAt = null;
      waiter = (event, at) => {
        if (event.type === 'textDelta' && event.kind === 'text' && firstDeltaAt === null) firstDeltaAt = at;
        if (event.type === 'messageSent' && event.message.from.kind === 'agent') resolve({ firstDeltaAt, replyAt: at });
      };
    });
    const sentAt = now();
    await api('POST', '/api/messages', { to: 'alice', text: `hello ${run}` });
    const { firstDeltaAt, replyAt } = await seen;
    if (run === 0) continue; // warm-up: the worker loads the engine on its first delivery
    samples.push({
      firstByteToFirstChar: firstDeltaAt - marks.firstByteAt,
      sendToFirstByte: marks.firstByteAt - sentAt,
      sendToFirstChar: firstDeltaAt - sentAt,
      modelStream: marks.lastByteAt - marks.firstByteAt,
      sendToReply: replyAt - sentAt,
    });
  }
  reader.cancel().catch(() => {});
} finally {
  gui.kill('SIGINT');
  await new Promise((r) => gui.once('exit', r));
  model.close();
  rmSync(data, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}

const stat = (key) => {
  const s = samples.map((x) => x[key]).sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50_ms: +q(0.5).toFixed(1), p90_ms: +q(0.9).toFixed(1), min_ms: +s[0].toFixed(1) };
};
const rows = [
  ['model first SSE byte → first char on the GUI event stream', 'firstByteToFirstChar'],
  ['baseline: POST /api/messages → model first SSE byte', 'sendToFirstByte'],
  ['POST /api/messages → first char on the GUI event stream', 'sendToFirstChar'],
  ['baseline: model stream first → last byte (no streaming: nothing shown before)', 'modelStream'],
  ['POST /api/messages → recorded reply (messageSent)', 'sendToReply'],
].map(([name, key]) => ({ case: name, n: samples.length, ...stat(key) }));
const ttfc = rows[0].p50_ms;
const whole = rows[3].p50_ms;
for (const r of rows) console.log(JSON.stringify(r));
console.log(JSON.stringify({ case: 'first char vs waiting for the whole streamed reply', ratio: +(ttfc / whole).toFixed(3) }));
console.log('\ncase                                                                          p50 ms   p90 ms');
for (const r of rows) console.log(`${r.case.padEnd(78)} ${String(r.p50_ms).padStart(7)}  ${String(r.p90_ms).padStart(7)}`);
