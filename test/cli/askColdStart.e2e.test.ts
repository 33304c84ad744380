/**
 * How a cold `ask` starts (issue 16), seen through its boot trace (`FUSEFORKS_BOOT_TRACE=1`, one stderr mark per
 * step and thread): the built binary on a copy of the example village (demo model, offline). A plain `ask` runs on
 * its fast path without loading oclif at all; it spawns the start set's workers right after reading its flags,
 * preflight tops them up, and the supervisor adopts exactly those — so
 * the process runs exactly one worker thread per started agent. A second copy of the prewarm module (the CLI bundle
 * split it apart from the supervisor's) or a top-up that spawns a second set would show as more workers.
 * No timing is asserted: the order of the marks only.
 */
import { describe, expect, it } from 'vitest';
import { cliBudget, describeRun, exampleVillage, makeVillage, runCli, useCliSuite } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();

interface Mark {
  thread: string;
  label: string;
}

function marks(stderr: string): Mark[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('boot-trace '))
    .map((line) => {
      const [, , , thread, ...label] = line.split(' ');
      return { thread: thread ?? '', label: label.join(' ') };
    });
}

const TRACE = { FUSEFORKS_BOOT_TRACE: '1' };

describe('ask cold start (built binary, example village)', () => {
  it('--start batch: five agents, five worker threads, spawned before preflight, each adopted and ready', { timeout: cliBudget(1) }, async () => {
    const dir = exampleVillage(temps);
    const run = await runCli(['ask', '--data-dir', dir, '--start', 'batch', 'hello'], TRACE);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toContain('Researcher:');
    const all = marks(run.stderr);
    const workers = new Set(all.filter((m) => m.thread !== 'main').map((m) => m.thread));
    expect(workers.size).toBe(5);
    const ready = all.filter((m) => m.label.startsWith('ready ')).map((m) => m.label.slice('ready '.length));
    expect(ready.sort()).toEqual(['archivist', 'front', 'researcher', 'reviewer', 'writer']);
    // The reception (front) loads its engine when it starts, the others at their first delivery.
    expect(all.filter((m) => m.label.startsWith('engine at start')).map((m) => m.label)).toEqual(['engine at start front']);
    // Every engine compiled from the code cache the build wrote beside it (front's, and the colleague it asked).
    const engines = all.filter((m) => m.label.startsWith('engine loaded')).map((m) => m.label);
    expect(engines.length).toBeGreaterThanOrEqual(2);
    expect(new Set(engines)).toEqual(new Set(['engine loaded code cache accepted']));
    const main = all.filter((m) => m.thread === 'main').map((m) => m.label);
    // The fast path: the oclif CLI never loads; the workers spawn right after the flags are read.
    expect(main).not.toContain('cli loaded');
    expect(main.slice(0, 3)).toEqual(['ask command', 'ask parsed', 'prewarm spawn']);
    expect(main.indexOf('prewarm spawn')).toBeLessThan(main.indexOf('early prewarm'));
    expect(main.indexOf('early prewarm')).toBeLessThan(main.indexOf('preflight done'));
    expect(main.slice(-3)).toEqual(['closed', 'printed', 'exit']);
  });

  it('arguments the fast path leaves to oclif run the same command through the oclif CLI', { timeout: cliBudget(1) }, async () => {
    const dir = exampleVillage(temps);
    // A leading zero: valid for oclif (10 s), not a form the fast path reads.
    const run = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--timeout', '010', 'hello'], TRACE);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toContain('Researcher:');
    const all = marks(run.stderr);
    const main = all.filter((m) => m.thread === 'main').map((m) => m.label);
    expect(main.slice(0, 2)).toEqual(['cli loaded', 'ask command']);
    expect(new Set(all.filter((m) => m.thread !== 'main').map((m) => m.thread)).size).toBe(5);
  });

  it('--start reception: one worker; a village preflight rejects spawns nothing that outlives the exit', { timeout: cliBudget(3) }, async () => {
    const dir = exampleVillage(temps);
    const one = await runCli(['ask', '--data-dir', dir, '--start', 'reception', 'hello'], TRACE);
    expect(one.code, describeRun(one)).toBe(0);
    expect(new Set(marks(one.stderr).filter((m) => m.thread !== 'main').map((m) => m.thread)).size).toBe(1);

    // An unknown agent in --start: only the reception's worker (spawned before world.json is read) may have booted,
    // nothing more; preflight says why (exit 2) and the process ends without waiting for it.
    const bad = await runCli(['ask', '--data-dir', dir, '--start', 'front,nobody', 'hello'], TRACE);
    expect(bad.code, describeRun(bad)).toBe(2);
    expect(bad.stderr).toContain('nobody');
    const badWorkers = marks(bad.stderr).filter((m) => m.thread !== 'main');
    expect(new Set(badWorkers.map((m) => m.thread)).size).toBeLessThanOrEqual(1);
    expect(badWorkers.filter((m) => m.label.startsWith('ready'))).toEqual([]);

    // Preflight rejects (the template's key is absent) after the early prewarm spawned the workers: exit 3 all the same,
    // nothing on stdout, and the unadopted workers never hold the process up.
    const keyless = makeVillage(temps, { baseUrl: stub().baseUrl });
    const rejected = await runCli(['ask', '--data-dir', keyless, '--start', 'batch', '--secrets', 'env', 'hello'], TRACE);
    expect(rejected.code, describeRun(rejected)).toBe(3);
    expect(rejected.signal).toBeNull();
    expect(rejected.stdout).toBe('');
    expect(marks(rejected.stderr).map((m) => m.label)).toContain('early prewarm');
  });
});
