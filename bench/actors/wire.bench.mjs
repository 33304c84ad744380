// Data-plane encoding choices, each a round trip main → worker → main:
//   - a ~2 KB deliver-shaped envelope: structured clone vs msgpackr (sequential records, buffer transferred);
//   - a worker's turn batch (protocol.ts WorkerBatch, the shape a model call's burst posts: a diag note, a call
//     record, a delegate): structured clone vs its JSON text (JSON.stringify on one side, JSON.parse on the other).
// Prints JSON lines; never asserts.
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const N = 5000;
const envelope = {
  kind: 'deliver', envelopeId: '6f1c2b8e-3d4a-4f5b-9c6d-7e8f9a0b1c2d', folded: false, budget: null,
  envelope: { from: { kind: 'agent', id: 'agent_01' }, fromLabel: 'Agent 01', content: 'x'.repeat(1700), hop: 1, awaitingReply: true },
  roster: [{ id: 'agent_02', name: 'Agent 02', roleName: null, status: 'running' }],
  material: { ordinance: '', construct: 'c'.repeat(100), skill: '', memory: '' },
};
// One burst as a turn posts it (captured from bench/peers' fuseforks contender, ~1.5 KB as JSON).
const batch = {
  kind: 'batch',
  items: [
    { kind: 'diag', notes: [{ kind: 'cache', fields: { agent: 'reception', model: 'stub-model', round: 1, prompt: 100, cached: 0, system_chars: 543, stable_chars: 240, system_blocks: 2, history_msgs: '16/16', system_digest: '2f935e7579535dd8', cache_write: 0 }, level: 'info' }] },
    { kind: 'callUsage', call: { agentId: 'reception', templateId: 'stub', model: 'stub-model', backend: 'openai-compat', purpose: 'turn', tsMs: 1796267745639, latencyMs: 11, outcome: { kind: 'ok' }, prompt: 100, cached: 0, cacheWrite: 0, cacheWrite1h: 0, completion: 10, reasoning: 0, estimated: false } },
    { kind: 'event', event: { type: 'toolInvoked', agentId: 'reception', tool: 'ask_worker', ok: true, reason: { kind: 'excluded' } } },
    { kind: 'diag', notes: [{ kind: 'tool', fields: { agent: 'reception', round: 1, name: 'ask_worker', ok: true, args_chars: 49, body_chars: 17, reason: 'excluded', reason_chars: 0 }, level: 'info' }] },
    { kind: 'delegate', requestId: 19, envelopeId: 'f642634b-a925-46da-869d-4a1c959a1895', delegation: 'ask', to: 'worker', message: 'What is the answer to the question?', hop: 1 },
  ],
};
const src = `
const { parentPort, workerData } = require('node:worker_threads');
const { Packr } = require(workerData.msgpackr);
// One Packr per direction: shared structures are learned from the peer's stream, in order.
const inbound = new Packr({ sequential: true });
const outbound = new Packr({ sequential: true });
parentPort.on('message', (m) => {
  if (m instanceof Uint8Array) {
    const v = inbound.unpack(m);
    const out = outbound.pack(v);
    const copy = new Uint8Array(out);
    parentPort.postMessage(copy, [copy.buffer]);
  } else if (typeof m === 'string') parentPort.postMessage(JSON.stringify(JSON.parse(m)));
  else parentPort.postMessage(m);
});`;

async function measure(mode, value = envelope) {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  const w = new Worker(src, { eval: true, workerData: { msgpackr: require.resolve('msgpackr') } });
  const { Packr } = await import('msgpackr');
  const outbound = new Packr({ sequential: true });
  const inbound = new Packr({ sequential: true });
  const lat = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const reply = new Promise((r) => w.once('message', r));
    if (mode === 'clone') w.postMessage(value);
    else if (mode === 'json') w.postMessage(JSON.stringify(value));
    else {
      const bytes = new Uint8Array(outbound.pack(value));
      w.postMessage(bytes, [bytes.buffer]);
    }
    const got = await reply;
    if (mode === 'json') JSON.parse(got);
    else if (mode === 'msgpackr') inbound.unpack(got);
    lat.push((performance.now() - t0) * 1000);
  }
  await w.terminate();
  const cpu = process.cpuUsage(cpu0);
  lat.sort((a, b) => a - b);
  // main-thread CPU per round trip (the worker's share is not counted; both sides do the same work)
  return { p50: Math.round(lat[Math.floor(N / 2)]), p99: Math.round(lat[Math.floor(N * 0.99)]), mainCpuUs: Math.round((cpu.user + cpu.system) / N) };
}

const clone = await measure('clone');
const pack = await measure('msgpackr');
process.stdout.write(JSON.stringify({ name: 'wire_envelope_2kb_rtt_us', n: N, clone, msgpackr: pack, baseline: 'structured clone' }) + '\n');

const batchClone = await measure('clone', batch);
const batchJson = await measure('json', batch);
process.stdout.write(
  JSON.stringify({ name: 'wire_batch_rtt_us', n: N, clone: batchClone, json: batchJson, ratio: +(batchJson.p50 / batchClone.p50).toFixed(2), baseline: 'structured clone', target: 'report (JSON text kept only if ratio < 1)' }) + '\n',
);
