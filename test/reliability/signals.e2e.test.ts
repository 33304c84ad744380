/**
 * Signals at random moments (reliability suite, issue 19): the handlers are the first thing `bin/run.js` installs, before the
 * CLI is loaded, so a Ctrl+C or SIGTERM while oclif loads, flags parse, preflight reads or the host boots ends in
 * the command's close path — `ask` 8, `serve` 0 — and never kills the process by the signal.
 *
 * Each try starts the built binary with an observing preload (`test/fixtures/cli/signalProbe.cjs`) that notes the
 * moment the first SIGINT listener is added and whether oclif was loaded by then; the test waits for that note
 * (Node's own SIGINT handling exists from the first instant, so /proc cannot tell), checks oclif was NOT loaded, then
 * sends SIGINT or SIGTERM after a seeded random delay of 0–600 ms (the stub LLM never answers, so every moment from
 * the handlers to the request is covered). A failing try prints the seed and the delay (FF_RELIABILITY_SEED replays).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { cliBudget, describeRun, makeVillage, ROOT, startCli, useCliSuite } from '../cli/support/cliProcess.js';
import { SEED, seeded, Tally } from './support/tally.js';

const { temps, stub } = useCliSuite();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-test-0000000000' };
const TRIES = 10;

const PROBE = join(ROOT, 'test/fixtures/cli/signalProbe.cjs');

/** The probe's note once the child added its first SIGINT listener (polled every 2 ms, bounded), or null. */
async function handlersInstalled(file: string, done: { exited: boolean }): Promise<string | null> {
  for (let i = 0; i < 15_000 && !done.exited; i += 1) {
    if (existsSync(file)) {
      const note = readFileSync(file, 'utf8');
      if (note.endsWith('\n')) return note.trim();
    }
    await sleep(2);
  }
  return null;
}

async function tryMoments(command: 'ask' | 'serve', expected: number): Promise<void> {
  stub().respond(() => reply.hang());
  const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
  const next = seeded(command === 'ask' ? 9 : 10);
  const tally = new Tally(`signals-${command}`);
  for (let i = 0; i < TRIES; i += 1) {
    const delayMs = Math.floor(next() * 600);
    const name: NodeJS.Signals = next() < 0.7 ? 'SIGINT' : 'SIGTERM';
    const args = command === 'ask' ? ['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', 'hi'] : ['serve', '--data-dir', dir, '--start', 'batch', '--secrets', 'env'];
    const probeFile = join(temps.make('ff-sigprobe-'), 'probe');
    const cli = startCli(args, { ...KEY, NODE_OPTIONS: `--require ${PROBE}`, FF_SIGNAL_PROBE_FILE: probeFile });
    const state = { exited: false };
    void cli.done.then(() => (state.exited = true));
    // The handlers exist before the CLI is loaded: a signal in the ~0.3 s of loading oclif is already ours.
    expect(await handlersInstalled(probeFile, state), `seed ${SEED} try ${i}: the state when the first SIGINT listener was added`).toBe('oclifLoaded=false');
    await sleep(delayMs);
    cli.child.kill(name);
    const run = await cli.done;
    const where = `try ${i}: ${name} ${delayMs} ms after the handlers`;
    tally.check(where, run.signal !== null ? `killed by ${run.signal}` : run.code !== expected ? `exit ${run.code}: ${describeRun(run).slice(0, 300)}` : null);
  }
  tally.finish(TRIES);
}

describe('reliability: signals at random moments (built binary)', () => {
  it('the handlers are installed before the CLI is loaded: bin/run.js installs them first, then imports the CLI bundle dynamically', () => {
    const bin = readFileSync(join(ROOT, 'bin/run.js'), 'utf8');
    const install = bin.indexOf('installProcessSignals(');
    const load = bin.indexOf("import('../dist/cli/bundle/cli.js')");
    expect(install).toBeGreaterThan(0);
    expect(load).toBeGreaterThan(install);
    expect(bin).not.toMatch(/^import .*main\.js/m);
    // The early module has no imports of its own: nothing to load before the handlers exist.
    expect(readFileSync(join(ROOT, 'dist/cli/signals.js'), 'utf8')).not.toMatch(/^import /m);
    // The bundle shares that module (the signals counted so far live there) instead of carrying a copy.
    const bundle = readFileSync(join(ROOT, 'dist/cli/bundle/cli.js'), 'utf8');
    expect(bundle).toMatch(/from\s*"\.\.\/signals\.js"/);
    expect(bundle).not.toMatch(/class SignalWatch/);
  });

  it(`ask: ${TRIES} signals at seeded random moments from the first instant → exit 8, never killed by the signal`, { timeout: cliBudget(TRIES) }, async () => {
    await tryMoments('ask', 8);
  });

  it(`serve: ${TRIES} signals at seeded random moments from the first instant → exit 0, never killed by the signal`, { timeout: cliBudget(TRIES) }, async () => {
    await tryMoments('serve', 0);
  });
});
