// comlink call (rpc.ts, the worker↔main request/reply layer) vs a raw postMessage round trip, main ↔ one worker,
// same payloads, alternating rounds in one run. Decides which exchanges stay plain messages (the mailbox path,
// `delegate`) and shows what an interrupt costs through comlink. Prints JSON lines, then a table; never asserts.
import { performance } from 'node:perf_hooks';
import { MessageChannel, Worker } from 'node:worker_threads';
import { remoteOn } from '../../dist/actors/rpc.js';

const ROUNDS = 5;
const PER_ROUND = 4000;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

const worker = new Worker(new URL('./rpcWorker.mjs', import.meta.url));
const raw = new MessageChannel();
const rpc = new MessageChannel();
worker.postMessage({ raw: raw.port2, rpc: rpc.port2 }, [raw.port2, rpc.port2]);
const remote = remoteOn(rpc.port1);

const delegateShaped = { kind: 'delegate', requestId: 1, envelopeId: '6f1c2b8e-3d4a-4f5b-9c6d-7e8f9a0b1c2d', delegation: 'ask', to: 'B', message: 'x'.repeat(200), hop: 1 };

async function rawRound(payload) {
  const lat = [];
  for (let i = 0; i < PER_ROUND; i += 1) {
    const t0 = performance.now();
    await new Promise((resolve) => {
      raw.port1.once('message', resolve);
      raw.port1.postMessage(payload);
    });
    lat.push((performance.now() - t0) * 1000);
  }
  return lat;
}

async function comlinkRound(call) {
  const lat = [];
  for (let i = 0; i < PER_ROUND; i += 1) {
    const t0 = performance.now();
    await call();
    lat.push((performance.now() - t0) * 1000);
  }
  return lat;
}

const cases = {
  raw_interrupt: () => rawRound({ kind: 'interrupt', envelopeId: 'e1' }),
  comlink_interrupt: () => comlinkRound(() => remote.interrupt('e1')),
  raw_delegate_2xx_bytes: () => rawRound(delegateShaped),
  comlink_delegate_2xx_bytes: () => comlinkRound(() => remote.echo(delegateShaped)),
};
const lat = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const name of Object.keys(cases)) await cases[name](); // warm-up
for (let r = 0; r < ROUNDS; r += 1) for (const name of Object.keys(cases)) lat[name].push(...(await cases[name]()));
await worker.terminate();

const row = (name) => ({ p50: +pct(lat[name], 50).toFixed(1), p99: +pct(lat[name], 99).toFixed(1) });
const results = [
  { name: 'rpc_interrupt_rtt_us', n: ROUNDS * PER_ROUND, comlink: row('comlink_interrupt'), baseline: 'raw postMessage round trip', raw: row('raw_interrupt') },
  { name: 'rpc_delegate_rtt_us', n: ROUNDS * PER_ROUND, comlink: row('comlink_delegate_2xx_bytes'), baseline: 'raw postMessage round trip', raw: row('raw_delegate_2xx_bytes') },
];
for (const r of results) {
  r.ratioP50 = +(r.comlink.p50 / r.raw.p50).toFixed(2);
  r.extraP50Us = +(r.comlink.p50 - r.raw.p50).toFixed(1);
  r.target = 'report';
  process.stdout.write(JSON.stringify(r) + '\n');
}
process.stdout.write('\nround trip main↔worker      comlink p50/p99 µs     raw p50/p99 µs     ratio\n');
for (const r of results) {
  process.stdout.write(`${r.name.padEnd(27)} ${`${r.comlink.p50} / ${r.comlink.p99}`.padEnd(22)} ${`${r.raw.p50} / ${r.raw.p99}`.padEnd(18)} ×${r.ratioP50} (+${r.extraP50Us} µs)\n`);
}
