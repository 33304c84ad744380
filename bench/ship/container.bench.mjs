// The container image, measured with podman against baselines built and run in the same session:
//   build time       the fuseforks image from scratch (--no-cache) vs a bare Debian nodejs + tini image
//   image size       the same two images
//   cold start       `podman run … ask --start batch` on the example village (demo model, 5 agents) until the answer,
//                    vs `podman run … node -e 0` (the container's own start) and the same ask on the host
//   idle serve RSS   serve with the example village (5 agents) after it is ready, vs an idle node in the image
// Prints one JSON line per measurement + a table. Skips (one JSON line saying why) where podman cannot run.
// Usage (after npm run build): node bench/ship/container.bench.mjs
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_IMAGE, buildImage, IMAGE, LIMITS, packContext, podman, podmanProblem, removeImages, run } from '../../scripts/podmanImage.mjs';

const root = new URL('../../', import.meta.url).pathname;
const problem = podmanProblem();
if (problem !== null) {
  console.log(JSON.stringify({ case: 'container', skipped: problem }));
  process.exit(0);
}
const BARE = 'localhost/fuseforks-bench-bare:latest';
const scratch = mkdtempSync(join(tmpdir(), 'ff-bench-container-'));
const names = [];
const results = [];
const out = (row) => {
  results.push(row);
  console.log(JSON.stringify(row));
};

async function rssKb(name, pid) {
  const r = await podman(['exec', name, 'cat', `/proc/${pid}/status`]);
  const m = /VmRSS:\s+(\d+) kB/.exec(r.stdout);
  if (m === null) throw new Error(`no VmRSS for ${pid}: ${r.stderr}`);
  return Number(m[1]);
}

async function until(test, what, ms = 90_000) {
  for (let waited = 0; waited < ms; waited += 500) {
    if (await test()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
}

try {
  const context = await packContext(scratch);
  const bareContext = join(scratch, 'bare');
  mkdirSync(bareContext);
  writeFileSync(join(bareContext, 'Dockerfile'), `FROM ${BASE_IMAGE}\nRUN apt-get update && apt-get install -y --no-install-recommends nodejs tini ca-certificates && rm -rf /var/lib/apt/lists/*\n`);
  const bareMs = await buildImage(BARE, join(bareContext, 'Dockerfile'), bareContext, ['--no-cache']);
  const imageMs = await buildImage(IMAGE, join(context, 'deploy/Dockerfile'), context, ['--no-cache']);
  out({ case: 'image build (--no-cache)', ms: imageMs, baseline_ms: bareMs, baseline: 'Debian nodejs + tini only', x_baseline: +(imageMs / bareMs).toFixed(2) });
  const size = async (tag) => Number((await podman(['image', 'inspect', '--format', '{{.Size}}', tag])).stdout.trim());
  const [imageBytes, bareBytes] = [await size(IMAGE), await size(BARE)];
  out({ case: 'image size', mb: +(imageBytes / 1e6).toFixed(1), baseline_mb: +(bareBytes / 1e6).toFixed(1), x_baseline: +(imageBytes / bareBytes).toFixed(2) });

  const data = join(scratch, 'data');
  cpSync(join(root, 'examples/village'), data, { recursive: true });
  const chownAll = (dir) => run('chown', ['-R', '1000:1000', dir]);
  await chownAll(data);
  const common = ['run', '--rm', '--network', 'host', ...LIMITS, '-v', `${data}:/data`];
  const nodeStart = await podman([...common, '--entrypoint', 'node', IMAGE, '-e', '0']);
  const ask = await podman([...common, '--entrypoint', 'fuseforks-cli', IMAGE, 'ask', '--data-dir', '/data', '--start', 'batch', 'hello']);
  if (ask.code !== 0) throw new Error(`ask in the container failed: ${ask.stderr}`);
  const hostData = join(scratch, 'host');
  cpSync(join(root, 'examples/village'), hostData, { recursive: true });
  const hostAsk = await run(process.execPath, [join(root, 'bin/run.js'), 'ask', '--data-dir', hostData, '--start', 'batch', 'hello']);
  out({ case: 'cold start to first answered ask (example village, 5 agents, echo)', ms: ask.ms, container_start_ms: nodeStart.ms, host_ask_ms: hostAsk.ms, x_host: +(ask.ms / hostAsk.ms).toFixed(2) });

  names.push('ff-bench-serve', 'ff-bench-idle');
  await podman(['run', '-d', '--name', 'ff-bench-serve', '--network', 'host', ...LIMITS, '-v', `${data}:/data`, IMAGE]);
  await until(async () => (await podman(['exec', 'ff-bench-serve', 'fuseforks-cli', 'status', '--data-dir', '/data', '--ready'])).code === 0, 'serve ready');
  await new Promise((r) => setTimeout(r, 5_000));
  const pid = JSON.parse(readFileSync(join(data, 'serve.status.json'), 'utf8')).pid;
  await podman(['run', '-d', '--name', 'ff-bench-idle', ...LIMITS, '--entrypoint', 'node', IMAGE, '-e', 'setInterval(() => {}, 1000)']);
  await new Promise((r) => setTimeout(r, 2_000));
  const serveKb = await rssKb('ff-bench-serve', pid);
  const idleKb = await rssKb('ff-bench-idle', 1);
  out({ case: 'idle serve RSS (example village, 5 agents)', mb: +(serveKb / 1024).toFixed(1), baseline_mb: +(idleKb / 1024).toFixed(1), baseline: 'idle node in the same image', per_agent_over_baseline_mb: +((serveKb - idleKb) / 1024 / 5).toFixed(1) });
} finally {
  for (const name of names) await podman(['rm', '-f', '-t', '0', name]);
  await podman(['rmi', '-f', BARE]);
  await removeImages();
  rmSync(scratch, { recursive: true, force: true });
}
console.log('\nmeasurement                                        value         baseline');
for (const r of results) {
  const value = r.ms !== undefined ? `${(r.ms / 1000).toFixed(1)} s` : `${r.mb} MB`;
  const base = r.baseline_ms !== undefined ? `${(r.baseline_ms / 1000).toFixed(1)} s` : r.baseline_mb !== undefined ? `${r.baseline_mb} MB` : `${(r.container_start_ms / 1000).toFixed(1)} s start, ${(r.host_ask_ms / 1000).toFixed(1)} s host`;
  console.log(`${r.case.slice(0, 50).padEnd(50)} ${value.padStart(8)}      ${base}`);
}
