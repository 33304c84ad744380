// Data-plane encoding choice: a ~2 KB deliver-shaped envelope round trip main → worker → main,
// structured clone vs msgpackr (sequential records, buffer transferred). Prints JSON lines; never asserts.
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const N = 5000;
const envelope = {
  kind: 'deliver', envelopeId: '6f1c2b8e-3d4a-4f5b-9c6d-7e8f9a0b1c2d', folded: false, budget: null,
  envelope: { from: { kind: 'agent', id: 'agent_01' }, fromLabel: 'Agent 01', content: 'x'.repeat(1700), hop: 1, awaitingReply: true },
  roster: [{ id: 'agent_02', name: 'Agent 02', roleName: null, status: 'running' }],
  material: { ordinance: '', construct: 'c'.repeat(100), skill: '', memory: '' },
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
  } else parentPort.postMessage(m);
});`;

async function measure(mode) {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  const w = new Worker(src, { eval: true, workerData: { msgpackr: require.resolve('msgpackr') } });
  const { Packr } = await import('msgpackr');
  const outbound = new Packr({ sequential: true });
  const inbound = new Packr({ sequential: true });
  const lat = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const reply = new Promise((r) => w.once('message', r));
    if (mode === 'clone') w.postMessage(envelope);
    else {
      const bytes = new Uint8Array(outbound.pack(envelope));
      w.postMessage(bytes, [bytes.buffer]);
    }
    const got = await reply;
    if (mode !== 'clone') inbound.unpack(got);
    lat.push((performance.now() - t0) * 1000);
  }
  await w.terminate();
  lat.sort((a, b) => a - b);
  return { p50: Math.round(lat[Math.floor(N / 2)]), p99: Math.round(lat[Math.floor(N * 0.99)]) };
}

const clone = await measure('clone');
const pack = await measure('msgpackr');
process.stdout.write(JSON.stringify({ name: 'wire_envelope_2kb_rtt_us', n: N, clone, msgpackr: pack, baseline: 'structured clone' }) + '\n');
