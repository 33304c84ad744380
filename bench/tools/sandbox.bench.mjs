// The sandbox's cost per command, in the same run: `true` and `sh -c 'echo hi'` spawned bare against the same command
// spawned the way `run` spawns it (prlimit → bwrap with the default plan of src/core/sandbox/sandboxPlan.ts), 30
// alternating runs each, p50 of each and the difference. Run after `npm run build`. Target (issue 27): ≤ +40 ms p50.
// This measures the spawn itself, not a whole `run` tool call (the tool's own checks are the same either way).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { sandboxedSpawn } = await import(pathToFileURL(join(ROOT, 'dist/core/sandbox/sandboxedCommand.js')).href);
const RUNS = 30;
const work = mkdtempSync(join(tmpdir(), 'ff-sandbox-bench-'));
const policy = { network: false, memoryBytes: 2048 * 1024 * 1024, cpuSecs: 600, fileBytes: 1024 * 1024 * 1024, writable: true };
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
try {
  for (const [cmd, args] of [['true', []], ['sh', ['-c', 'echo hi']]]) {
    const boxed = sandboxedSpawn({ policy, workDir: work, dataDir: join(work, 'no-data-dir'), command: cmd, args });
    if (!boxed.ok) throw new Error(`no sandbox here: ${boxed.missing.detail}`);
    const bare = [];
    const inBox = [];
    for (let i = 0; i < RUNS; i += 1) {
      let t = process.hrtime.bigint();
      spawnSync(cmd, args, { cwd: work });
      bare.push(ms(t));
      t = process.hrtime.bigint();
      const r = spawnSync(boxed.file, boxed.args, { cwd: work, env: boxed.env });
      inBox.push(ms(t));
      if (r.status !== 0) throw new Error(`sandboxed ${cmd} failed: ${String(r.stderr)}`);
    }
    const line = [cmd, ...args].join(' ');
    console.log(`${line}: bare p50 ${p50(bare).toFixed(1)} ms, sandboxed p50 ${p50(inBox).toFixed(1)} ms, +${(p50(inBox) - p50(bare)).toFixed(1)} ms (target ≤ +40 ms)`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
