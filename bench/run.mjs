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
for (const file of find(root).sort()) {
  const name = relative(root, file);
  if (filter && !name.includes(filter)) continue;
  process.stderr.write(`\n== ${name}\n`);
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
}
mkdirSync(join(root, 'results'), { recursive: true });
writeFileSync(join(root, 'results', 'latest.json'), JSON.stringify(results, null, 2) + '\n');
process.stderr.write(`\n${results.length} results → bench/results/latest.json\n`);
