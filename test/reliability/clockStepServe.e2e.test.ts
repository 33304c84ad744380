/**
 * A real clock step under the BUILT `serve` (reliability suite, issue 28): serve runs under libfaketime
 * (LD_PRELOAD, the offset read from a file on every call, the monotonic clock left real), with an every-minute
 * schedule to a servant backed by the loopback stub LLM. Once it has fired, the test steps the process's wall clock
 * 2 hours back, and later 2 hours forward again (to the real time). Held when it fires again after the step back
 * (before the fix it stayed silent until the wall clock caught up: two hours), fires after the step forward, serve
 * logs both steps and stays up. Serve's ticker runs every 30 s, so this case takes about two and a half minutes.
 * Skipped with the reason when libfaketime is not installed (`.ci/run` installs the Debian package faketime).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { pollUntil } from '../support/pollUntil.js';
import { cleanEnv, makeVillage, REPO_BIN, ROOT, useCliSuite } from '../cli/support/cliProcess.js';
import { Tally } from './support/tally.js';

const LIBFAKETIME = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/faketime/libfaketime.so.1'].find((p) => existsSync(p));
const { temps, stub } = useCliSuite();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-test-0000000000' };
const MESSAGE = 'clock-step-tick';
let serve: ChildProcess | null = null;

afterAll(async () => {
  if (serve === null || serve.exitCode !== null) return;
  const ended = new Promise((resolve) => serve?.once('close', resolve));
  serve.kill('SIGTERM');
  await ended;
});

describe.skipIf(LIBFAKETIME === undefined)('reliability: a real clock step under serve (libfaketime)', () => {
  it('an every-minute schedule fires again after a 2 h step back and after a 2 h step forward; serve stays up', { timeout: 420_000 }, async () => {
    const tally = new Tally('clock-step-serve');
    stub().respond(() => reply.text('ok'));
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }] });
    // Created 55 s ago: the first due is a few seconds after serve starts, so the first tick (30 s) fires it.
    const row = { id: '33333333-3333-4333-8333-333333333333', to: 'desk', message: MESSAGE, recurrence: { kind: 'interval', everyMinutes: 1 }, createdAtMs: Date.now() - 55_000, lastConsumedDueMs: null, enabled: true };
    writeFileSync(join(dir, 'workspace/schedules.json'), JSON.stringify([row]));
    const offset = join(temps.make(), 'faketime.rc');
    writeFileSync(offset, '+0\n');
    let stderr = '';
    serve = spawn(process.execPath, [REPO_BIN, 'serve', '--data-dir', dir, '--start', 'batch', '--secrets', 'env'], {
      cwd: ROOT,
      env: cleanEnv({ ...KEY, LD_PRELOAD: LIBFAKETIME as string, FAKETIME_TIMESTAMP_FILE: offset, FAKETIME_NO_CACHE: '1', FAKETIME_DONT_FAKE_MONOTONIC: '1' }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    serve.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const fired = (): number => stub().requests.filter((r) => r.lastUserText.includes(MESSAGE)).length;
    const up = (): string | null => (serve?.exitCode === null && serve.signalCode === null ? null : `serve ended ${serve?.exitCode} ${serve?.signalCode}: ${stderr.slice(-400)}`);

    tally.check('serve starts', (await pollUntil(() => stderr.includes('[SERVING]') || serve?.exitCode !== null, { limitMs: 60_000 })) && stderr.includes('[SERVING]') ? null : `no [SERVING]: ${stderr.slice(-400)}`);
    tally.check('the schedule fires on the real clock', (await pollUntil(() => fired() >= 1, { limitMs: 100_000 })) ? null : 'no firing in 100 s');

    writeFileSync(offset, '-2h\n');
    tally.check('it fires again after a 2 h step back', (await pollUntil(() => fired() >= 2, { limitMs: 130_000 })) ? null : `fired ${fired()}× in all; nothing in 130 s after the step`);
    tally.check('serve is up after the step back', up());

    const before = fired();
    writeFileSync(offset, '+0\n');
    tally.check('it fires after a 2 h step forward', (await pollUntil(() => fired() > before, { limitMs: 100_000 })) ? null : 'no firing in 100 s after the step');
    tally.check('serve is up after the step forward', up());

    const log = readFileSync(join(dir, 'workspace/fuseforks.log'), 'utf8');
    const steps = [...log.matchAll(/"stepped_ms":(-?\d+)/g)].map((m) => Number(m[1]));
    tally.check('serve logged the step back', steps.some((s) => s < -7_000_000) ? null : `stepped_ms in the log: ${JSON.stringify(steps)}`);
    tally.check('serve logged the step forward', steps.some((s) => s > 7_000_000) ? null : `stepped_ms in the log: ${JSON.stringify(steps)}`);
    tally.finish(8);
  });
});
