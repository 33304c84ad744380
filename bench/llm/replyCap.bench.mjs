// Peak memory of `ask` when the model floods: a loopback "model" answers one chat completion whose text is N MB
// (64 and 200), and `fuseforks-cli ask` runs against it twice — with the default reply cap (8 MiB) and with the cap
// lifted to 1 GiB (how every build behaved before the cap) — beside a same-run baseline of a 1 KB reply. Peak RSS is
// the child's VmHWM (its worker threads included), read from /proc until it exits. Run after `npm run build`:
//   node bench/llm/replyCap.bench.mjs [sizesMb=64,200]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SIZES = (process.argv[2] ?? '64,200').split(',').map(Number);
const MB = 1024 * 1024;

const server = createServer((req, res) => {
  req.resume();
  const size = Number((req.url ?? '').split('/')[1] ?? '0');
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"');
  const chunk = 'x'.repeat(Math.min(MB, Math.max(1, size)));
  let left = size;
  const more = () => {
    while (left > 0) {
      const piece = left >= chunk.length ? chunk : chunk.slice(0, left);
      left -= piece.length;
      if (!res.write(piece)) return void res.once('drain', more);
    }
    res.end('"}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}');
  };
  res.on('error', () => undefined);
  more();
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;

function village(bytes, cap) {
  const dir = mkdtempSync(join(tmpdir(), 'ff-bench-cap-'));
  mkdirSync(join(dir, 'workspace'), { recursive: true });
  const template = { id: 't', name: 'T', provider: 'open_ai_compat', model: 'm', credential: 'not_required', baseUrl: `http://127.0.0.1:${port}/${bytes}/v1`, maxRetries: 1, requestTimeoutSecs: 300 };
  if (cap !== null) template.maxResponseBytes = cap;
  writeFileSync(join(dir, 'workspace/world.json'), JSON.stringify({ agents: [{ id: 'desk', name: 'Desk', modelTemplateId: 't', batchStart: true }], modelTemplates: [template], reception: 'desk', language: 'en' }));
  return dir;
}

/** Runs ask; resolves with its exit code, peak RSS (MB), stdout bytes and wall time. */
function ask(dir) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(ROOT, 'bin/run.js'), 'ask', '--data-dir', dir, '--start', 'batch', 'flood me'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let peak = 0;
    let out = 0;
    child.stdout.on('data', (d) => (out += d.length));
    child.stderr.resume();
    const poll = setInterval(() => {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        peak = Math.max(peak, kb / 1024);
      } catch {
        // exited
      }
    }, 20);
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({ code, peakMb: Math.round(peak), stdoutMb: Number((out / MB).toFixed(1)), seconds: Number(((performance.now() - started) / 1000).toFixed(1)) });
    });
  });
}

const dirs = [];
try {
  const base = await ask((dirs[dirs.length] = village(1024, null)));
  console.log(`baseline 1 KB reply: peak ${base.peakMb} MB (exit ${base.code}, ${base.seconds} s)`);
  console.log(JSON.stringify({ metric: 'ask peak RSS, 1 KB reply', peakMb: base.peakMb }));
  for (const size of SIZES) {
    const capped = await ask((dirs[dirs.length] = village(size * MB, null)));
    const uncapped = await ask((dirs[dirs.length] = village(size * MB, 1024 * MB)));
    console.log(
      `${size} MB reply: capped peak ${capped.peakMb} MB (${(capped.peakMb / base.peakMb).toFixed(2)}× baseline, exit ${capped.code}, stdout ${capped.stdoutMb} MB, ${capped.seconds} s) · ` +
        `cap lifted ${uncapped.peakMb} MB (${(uncapped.peakMb / base.peakMb).toFixed(2)}×, exit ${uncapped.code}, stdout ${uncapped.stdoutMb} MB, ${uncapped.seconds} s)`,
    );
    console.log(JSON.stringify({ metric: `ask peak RSS, ${size} MB reply`, cappedPeakMb: capped.peakMb, uncappedPeakMb: uncapped.peakMb, baselinePeakMb: base.peakMb, cappedExit: capped.code, uncappedExit: uncapped.code, uncappedStdoutMb: uncapped.stdoutMb }));
  }
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  server.close();
  server.closeAllConnections();
}
