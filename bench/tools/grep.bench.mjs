// Our grep tool vs `grep -rn` on the same generated tree, in the same run. Run after `npm run build`.
// Ours runs as agents run it: the walk and the matching as jobs on the shared scanning pool (piscina, one thread
// per core), split so one search uses every core; the agent→main comlink hop (~20 µs a job) is not included.
// Target: ≤ 1.0× grep -r on the 20k-file subtree.
// Tree: 50,000 small files (a/: 20,000 in 200 folders, b/: 30,000 in 300 folders), 1 in 100 has a match.
// Two rows: the 20,000-file subtree (same files for both), and the whole tree, where ours stops at its
// 20,000-file walk limit by design while grep reads all 50,000. Median of 3 warm runs each; cleans up.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grepTool } from '../../dist/core/tools/grep.js';
import { ScanPool } from '../../dist/actors/scanPool.js';

const pool = new ScanPool();

const RUNS = 3;
const base = mkdtempSync(join(tmpdir(), 'ff-grep-bench-'));
const filler = 'lorem ipsum dolor sit amet, consectetur adipiscing elit\n'.repeat(4);

function makeTree() {
  let n = 0;
  for (const [part, dirs] of [['a', 200], ['b', 300]]) {
    for (let d = 0; d < dirs; d += 1) {
      const dir = join(base, part, `d${String(d).padStart(3, '0')}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 100; f += 1) {
        n += 1;
        writeFileSync(join(dir, `f${f}.txt`), n % 100 === 0 ? `${filler}the NEEDLE is here\n${filler}` : filler);
      }
    }
  }
  return n;
}

const ctx = {
  agentId: 'bench',
  workDir: base,
  workspaceDir: base,
  language: 'en',
  runApproval: 'required',
  signal: new AbortController().signal,
  diag: { note() {} },
  round: 1,
  scan: (job, signal) => pool.run(job, signal),
};

async function ours(path) {
  const t0 = performance.now();
  const reply = await grepTool.call({ pattern: 'NEEDLE', path }, ctx);
  const ms = performance.now() - t0;
  const body = typeof reply === 'string' ? reply : reply.body;
  return { ms, matches: Number(/^(\d+) matches/.exec(body)?.[1] ?? -1) };
}

function baseline(path) {
  const t0 = performance.now();
  const run = spawnSync('grep', ['-rn', 'NEEDLE', path === '' ? '.' : path], { cwd: base, encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - t0;
  return { ms, matches: run.stdout.split('\n').filter(Boolean).length };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const files = makeTree();
  const rows = [];
  for (const [name, path] of [['grep_20k_subtree', 'a'], ['grep_50k_tree_capped', '']]) {
    await ours(path); // warm the page cache and the JIT
    baseline(path);
    const o = [];
    const b = [];
    let oursMatches = 0;
    let baseMatches = 0;
    for (let i = 0; i < RUNS; i += 1) {
      const r1 = await ours(path);
      const r2 = baseline(path);
      o.push(r1.ms);
      b.push(r2.ms);
      oursMatches = r1.matches;
      baseMatches = r2.matches;
    }
    const row = {
      name,
      files,
      ours_ms: Math.round(median(o)),
      baseline_ms: Math.round(median(b)),
      ratio: Number((median(o) / median(b)).toFixed(2)),
      target: name === 'grep_20k_subtree' ? 'ratio <= 1.0' : 'report',
      pool_threads: pool.stats().threadIds.length,
      ours_matches: oursMatches,
      baseline_matches: baseMatches,
    };
    rows.push(row);
    process.stdout.write(`${JSON.stringify(row)}\n`);
  }
  for (const r of rows) {
    process.stdout.write(`${r.name.padEnd(22)} ours ${String(r.ours_ms).padStart(6)} ms   grep -r ${String(r.baseline_ms).padStart(6)} ms   ratio ${r.ratio} (target ${r.target})   matches ${r.ours_matches}/${r.baseline_matches}\n`);
  }
} finally {
  await pool.close();
  rmSync(base, { recursive: true, force: true });
}
