// The eval runtime's overhead per repeat: `fuseforks-cli eval --repeat N` on the example village (offline demo model,
// 5 agents, --start batch; each repeat restarts every agent in a fresh conversation, sends the request, reads the
// conversation back and judges it) against the same request sent N times as plain `ask --start batch` processes
// (each boots the village and its 5 workers once). Interleaved rounds in the same run, so load hits both alike;
// printed as ms per request and the ratio eval/ask. Target from issue 32: eval ≤ ask × 1.10.
// Usage (after npm run build): node bench/evals/evalOverhead.bench.mjs [rounds] [repeats]
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const rounds = Number(process.argv[2] ?? 3);
const repeats = Number(process.argv[3] ?? 5);
const bin = join(root, 'bin/run.js');
const data = mkdtempSync(join(tmpdir(), 'ff-bench-eval-'));
cpSync(join(root, 'examples/village'), data, { recursive: true });
const request = 'Find the facts about tide pools.';

function timed(args) {
  const t0 = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${args[0]} exited ${run.status}: ${run.stderr.slice(-500)}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const evalPer = [];
const askPer = [];
try {
  for (let r = 0; r < rounds; r++) {
    evalPer.push(timed(['eval', '-d', data, '--start', 'batch', '--secrets', 'env', '--quiet', '--case', 'research-basics', '--repeat', String(repeats)]) / repeats);
    let ask = 0;
    for (let i = 0; i < repeats; i++) ask += timed(['ask', '-d', data, '--start', 'batch', '--secrets', 'env', '--quiet', request]);
    askPer.push(ask / repeats);
  }
} finally {
  rmSync(data, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const result = { bench: 'eval overhead per repeat', rounds, repeats, evalMsPerRepeat: Math.round(median(evalPer)), askMsPerRequest: Math.round(median(askPer)), ratio: Number((median(evalPer) / median(askPer)).toFixed(2)), target: 1.1 };
console.log(JSON.stringify(result));
console.log(`eval ${result.evalMsPerRepeat} ms/repeat · ask ${result.askMsPerRequest} ms/request · ×${result.ratio} (target ≤ ×1.10)`);
