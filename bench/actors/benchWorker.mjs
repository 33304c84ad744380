// Agent worker for the actor benches: the real worker loop (dist/), the real turn engine with the echo
// backend for ordinary messages, plus a few scripted commands:
//   loop:<n>:<to>   ask <to> n times in a row; reply with the per-ask latencies (µs, JSON)
//   hang            wait until interrupted
//   burn:<n>        CPU-bound work (n rounds of a hash-like mix), then answer
import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { serveAgent } from '../../dist/actors/workerLoop.js';
import { BudgetPool } from '../../dist/core/budget/budgetPool.js';
import { EchoBackend } from '../../dist/core/llm/echo.js';
import { runTurn } from '../../dist/core/turn/turnEngine.js';

const spend = { prompt: 0, cached: 0, cacheWrite: 0, completion: 0, reasoning: 0, effectiveMilli: 0 };
const done = (input, text, state = 'answered', stop = { kind: 'completed' }) => ({
  outcome: { kind: 'finish', text }, replyState: state, replyText: text, stop,
  exchange: { sent: 'bench', replied: 'bench' }, rounds: 1, waves: 0, spend, lastCallMilli: 0, elapsedMs: 0,
});

function burn(n) {
  let x = 0x9e3779b9;
  for (let i = 0; i < n; i++) x = Math.imul(x ^ (x >>> 15), 0x85ebca6b) + i;
  return x;
}

async function run(input, deps) {
  const [cmd, arg, to] = input.envelope.content.split(':');
  if (cmd === 'loop') {
    const lat = [];
    for (let i = 0; i < Number(arg); i++) {
      const t0 = performance.now();
      await deps.ports.deliverAndWait({ to, message: 'ping', hop: input.envelope.hop + 1 }, deps.signal);
      lat.push(Math.round((performance.now() - t0) * 1000));
    }
    return done(input, JSON.stringify(lat));
  }
  if (cmd === 'hang') {
    await new Promise((r) => deps.signal.addEventListener('abort', r, { once: true }));
    return done(input, '', 'interrupted', { kind: 'interrupted' });
  }
  if (cmd === 'burn') return done(input, String(burn(Number(arg))));
  return runTurn(input, deps);
}

serveAgent(parentPort, {
  runTurn: run,
  makeBackend: () => ({ backend: new EchoBackend() }),
  makeTools: () => ({ specs: () => [], has: () => false, execute: async () => ({ body: '', ok: false, reason: { kind: 'excluded' } }) }),
  budgetFromShared: (shared) => BudgetPool.fromShared(shared),
  now: () => Date.now(),
});
