// Runs every bench/**/*.bench.mjs in its own process (after `npm run build`), one at a time so they don't
// compete for the 2 cores, and writes all their JSON results to bench/results/latest.json.
// Usage: npm run bench [-- name-filter]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('.', import.meta.url).pathname;
const filter = process.argv[2] ?? '';

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'results' || e.name === 'node_modules' ? [] : find(p);
    return e.name.endsWith('.bench.mjs') ? [p] : [];
  });
}

const results = [];
const seconds = {};
const started = Date.now();
for (const file of find(root).sort()) {
  const name = relative(root, file);
  if (filter && !name.includes(filter)) continue;
  process.stderr.write(`\n== ${name}\n`);
  const t0 = Date.now();
  const run = spawnSync(process.execPath, ['--expose-gc', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(run.stdout);
  // Each bench prints one JSON object per line for machine reading; other lines are its human table.
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      results.push({ bench: name, ...JSON.parse(line) });
    } catch {
      // a table line that happens to start with "{" is not a result
    }
  }
  if (run.status !== 0) results.push({ bench: name, error: `exit ${run.status}` });
  seconds[name] = Math.round((Date.now() - t0) / 1000);
}
results.push({ bench: 'run.mjs', seconds, total_seconds: Math.round((Date.now() - started) / 1000) });
mkdirSync(join(root, 'results'), { recursive: true });
writeFileSync(join(root, 'results', 'latest.json'), JSON.stringify(results, null, 2) + '\n');

// Every result that has a target, in one place: what it measured, against what, and the target it answers to.
const shown = (r) => {
  const keys = ['ratio', 'ratioP50', 'x_bare_oclif', 'speedup', 'overMs', 'value', 'p99', 'p50', 'p50_ms'];
  const k = keys.find((key) => typeof r[key] === 'number');
  if (k === undefined) return '-';
  return typeof r.baseline === 'number' && k !== 'ratio' ? `${k}=${r[k]} vs ${r.baseline}` : `${k}=${r[k]}`;
};
process.stdout.write('\nbench file                          result                                  measured                   target\n');
for (const r of results) {
  if ((r.target === undefined && r.error === undefined) || r.bench === 'run.mjs') continue;
  const label = r.name ?? r.case ?? r.contender ?? '';
  process.stdout.write(`${r.bench.padEnd(35)} ${String(label).slice(0, 39).padEnd(39)} ${(r.error ?? shown(r)).padEnd(26)} ${r.target ?? ''}\n`);
}
process.stdout.write(`\nseconds per bench: ${JSON.stringify(seconds)}; total ${Math.round((Date.now() - started) / 1000)} s\n`);
process.stderr.write(`\n${results.length} results → bench/results/latest.json\n`);
