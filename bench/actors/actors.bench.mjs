// Actor runtime benches (plain node ESM over dist/; `npm run bench` runs it). Each number comes with a
// baseline measured in the same run. Prints one JSON object per line, then a short table. Never asserts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MessageChannel, Worker } from 'node:worker_threads';
import { Supervisor } from '../../dist/actors/supervisor.js';

const BENCH_WORKER = new URL('./benchWorker.mjs', import.meta.url);
/** The real agent worker entry as the supervisor starts it (the one-file bundle of npm run build). */
const AGENT_WORKER = new URL('../../dist/actors/agentWorker.bundle.cjs', import.meta.url);
const PING_WORKER = new URL('./pingWorker.mjs', import.meta.url);
const results = [];
const emit = (r) => {
  results.push(r);
  process.stdout.write(JSON.stringify(r) + '\n');
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const gc = () => globalThis.gc?.();

const tpl = {
  id: 'tpl', name: 'Echo', baseUrl: '', model: 'echo', contextLength: 8192, temperature: null, maxOutputTokens: 256,
  credential: 'not_required', provider: 'echo', useTools: true, effort: null, requestTimeoutSecs: 10, maxRetries: 1,
  inputPerMtok: null, outputPerMtok: null, cacheReadPerMtok: null, cacheWritePerMtok: null, cacheWrite1hPerMtok: null,
  pricingAsOf: null,
};
const agent = (id, connectedAgents = []) => ({
  id, name: id, modelTemplateId: 'tpl', ragSources: [], connectedAgents, order: 0, workDir: null,
  maxToolIterations: null, enabledTools: null, hearsRoomLog: false, allowHandoff: true, batchStart: false,
  roleId: null, groupId: null, hidden: false, planReview: false,
});
const world = (agents) => ({
  agents, groups: [], modelTemplates: [tpl], roles: [], topologyPositions: {}, tokenBudget: null, language: 'en',
  userName: null, reception: agents[0].id, externalName: null, askTimeoutSecs: 60, maxHops: 8,
});

async function withVillage(agents, fn, workerUrl = BENCH_WORKER) {
  const dir = mkdtempSync(join(tmpdir(), 'ff-bench-'));
  const sup = new Supervisor({ world: world(agents), workspaceDir: dir, workerUrl });
  try {
    return await fn(sup);
  } finally {
    await sup.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function pingPong(n) {
  const a = new Worker(PING_WORKER, { workerData: { role: 'ping', n } });
  const b = new Worker(PING_WORKER, { workerData: { role: 'pong' } });
  const { port1, port2 } = new MessageChannel();
  const lat = new Promise((r) => a.once('message', r));
  b.postMessage({ port: port2 }, [port2]);
  a.postMessage({ port: port1 }, [port1]);
  const out = await lat;
  await Promise.all([a.terminate(), b.terminate()]);
  return out;
}

/** The same ping-pong, relayed by the main thread (A → main → B → main → A): the hops any supervisor-routed ask makes. */
async function relayedPingPong(n) {
  const a = new Worker(PING_WORKER, { workerData: { role: 'ping', n } });
  const b = new Worker(PING_WORKER, { workerData: { role: 'pong' } });
  const toA = new MessageChannel();
  const toB = new MessageChannel();
  toA.port1.on('message', (m) => toB.port1.postMessage(m));
  toB.port1.on('message', (m) => toA.port1.postMessage(m));
  const lat = new Promise((r) => a.once('message', r));
  b.postMessage({ port: toB.port2 }, [toB.port2]);
  a.postMessage({ port: toA.port2 }, [toA.port2]);
  const out = await lat;
  toA.port1.close();
  toB.port1.close();
  await Promise.all([a.terminate(), b.terminate()]);
  return out;
}

// 1. agent→agent ask round trip through the supervisor (B runs the real turn engine on the echo backend).
const N = 2000;
const askLat = await withVillage([agent('A', ['B']), agent('B')], async (sup) => {
  await Promise.all([sup.startAgent('A'), sup.startAgent('B')]);
  await sup.askExternalOutcome('bench', 'loop:200:B'); // warm-up
  const out = await sup.askExternalOutcome('bench', `loop:${N}:B`);
  return JSON.parse(out.answer);
});
const rawLat = await pingPong(N);
const relayLat = await relayedPingPong(N);
emit({
  name: 'ask_round_trip_us', n: N,
  p50: pct(askLat, 50), p99: pct(askLat, 99),
  baseline: 'raw postMessage ping-pong between two workers', baselineP50: pct(rawLat, 50), baselineP99: pct(rawLat, 99),
  ratioP50: +(pct(askLat, 50) / pct(rawLat, 50)).toFixed(2), target: 'ratio <= 3',
  relayBaseline: 'the same ping-pong relayed by the main thread (the hops of any supervisor-routed ask)',
  relayP50: pct(relayLat, 50), relayRatioP50: +(pct(askLat, 50) / pct(relayLat, 50)).toFixed(2),
});

// 2. start 50 agents (real agent worker entry), RSS per idle agent.
gc();
const rss0 = process.memoryUsage().rss;
const ids = Array.from({ length: 50 }, (_, i) => `a${i}`);
await withVillage(ids.map((id) => agent(id)), async (sup) => {
  const t0 = performance.now();
  await Promise.all(ids.map((id) => sup.startAgent(id)));
  const startMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 500));
  gc();
  const perAgentMb = (process.memoryUsage().rss - rss0) / 50 / 2 ** 20;
  // Baseline: 50 bare workers that only answer one message.
  gc();
  const b0 = process.memoryUsage().rss;
  const t1 = performance.now();
  const bare = await Promise.all(
    ids.map(async () => {
      const w = new Worker('const { parentPort } = require("node:worker_threads"); parentPort.once("message", (m) => parentPort.postMessage(m));', { eval: true });
      w.postMessage(1);
      await new Promise((r) => w.once('message', r));
      return w;
    }),
  );
  const bareMs = performance.now() - t1;
  gc();
  const bareMb = (process.memoryUsage().rss - b0) / 50 / 2 ** 20;
  await Promise.all(bare.map((w) => w.terminate()));
  emit({ name: 'start_50_agents_ms', value: Math.round(startMs), baseline: '50 bare eval workers', baselineMs: Math.round(bareMs), target: '<= 2500' });
  emit({ name: 'rss_per_idle_agent_mb', value: +perAgentMb.toFixed(1), baselineMb: +bareMb.toFixed(1), target: '<= 12' });
}, AGENT_WORKER);

// 2b. An idle agent's first turn vs its second (real worker entry, echo backend): what loading the engine costs.
// The agent is not the reception (which loads its engine at start): a user message to it, timed to the end of its
// "typing", for both turns alike.
{
  const firsts = [];
  const seconds = [];
  const turn = (sup, id, text) =>
    new Promise((resolve) => {
      const off = sup.bus.on('agentTyping', (e) => {
        if (e.agentId !== id || e.active) return;
        off();
        resolve();
      });
      sup.sendUserMessage(id, text);
    });
  for (let round = 0; round < 5; round += 1) {
    await withVillage([agent('desk'), agent('R')], async (sup) => {
      await sup.startAgent('R');
      await new Promise((r) => setTimeout(r, 200)); // idle
      let t0 = performance.now();
      await turn(sup, 'R', 'first');
      firsts.push(performance.now() - t0);
      t0 = performance.now();
      await turn(sup, 'R', 'second');
      seconds.push(performance.now() - t0);
    }, AGENT_WORKER);
  }
  const first = pct(firsts, 50);
  const second = pct(seconds, 50);
  emit({
    name: 'first_turn_ms', rounds: 5, value: +first.toFixed(1), baseline: 'the same agent\'s second turn', baselineMs: +second.toFixed(1),
    overMs: +(first - second).toFixed(1), target: 'first <= second + 50 ms',
  });
}

// 3. interruptAll fan-out to 50 in-flight agents: time until every worker acknowledged.
const INTERRUPT_ROUNDS = 100;
await withVillage(ids.map((id) => agent(id)), async (sup) => {
  await Promise.all(ids.map((id) => sup.startAgent(id)));
  const lat = [];
  const fan = [];
  // 100 rounds: with 20 the p99 was simply the slowest round, one descheduling on a busy machine.
  for (let round = 0; round < INTERRUPT_ROUNDS; round++) {
    const typing = new Set();
    const off = sup.bus.on('agentTyping', (e) => e.active && typing.add(e.agentId));
    for (const id of ids) sup.sendUserMessage(id, 'hang');
    while (typing.size < ids.length) await new Promise((r) => setTimeout(r, 2));
    off();
    const t0 = performance.now();
    await sup.interruptAll();
    lat.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  // Baseline: one message fanned out to 50 bare workers, waiting for every reply.
  const bare = ids.map(() => new Worker('const { parentPort } = require("node:worker_threads"); parentPort.on("message", (m) => parentPort.postMessage(m));', { eval: true }));
  for (let round = 0; round < INTERRUPT_ROUNDS; round++) {
    const t0 = performance.now();
    await Promise.all(bare.map((w) => new Promise((r) => { w.once('message', r); w.postMessage(round); })));
    fan.push(performance.now() - t0);
  }
  await Promise.all(bare.map((w) => w.terminate()));
  emit({
    name: 'interrupt_all_50_ack_ms', rounds: INTERRUPT_ROUNDS, p50: +pct(lat, 50).toFixed(2), p99: +pct(lat, 99).toFixed(2),
    baseline: 'fan-out to 50 bare workers', baselineP50: +pct(fan, 50).toFixed(2), baselineP99: +pct(fan, 99).toFixed(2), target: 'p99 <= 50',
  });
});

// 4. CPU-bound tool work: 2 agents in parallel vs 1 agent (2 cores).
await withVillage([agent('A'), agent('B')], async (sup) => {
  await Promise.all([sup.startAgent('A'), sup.startAgent('B')]);
  const WORK = 150_000_000;
  const once = async (targets) => {
    const replies = targets.map((id) => new Promise((r) => {
      const off = sup.bus.on('messageSent', (e) => {
        if (e.message.from.kind === 'agent' && e.message.from.id === id) { off(); r(); }
      });
    }));
    const t0 = performance.now();
    for (const id of targets) sup.sendUserMessage(id, `burn:${WORK}`);
    await Promise.all(replies);
    return performance.now() - t0;
  };
  await once(['A']);
  const one = await once(['A']);
  const two = await once(['A', 'B']);
  emit({ name: 'cpu_two_agents_speedup', oneAgentMs: Math.round(one), twoAgentsMs: Math.round(two), speedup: +((2 * one) / two).toFixed(2), baseline: 'same work on 1 agent', target: '>= 1.7' });
});

process.stdout.write('\nbench                        value                 baseline            target\n');
for (const r of results) {
  const value = r.p50 !== undefined ? `p50 ${r.p50} p99 ${r.p99}` : r.speedup !== undefined ? `${r.speedup}x` : `${r.value}`;
  const base = r.baselineP50 !== undefined ? `p50 ${r.baselineP50} p99 ${r.baselineP99}` : (r.baselineMs ?? r.baselineMb ?? r.oneAgentMs);
  process.stdout.write(`${r.name.padEnd(28)} ${String(value).padEnd(21)} ${String(base).padEnd(19)} ${r.target}\n`);
  if (r.relayP50 !== undefined) {
    process.stdout.write(`${''.padEnd(28)} ${`(×${r.ratioP50} direct)`.padEnd(21)} ${`relayed ${r.relayP50}`.padEnd(19)} ×${r.relayRatioP50} of the relayed hops\n`);
  }
}
