/**
 * `status` against a real `serve` (built binary): healthy and ready while serving, without taking the lock;
 * unhealthy when serve hangs (SIGSTOP: the heartbeat goes stale) and when it is gone; a refused second serve
 * never touches the running one's heartbeat.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleVillage, runCli, startCli, useCliSuite } from '../cli/support/cliProcess.js';

const suite = useCliSuite();

async function until(test: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  for (let waited = 0; waited < ms; waited += 250) {
    if (await test()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('status (built binary)', () => {
  it('follows a serve: healthy while serving, stale when hung, unhealthy once gone', async () => {
    const dir = exampleVillage(suite.temps);
    const none = await runCli(['status', '--data-dir', dir]);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('has not run');

    const serve = startCli(['serve', '--data-dir', dir, '--start', 'batch']);
    await serve.stderrLine((line) => line.includes('[SERVING]'));
    const ready = await runCli(['status', '--data-dir', dir, '--ready', '--json']);
    expect(ready.code, ready.stdout).toBe(0);
    const body = JSON.parse(ready.stdout) as { healthy: boolean; status: { pid: number; agentsRunning: string[] } };
    expect(body.status.pid).toBe(serve.child.pid);
    expect(body.status.agentsRunning.sort()).toEqual(['archivist', 'front', 'researcher', 'reviewer', 'writer']);

    // A second serve is refused by the lock (4) and leaves the heartbeat of the first alone.
    const before = readFileSync(join(dir, 'serve.status.json'), 'utf8');
    const second = await runCli(['serve', '--data-dir', dir, '--start', 'batch']);
    expect(second.code).toBe(4);
    expect(JSON.parse(readFileSync(join(dir, 'serve.status.json'), 'utf8')).pid).toBe(JSON.parse(before).pid);

    // Hung: the process lives but stops beating.
    serve.child.kill('SIGSTOP');
    try {
      await until(async () => (await runCli(['status', '--data-dir', dir, '--max-age', '2'])).code === 1, 'a stale heartbeat');
      const stale = await runCli(['status', '--data-dir', dir, '--max-age', '2']);
      expect(stale.stdout).toMatch(/unhealthy: the status is \d+ s old \(max 2 s\)/);
    } finally {
      serve.child.kill('SIGCONT');
    }
    await until(async () => (await runCli(['status', '--data-dir', dir, '--max-age', '2'])).code === 0, 'the heartbeat again');

    serve.child.kill('SIGTERM');
    expect((await serve.done).code).toBe(0);
    const gone = await runCli(['status', '--data-dir', dir]);
    expect(gone.code).toBe(1);
    expect(gone.stdout).toContain('is not running');
  });
});
