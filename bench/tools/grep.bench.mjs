// Our grep tool vs `grep -rn` on the same generated tree, in the same run, through what ships: one `ask` of the built
// CLI (bin/run.js → the CLI bundle, the agent worker and engine bundles, the scanning pool's bundle) whose loopback
// model calls `grep` again and again. Ours = from the moment the model's answer with the tool call has been sent to
// the moment the next request, carrying grep's result, arrives: what an agent waits for a search (the worker reads the
// call, asks the main thread over comlink, the pool's threads walk and match, the result goes into the next request).
// The same gap for a tool the agent does not have (refused at once) is reported as the engine's own share.
// Run after `npm run build`. Target: ≤ 1.0× grep -r on the 20k-file subtree.
// Tree: 50,000 small files (a/: 20,000 in 200 folders, b/: 30,000 in 300 folders), 1 in 100 has a match.
// Two rows: the 20,000-file subtree (same files for both), and the whole tree, where ours stops at its
// 20,000-file walk limit by design while grep reads all 50,000. Median of 3 warm runs each; cleans up.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = 3;
const base = mkdtempSync(join(tmpdir(), 'ff-grep-bench-'));
const tree = join(base, 'tree');
const filler = 'lorem ipsum dolor sit amet, consectetur adipiscing elit\n'.repeat(4);

function makeTree() {
  let n = 0;
  for (const [part, dirs] of [['a', 200], ['b', 300]]) {
    for (let d = 0; d < dirs; d += 1) {
      const dir = join(tree, part, `d${String(d).padStart(3, '0')}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 100; f += 1) {
        n += 1;
        writeFileSync(join(dir, `f${f}.txt`), n % 100 === 0 ? `${filler}the NEEDLE is here\n${filler}` : filler);
      }
    }
  }
  return n;
}

// Equivalent patterns, so no two calls are identical (the repeat guard stops a third identical call).
const PATTERNS = ['NEEDLE', 'NEEDL(E)', 'NEE(D)LE', 'N(EEDLE)', '(NEEDLE)', 'NEED(LE)', 'NE(EDLE)', 'N(E)EDLE'];
/** The script: per row a warm call and RUNS timed ones, each grep followed by a refused call (the engine's share). */
function script() {
  const calls = [];
  let p = 0;
  for (const [name, path] of [['grep_20k_subtree', 'a'], ['grep_50k_tree_capped', '']]) {
    for (let i = 0; i <= RUNS; i += 1) {
      calls.push({ row: name, timed: i > 0, kind: 'grep', name: 'grep', args: { pattern: PATTERNS[p++ % PATTERNS.length], ...(path === '' ? {} : { path }) } });
      calls.push({ row: name, timed: i > 0, kind: 'none', name: `no_such_tool_${calls.length}`, args: {} });
    }
  }
  return calls;
}

/** A loopback OpenAI-compatible model that plays `calls` in order and times each call's round trip. */
async function startModel(calls) {
  const gaps = [];
  let sentAt = 0;
  let step = 0;
  const matches = [];
  const server = createServer((req, res) => {
    const arrived = performance.now();
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const body = JSON.parse(raw);
      const results = body.messages.filter((m) => m.role === 'tool');
      if (step > 0) {
        gaps.push({ ...calls[step - 1], ms: arrived - sentAt });
        if (calls[step - 1].kind === 'grep') matches.push(Number(/^(\d+) matches/.exec(results.at(-1)?.content ?? '')?.[1] ?? -1));
      }
      const call = calls[step++];
      const message = call === undefined
        ? { role: 'assistant', content: 'done' }
        : { role: 'assistant', content: null, tool_calls: [{ id: `call_${step}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }] };
      const text = JSON.stringify({ id: `c${step}`, object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message, finish_reason: call === undefined ? 'stop' : 'tool_calls' }], usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } });
      res.on('finish', () => (sentAt = performance.now()));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { port: server.address().port, gaps, matches, close: () => new Promise((r) => server.close(r)) };
}

function makeVillage(port) {
  const dir = join(base, 'village');
  mkdirSync(join(dir, 'workspace'), { recursive: true });
  const world = {
    agents: [{ id: 'desk', name: 'Desk', modelTemplateId: 'stub', connectedAgents: [], order: 0, batchStart: true, workDir: tree, enabledTools: ['grep'], maxToolIterations: 60 }],
    groups: [],
    modelTemplates: [{ id: 'stub', name: 'Stub', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'bench', credential: 'not_required', provider: 'open_ai_compat', stream: false, maxRetries: 1 }],
    roles: [],
    language: 'en',
    reception: 'desk',
    tokenBudget: 100_000_000,
  };
  writeFileSync(join(dir, 'workspace/world.json'), JSON.stringify(world));
  return dir;
}

function baseline(path) {
  const t0 = performance.now();
  const run = spawnSync('grep', ['-rn', 'NEEDLE', path === '' ? '.' : path], { cwd: tree, encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - t0;
  return { ms, matches: run.stdout.split('\n').filter(Boolean).length };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const calls = script();
const model = await startModel(calls);
try {
  const files = makeTree();
  const dir = makeVillage(model.port);
  const ask = spawn(process.execPath, [join(ROOT, 'bin/run.js'), 'ask', '--data-dir', dir, '--start', 'reception', '--secrets', 'env', '--quiet', 'Search the tree.'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let answer = '';
  ask.stdout.on('data', (d) => (answer += d));
  const code = await new Promise((r) => ask.once('close', r));
  if (code !== 0 || answer.trim() !== 'done') throw new Error(`the ask ended with exit ${code}: ${answer}`);
  if (model.matches.some((m) => m < 0)) throw new Error(`a grep answered without a match count: ${JSON.stringify(model.matches)}`);
  const rows = [];
  for (const [name, path] of [['grep_20k_subtree', 'a'], ['grep_50k_tree_capped', '']]) {
    baseline(path); // warm the page cache
    const b = [];
    let baseMatches = 0;
    for (let i = 0; i < RUNS; i += 1) {
      const r = baseline(path);
      b.push(r.ms);
      baseMatches = r.matches;
    }
    const timed = (kind) => model.gaps.filter((g) => g.row === name && g.timed && g.kind === kind).map((g) => g.ms);
    const ours = median(timed('grep'));
    const row = {
      name,
      files,
      ours_ms: Math.round(ours),
      engine_share_ms: Number(median(timed('none')).toFixed(1)),
      baseline_ms: Math.round(median(b)),
      ratio: Number((ours / median(b)).toFixed(2)),
      target: name === 'grep_20k_subtree' ? 'ratio <= 1.0' : 'report',
      path: 'shipped: bin/run.js ask, the worker bundles, the scanning pool bundle',
      ours_matches: model.matches[calls.filter((c) => c.kind === 'grep').findIndex((c) => c.row === name)],
      baseline_matches: baseMatches,
    };
    rows.push(row);
    process.stdout.write(`${JSON.stringify(row)}\n`);
  }
  for (const r of rows) {
    process.stdout.write(`${r.name.padEnd(22)} ours ${String(r.ours_ms).padStart(6)} ms (engine ${r.engine_share_ms} ms)   grep -r ${String(r.baseline_ms).padStart(6)} ms   ratio ${r.ratio} (target ${r.target})   matches ${r.ours_matches}/${r.baseline_matches}\n`);
  }
} finally {
  await model.close();
  rmSync(base, { recursive: true, force: true });
}
