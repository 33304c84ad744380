/**
 * `serve` and `init` end to end on the built binary: serve starts the set and stops cleanly on SIGTERM (exit 0,
 * every agent joined); init copies the example village and refuses (5) to touch an existing one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireDist, exampleVillage, logRecords, runCli, startCli, Temps } from './support/cliProcess.js';

const temps = new Temps();

beforeAll(() => requireDist(), 120_000);
afterAll(() => temps.cleanup());

describe('serve and init (built binary)', () => {
  it('serve --start batch starts the set and stops on SIGTERM with exit 0, every agent joined', async () => {
    const dir = exampleVillage(temps);
    const cli = startCli(['serve', '--data-dir', dir, '--start', 'batch']);
    await cli.stderrLine((line) => line.includes('[SERVING]'));
    cli.child.kill('SIGTERM');
    const run = await cli.done;
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    const stopped = logRecords(dir).filter((r) => r.msg === 'agent stopped');
    expect(stopped.map((r) => r.agent).sort()).toEqual(['archivist', 'front', 'researcher', 'reviewer', 'writer']);
    expect(stopped.every((r) => r.joined === true)).toBe(true);
  });

  it('init copies the example village; a second init refuses with 5 and overwrites nothing', async () => {
    const dir = join(temps.make(), 'data');
    const first = await runCli(['init', '--data-dir', dir]);
    expect(first.code).toBe(0);
    const world = join(dir, 'workspace/world.json');
    writeFileSync(world, `${readFileSync(world, 'utf8')}\n`);
    const before = readFileSync(world, 'utf8');
    const second = await runCli(['init', '--data-dir', dir]);
    expect(second.code).toBe(5);
    expect(second.stderr).toContain('VILLAGE_EXISTS');
    expect(readFileSync(world, 'utf8')).toBe(before);
  });
});
