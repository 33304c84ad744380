/**
 * The heartbeat verdict (pure, table-driven) and the writer against a real temp folder: `status` must go
 * unhealthy for a missing, unreadable, stale or dead heartbeat, and for readiness while serve is not serving.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ServeHeartbeat } from '../../src/host/health/heartbeat.js';
import { HealthTracker } from '../../src/host/health/hostHealth.js';
import { judgeServeStatus, pidAlive, readServeStatus, serveStatusPath, type ServeStatusDoc, type StatusRead } from '../../src/host/health/serveStatus.js';
import { pollUntil } from '../support/pollUntil.js';

const NOW = Date.parse('2026-12-02T12:00:00Z');
const doc = (over: Partial<ServeStatusDoc> = {}): StatusRead => ({
  kind: 'ok',
  doc: {
    format: 1,
    pid: 4242,
    state: 'serving',
    since: '2026-12-02T11:00:00.000Z',
    updatedAt: new Date(NOW - 5_000).toISOString(),
    agentsRunning: ['front'],
    door: { listening: true, port: 39641 },
    lastScheduleTick: null,
    lastError: null,
    ...over,
  },
});
const alive = (): boolean => true;
const dead = (): boolean => false;

describe('judgeServeStatus', () => {
  const rows: Array<{ name: string; read: StatusRead; ready?: boolean; pid?: () => boolean; healthy: boolean; says: string }> = [
    { name: 'fresh and alive', read: doc(), healthy: true, says: 'door listening on 127.0.0.1:39641' },
    { name: 'no file', read: { kind: 'missing' }, healthy: false, says: 'has not run' },
    { name: 'unreadable file', read: { kind: 'unreadable', reason: 'it is not valid JSON' }, healthy: false, says: 'not valid JSON' },
    { name: 'pid gone', read: doc(), pid: dead, healthy: false, says: 'is not running' },
    { name: 'stale', read: doc({ updatedAt: new Date(NOW - 31_000).toISOString() }), healthy: false, says: '31 s old (max 30 s)' },
    { name: 'just within max age', read: doc({ updatedAt: new Date(NOW - 30_000).toISOString() }), healthy: true, says: 'updated 30 s ago' },
    { name: 'starting is alive', read: doc({ state: 'starting' }), healthy: true, says: 'starting' },
    { name: 'starting is not ready', read: doc({ state: 'starting' }), ready: true, healthy: false, says: 'not serving yet' },
    { name: 'closing is not ready', read: doc({ state: 'closing' }), ready: true, healthy: false, says: 'closing' },
    { name: 'serving is ready', read: doc(), ready: true, healthy: true, says: 'serving' },
    { name: 'door that failed to bind', read: doc({ door: { listening: false, port: 1 } }), healthy: true, says: 'door NOT listening' },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const v = judgeServeStatus(row.read, { nowMs: NOW, maxAgeSecs: 30, ready: row.ready ?? false, pidAlive: row.pid ?? alive });
      expect(v.healthy).toBe(row.healthy);
      expect(v.reason).toContain(row.says);
    });
  }

  it('pidAlive: only a live serve process counts — not this process, not a thread id, not another program', async () => {
    const { spawn } = await import('node:child_process');
    expect(pidAlive(process.pid)).toBe(false);
    expect(pidAlive(process.ppid)).toBe(false); // alive, but not a serve
    expect(pidAlive(2 ** 22 + 7)).toBe(false);
    const fake = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'serve'], { stdio: 'ignore' });
    try {
      await new Promise((r) => fake.once('spawn', r));
      expect(pidAlive(fake.pid!)).toBe(true);
      let threads: number[] = [];
      await pollUntil(() => (threads = readdirSync(`/proc/${fake.pid}/task`).map(Number).filter((t) => t !== fake.pid)).length > 0, { everyMs: 50 });
      expect(threads.length).toBeGreaterThan(0);
      expect(pidAlive(threads[0]!)).toBe(false); // kill(tid, 0) would say yes
    } finally {
      fake.kill('SIGKILL');
    }
  });
});

describe('ServeHeartbeat (real files)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ff-heartbeat-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes starting, then serving with the host facts, keeps it fresh on its timer, and stops at closing', async () => {
    const tracker = new HealthTracker(() => NOW);
    const health = () => ({ agentsRunning: ['a', 'b'], door: null, lastScheduleTickMs: tracker.lastScheduleTickMs, lastError: tracker.lastError });
    let clock = NOW;
    const beat = new ServeHeartbeat({ dataDir: dir, health, intervalMs: 20, clock: () => clock });
    await beat.start();
    const read = async (): Promise<ServeStatusDoc> => {
      const r = await readServeStatus(dir);
      if (r.kind !== 'ok') throw new Error(r.kind);
      return r.doc;
    };
    expect((await read()).state).toBe('starting');
    tracker.tick(NOW + 1000);
    tracker.observe({ type: 'agentFailed', agentId: 'b', error: { code: 'LLM_HTTP', message: 'secret body never kept', retryable: false, fault: 'system' } });
    clock = NOW + 2000;
    await beat.setState('serving');
    const serving = await read();
    expect(serving).toMatchObject({ pid: process.pid, state: 'serving', agentsRunning: ['a', 'b'], door: null, lastError: { code: 'LLM_HTTP', agentId: 'b' } });
    expect(serving.lastScheduleTick).toBe(new Date(NOW + 1000).toISOString());
    expect(readFileSync(serveStatusPath(dir), 'utf8')).not.toContain('secret body');
    clock = NOW + 60_000;
    await pollUntil(async () => (await read()).updatedAt === new Date(NOW + 60_000).toISOString());
    expect((await read()).updatedAt).toBe(new Date(NOW + 60_000).toISOString());
    await beat.setState('closing');
    clock = NOW + 120_000;
    await new Promise((r) => setTimeout(r, 100));
    expect(await read()).toMatchObject({ state: 'closing', updatedAt: new Date(NOW + 60_000).toISOString() });
  });
});
