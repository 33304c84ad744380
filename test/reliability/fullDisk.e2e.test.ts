/**
 * A full disk (reliability suite, issue 28): a village on a real 4 MiB tmpfs that the test fills to the last byte,
 * driven through the BUILT CLI. Seeded asks with large messages, first direct (`ask` owns the village) and then
 * through a running `serve`'s door. Held when every ask prints its answer and exits 0, each run names
 * SESSION_STORE_FULL with its fix, no process dies (no lmdb "Commit failed" stack, no signal), `serve` is still up
 * after every door ask, and once space is freed the next ask is saved again (`serve` notes `outcome=resumed`).
 * Needs root for `mount -t tmpfs` (CI runs as root); skipped with the reason otherwise.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { cliBudget, describeRun, freePort, makeVillage, runCli, startCli, useCliSuite, type CliChild } from '../cli/support/cliProcess.js';
import { pick, seeded, Tally } from './support/tally.js';

const { temps, stub } = useCliSuite();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-test-0000000000' };
const ROOT_USER = process.getuid?.() === 0;
let mountPoint: string | null = null;
let serve: CliChild | null = null;

afterAll(async () => {
  if (serve !== null && serve.child.exitCode === null) {
    serve.child.kill('SIGTERM');
    await serve.done;
  }
  if (mountPoint !== null) {
    execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  }
});

/** The first stderr line of `child` matching `test`, or null once the child has ended without one (never a hang). */
function lineOrEnd(child: CliChild, test: (line: string) => boolean): Promise<string | null> {
  return Promise.race([child.stderrLine(test), child.done.then(() => null)]);
}

/** Writes zeros into `file` until the file system says ENOSPC. */
function fillDisk(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) {
      try {
        writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        // The last partial chunk: write byte by byte up to the end.
        for (;;) {
          try {
            writeSync(fd, Buffer.alloc(1));
          } catch {
            return;
          }
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(!ROOT_USER)('reliability: a full disk (root: mounts a tmpfs)', () => {
  it('asks direct and through serve\'s door are answered on a full disk; nothing dies; saving resumes', { timeout: cliBudget(10) }, async () => {
    const tally = new Tally('full-disk');
    const next = seeded(280);
    stub().respond((r) => reply.text(`answer to ${r.lastUserText.length} chars`));
    mountPoint = mkdtempSync(join(tmpdir(), 'ff-rel-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint]);
    // The village is written by the usual helper, then moved onto the small file system.
    const made = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }] });
    const dir = join(mountPoint, 'village');
    mkdirSync(join(dir, 'workspace'), { recursive: true });
    execFileSync('cp', [join(made, 'workspace/world.json'), join(dir, 'workspace/world.json')]);
    const fill = join(mountPoint, 'fill');
    const message = (): string => 'x'.repeat(20_000 + pick(next, 40_000));
    const answered = (run: { code: number | null; stdout: string; stderr: string }): string | null =>
      run.code !== 0 ? describeRun(run as never) : !/^answer to \d+ chars\n$/.test(run.stdout) ? `stdout ${JSON.stringify(run.stdout.slice(0, 80))}` : run.stderr.includes('Commit failed') ? 'lmdb stack on stderr' : null;

    const first = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', 'hello'], KEY);
    tally.check('a first ask on free space', answered(first));
    fillDisk(fill);

    for (let i = 0; i < 4; i += 1) {
      const run = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', '--continue-session', message()], KEY);
      tally.check(`direct ask ${i} on a full disk is answered`, answered(run));
      tally.check(`direct ask ${i} names SESSION_STORE_FULL and the fix`, /code=SESSION_STORE_FULL fix=.*Free space/.test(run.stderr) ? null : describeRun(run));
    }

    // serve with its door on; asks while it holds the village go through the door.
    unlinkSync(fill);
    const enabled = await runCli(['door', 'enable', '-d', dir, '--port', String(await freePort())]);
    tally.check('door enabled', enabled.code === 0 ? null : describeRun(enabled));
    serve = startCli(['serve', '--data-dir', dir, '--start', 'batch', '--secrets', 'env'], KEY);
    const serving = await lineOrEnd(serve, (l) => l.includes('[SERVING]'));
    tally.check('serve started', serving === null ? 'serve ended before SERVING' : null);
    fillDisk(fill);
    const full = lineOrEnd(serve, (l) => l.includes('code=SESSION_STORE_FULL'));
    for (let i = 0; i < 4; i += 1) {
      const run = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', message()], KEY);
      tally.check(`door ask ${i} on a full disk is answered`, answered(run) ?? (run.stderr.includes('[VIA_DOOR]') ? null : 'not through the door'));
      tally.check(`serve is up after door ask ${i}`, serve.child.exitCode === null && serve.child.signalCode === null ? null : `serve ended ${serve.child.exitCode} ${serve.child.signalCode}`);
    }
    tally.check('serve named SESSION_STORE_FULL', (await full) === null ? 'serve ended without it' : null);

    // Space is back: the next ask is saved, and serve says saving resumed.
    const resumed = lineOrEnd(serve, (l) => l.includes('session store: outcome=resumed'));
    unlinkSync(fill);
    const after = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', 'after'], KEY);
    tally.check('an ask after space is back', answered(after));
    tally.check('serve noted outcome=resumed', serve.child.exitCode === null && (await resumed) !== null ? null : 'serve ended without it');
    serve.child.kill('SIGTERM');
    const ended = await serve.done;
    tally.check('serve closes with 0', ended.code === 0 && !ended.stderr.includes('Commit failed') ? null : describeRun(ended));
    const log = readFileSync(join(dir, 'workspace/fuseforks.log'), 'utf8');
    tally.check('the log is written again once space is back', log.includes('"outcome":"resumed"') ? null : 'no resumed line in the log');
    tally.finish(20);
  });
});
