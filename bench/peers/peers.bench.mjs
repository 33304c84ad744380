// The same delegated request — a reception agent hands the question to a worker agent through a tool, three model
// calls — in this runtime, in OpenAI Agents JS (agent-as-tool) and in LangGraph JS (a tool-calling graph), plus
// plain fetch as the floor, all against one loopback OpenAI-compatible stub (stubLlm.mjs, its own process). Each
// contender runs in its own process, one after another (runContender.mjs): sequential p50/p99 and CPU per request,
// requests/s with 16 in flight (for this runtime 16 villages in one process: a village serves one external request at
// a time), RSS, and prompt characters per request. The peers are installed here only (`npm ci --prefix bench/peers`),
// never as dependencies of fuseforks. Prints one JSON line per contender, one per target, then a table.
// Usage (after npm run build): node bench/peers/peers.bench.mjs [sequential=150] [perLane=25]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const sequential = process.argv[2] ?? '150';
const perLane = process.argv[3] ?? '25';

if (!existsSync(`${here}node_modules/@openai/agents`) || !existsSync(`${here}node_modules/@langchain/langgraph`)) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const ci = spawnSync(npm, ['ci', '--prefix', here, '--no-audit', '--no-fund'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (ci.status !== 0) throw new Error(`npm ci --prefix bench/peers failed (exit ${ci.status})`);
}

const stub = spawn(process.execPath, [`${here}stubLlm.mjs`], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((resolve, reject) => {
  createInterface({ input: stub.stdout }).once('line', resolve);
  stub.once('exit', (code) => reject(new Error(`stub exited ${code}`)));
});

const rows = {};
try {
  for (const name of ['rawFetch', 'openaiAgents', 'langgraph', 'fuseforks']) {
    const run = spawnSync(process.execPath, ['--expose-gc', `${here}runContender.mjs`, name, String(port), sequential, perLane], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: here,
    });
    const line = run.stdout.split('\n').find((l) => l.startsWith('{'));
    if (run.status !== 0 || line === undefined) throw new Error(`${name} exited ${run.status}`);
    rows[name] = JSON.parse(line);
    process.stdout.write(`${line}\n`);
  }
} finally {
  stub.kill('SIGTERM');
}

const raw = rows.rawFetch;
const over = (r) => ({ p50: +(r.p50_ms - raw.p50_ms).toFixed(2), cpu: +(r.cpu_ms_per_request - raw.cpu_ms_per_request).toFixed(2) });
const ours = rows.fuseforks;
const agents = rows.openaiAgents;
// Each ratio is this runtime over OpenAI Agents JS, in this run (null when the peer's own overhead is not above 0).
const ratio = (value, baseline) => (baseline > 0 ? +(value / baseline).toFixed(2) : null);
const target = (name, value, baseline, goal) => ({ name, value, baseline, baselineName: 'OpenAI Agents JS', ratio: ratio(value, baseline), target: goal });
const targets = [
  target('peers_overhead_p50_ms', over(ours).p50, over(agents).p50, 'ratio <= 1'),
  target('peers_overhead_cpu_ms_per_request', over(ours).cpu, over(agents).cpu, 'ratio <= 1'),
  target('peers_cpu_ms_per_request_in_flight', ours.cpu_ms_per_request_in_flight, agents.cpu_ms_per_request_in_flight, 'ratio <= 1'),
  target('peers_requests_per_s_16_in_flight', ours.requests_per_s, agents.requests_per_s, 'ratio >= 1 (aim 2)'),
  { name: 'peers_rss_per_idle_village_mb', value: ours.rss_per_idle_lane_mb, baseline: null, ratio: null, target: 'report' },
];
for (const t of targets) process.stdout.write(`${JSON.stringify(t)}\n`);

const pad = (v, n) => String(v).padStart(n);
process.stdout.write('\ncontender       p50 ms  (+raw)  p99 ms  cpu ms/req  (+raw)  req/s@16  cpu@16  prompt chars fresh/steady  rss 16 idle MB\n');
for (const [name, r] of Object.entries(rows)) {
  const o = over(r);
  process.stdout.write(
    `${name.padEnd(14)} ${pad(r.p50_ms, 7)} ${pad(o.p50, 7)} ${pad(r.p99_ms, 7)} ${pad(r.cpu_ms_per_request, 11)} ${pad(o.cpu, 7)} ${pad(r.requests_per_s, 9)} ${pad(r.cpu_ms_per_request_in_flight, 7)} ${pad(`${r.prompt_chars_fresh}/${r.prompt_chars_per_request}`, 26)} ${pad(r.rss_16_idle_mb, 15)}\n`,
  );
}
process.stdout.write('\ntarget                                 fuseforks   OpenAI Agents JS    ratio   target\n');
for (const t of targets) process.stdout.write(`${t.name.padEnd(38)} ${pad(t.value, 9)} ${pad(t.baseline ?? '-', 18)} ${pad(t.ratio === null ? '-' : `×${t.ratio}`, 8)}   ${t.target}\n`);
