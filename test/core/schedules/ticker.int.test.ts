import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryDiagSink } from '../../../src/core/diag.js';
import { ProbeApprovals, probeKey } from '../../../src/core/schedules/probeApprovals.js';
import { ScheduleStore } from '../../../src/core/schedules/scheduleStore.js';
import { ScheduleTicker, type ScheduleFiring, type ScheduleNotice } from '../../../src/core/schedules/ticker.js';
import { utcZone } from '../../../src/core/schedules/timeZone.js';
import type { ScheduledTask, ScheduleProbe } from '../../../src/core/schedules/types.js';
import { villagePaths } from '../../../src/core/village/paths.js';

const MIN = 60_000;
const T = Date.UTC(2026, 0, 15, 9, 0);
const ID = '11111111-1111-4111-8111-111111111111';
const VILLAGE = '9b2f6c1e-3d4a-4f5b-8c6d-7e8f9a0b1c2d';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ff-tickprobe-'));
  await mkdir(join(dir, 'workspace'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A village with one 5-minute schedule whose probe runs `sh -c script`; approved on the shelf when asked. */
async function village(script: string, opts: { approve: boolean; running?: boolean }) {
  const paths = villagePaths(dir);
  const probe: ScheduleProbe = { command: 'sh', args: ['-c', script], expect: 'GO', timeoutSecs: 10, cwd: null };
  const row = { id: ID, to: 'alice', message: 'go ahead', recurrence: { kind: 'interval', everyMinutes: 5 }, createdAtMs: T, lastConsumedDueMs: null, enabled: true, probe };
  await writeFile(paths.schedules, JSON.stringify([row], null, 2));
  const approvals = await ProbeApprovals.load(paths.shelf.probeApprovals);
  if (opts.approve) await approvals.approve(probeKey(probe, VILLAGE));
  const store = await ScheduleStore.open({ file: paths.schedules });
  const fired: ScheduleFiring[] = [];
  const notices: ScheduleNotice[] = [];
  const diag = new MemoryDiagSink();
  const ticker = new ScheduleTicker({
    store,
    zone: utcZone,
    language: () => 'en',
    isRunning: () => opts.running ?? true,
    fire: (_task, firing) => void fired.push(firing),
    notice: (n) => notices.push(n),
    probes: { isApproved: (p) => approvals.isApproved(p, VILLAGE), workspaceDir: paths.workspace },
    diag,
  });
  const consumed = async () => (JSON.parse(await readFile(paths.schedules, 'utf8')) as ScheduledTask[])[0]?.lastConsumedDueMs;
  return { ticker, fired, notices, diag, consumed };
}

describe('ticker + real pre-check commands', () => {
  it('signal matches → fire is called with the tail attached', async () => {
    const v = await village('echo GO; echo three new mails', { approve: true });
    expect(await v.ticker.tickOnce(T + 5 * MIN)).toEqual([{ id: ID, action: 'probe_started', dueMs: T + 5 * MIN }]);
    // Consumed at decision time, before the probe even finished.
    expect(await v.consumed()).toBe(T + 5 * MIN);
    await v.ticker.idle();
    expect(v.fired).toHaveLength(1);
    expect(v.fired[0]?.appendix).toBe('three new mails');
    expect(v.fired[0]?.body).toBe('【Scheduled run: every 5 minutes】\ngo ahead\n\n【Pre-check output】\nthree new mails');
  });

  it('no match → fire is not called, and the due stays consumed', async () => {
    const v = await village('echo NOTHING-TODO', { approve: true });
    await v.ticker.tickOnce(T + 5 * MIN);
    await v.ticker.idle();
    expect(v.fired).toEqual([]);
    expect(await v.consumed()).toBe(T + 5 * MIN);
    expect(v.diag.notes.find((n) => n.kind === 'schedule probe')?.fields.outcome).toBe('no_match');
  });

  it('unapproved → the command is never executed (no marker), nothing delivered, due consumed', async () => {
    const marker = join(dir, 'marker');
    const v = await village(`touch ${marker}; echo GO`, { approve: false });
    await v.ticker.tickOnce(T + 5 * MIN);
    await v.ticker.idle();
    expect(existsSync(marker)).toBe(false);
    expect(v.fired).toEqual([]);
    expect(await v.consumed()).toBe(T + 5 * MIN);
    expect(v.diag.notes.find((n) => n.kind === 'schedule probe')?.fields).toMatchObject({ id: ID, outcome: 'unapproved' });
  });

  it('a stopped target never runs its probe, even an approved one', async () => {
    const marker = join(dir, 'marker');
    const v = await village(`touch ${marker}; echo GO`, { approve: true, running: false });
    expect(await v.ticker.tickOnce(T + 5 * MIN)).toEqual([{ id: ID, action: 'skipped_stopped', dueMs: T + 5 * MIN }]);
    await v.ticker.idle();
    expect(existsSync(marker)).toBe(false);
    expect(v.notices).toHaveLength(1);
  });

  it('while its probe still runs, the next tick does not start a second one', async () => {
    const v = await village('sleep 1; echo GO', { approve: true });
    await v.ticker.tickOnce(T + 5 * MIN);
    expect(await v.ticker.tickOnce(T + 10 * MIN)).toEqual([{ id: ID, action: 'waiting_probe', dueMs: T + 10 * MIN }]);
    await v.ticker.idle();
    expect(v.fired).toHaveLength(1);
  });
});
