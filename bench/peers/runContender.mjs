// One contender in its own process (bench/peers/peers.bench.mjs starts it): opens 16 lanes against the stub, then
// measures a fresh conversation's prompt size, sequential latency and CPU, and 16 requests in flight. One JSON line.
// Usage: node --expose-gc runContender.mjs <fuseforks|openaiAgents|langgraph|rawFetch> <stubPort> [sequential] [perLane]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const [name, port, seqArg, perLaneArg] = process.argv.slice(2);
const SEQUENTIAL = Number(seqArg ?? 150);
const PER_LANE = Number(perLaneArg ?? 25);
const LANES = 16;
const stubUrl = `http://127.0.0.1:${port}`;
const baseUrl = `${stubUrl}/v1`;
const mb = (bytes) => +(bytes / 2 ** 20).toFixed(1);
const gcRss = () => {
  globalThis.gc?.();
  return process.memoryUsage().rss;
};
const stub = async (path, method = 'GET') => (await fetch(`${stubUrl}${path}`, { method })).json();
const cpuMs = (from) => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
};
/** The main thread's own CPU time (ms) on Linux (/proc: utime + stime of the thread whose id is the pid); else null. */
const mainThreadCpuMs = () => {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks (USER_HZ = 100 on Linux)
  } catch {
    return null;
  }
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const rssBare = gcRss();
const { open } = await import(`./contenders/${name}.mjs`);
const t0 = performance.now();
const contender = await open(baseUrl, LANES);
const openMs = performance.now() - t0;
const rssIdle = gcRss();
const question = 'What is the answer to the question?';

// A fresh conversation (a lane never asked before): what one request sends the model.
await stub('/reset', 'POST');
await contender.lanes[LANES - 1](question);
const fresh = await stub('/stats');

// Warm-up: every lane (a village's workers load their engine and HTTP client at their first turn), then lane 0.
await Promise.all(contender.lanes.map(async (ask) => {
  for (let i = 0; i < 2; i += 1) await ask(question);
}));
for (let i = 0; i < 20; i += 1) await contender.lanes[0](question);

await stub('/reset', 'POST');
const lat = [];
let cpu0 = process.cpuUsage();
for (let i = 0; i < SEQUENTIAL; i += 1) {
  const s = performance.now();
  await contender.lanes[0](question);
  lat.push(performance.now() - s);
}
const seqCpu = cpuMs(cpu0) / SEQUENTIAL;
const steady = await stub('/stats');

cpu0 = process.cpuUsage();
const main0 = mainThreadCpuMs();
const c0 = performance.now();
await Promise.all(contender.lanes.map(async (ask) => {
  for (let i = 0; i < PER_LANE; i += 1) await ask(question);
}));
const wall = performance.now() - c0;
const concCpu = cpuMs(cpu0) / (LANES * PER_LANE);
const main1 = mainThreadCpuMs();
// How much of that the main thread did (for this runtime the rest is its agents' worker threads).
const mainShare = main0 === null || main1 === null ? null : +((main1 - main0) / (LANES * PER_LANE) / concCpu).toFixed(2);
const rssBusy = process.memoryUsage().rss;
await contender.close();

process.stdout.write(`${JSON.stringify({
  contender: name,
  sequential: SEQUENTIAL,
  p50_ms: +pct(lat, 50).toFixed(2),
  p99_ms: +pct(lat, 99).toFixed(2),
  cpu_ms_per_request: +seqCpu.toFixed(2),
  in_flight: LANES,
  requests_per_s: +((LANES * PER_LANE) / (wall / 1000)).toFixed(1),
  cpu_ms_per_request_in_flight: +concCpu.toFixed(2),
  main_thread_cpu_share_in_flight: mainShare,
  model_calls_per_request: +(steady.calls / SEQUENTIAL).toFixed(2),
  prompt_chars_fresh: fresh.promptChars,
  tool_chars_fresh: fresh.toolChars,
  prompt_chars_per_request: Math.round(steady.promptChars / SEQUENTIAL),
  open_16_ms: Math.round(openMs),
  rss_bare_mb: mb(rssBare),
  rss_16_idle_mb: mb(rssIdle),
  rss_per_idle_lane_mb: mb((rssIdle - rssBare) / LANES),
  rss_busy_mb: mb(rssBusy),
})}\n`);
process.exit(0);
