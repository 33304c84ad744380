/**
 * `fuseforks-cli schedules …` (built binary): add / disable / enable / remove leave schedules.json byte for byte as
 * the HostApi path the GUI's schedule routes call (the store's fresh id and creation time swapped in), with
 * unknown keys kept; every change refuses while another process holds the village (file untouched) while `list`
 * still answers; `run-now` fires the scheduled body to the stub LLM without consuming a due, and refuses when held.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { buildHost } from '../../src/host/buildHost.js';
import type { HostApi } from '../../src/host/hostApi.js';
import { HostPaths } from '../../src/host/hostPaths.js';
import { reply } from '../support/stubLlm.js';
import { cliBudget, describeRun, holdVillage, makeVillage, runCli, useCliSuite } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();
const KEPT = { id: '0b9a4a52-8c4e-4a3e-9f1e-5d2c1b0a9e11', to: 'desk', message: 'kept', recurrence: { kind: 'interval', everyMinutes: 60 }, createdAtMs: 1, lastConsumedDueMs: null, enabled: true, handWritten: 'yes' };
const SEED = `${JSON.stringify({ note: 'kept by hand', schedules: [KEPT] }, null, 2)}\n`;

function seeded(): string {
  const dir = makeVillage(temps, { baseUrl: stub().baseUrl, credential: 'not_required' });
  writeFileSync(join(dir, 'workspace/schedules.json'), SEED);
  return dir;
}
const file = (dir: string): string => readFileSync(join(dir, 'workspace/schedules.json'), 'utf8');
const rows = (dir: string) => (JSON.parse(file(dir)) as { schedules: Array<{ id: string; createdAtMs: number }> }).schedules;

async function openHost(dir: string): Promise<HostApi> {
  return buildHost(new HostPaths(dir), { appVersion: 'test', secrets: 'env', secretStore: new MemorySecretStore(), runSchedules: false, openDoor: false, env: {} });
}

describe('schedules command (built binary)', () => {
  it('add, disable, enable and remove write the same bytes as HostApi.village (the GUI path)', { timeout: cliBudget(5) }, async () => {
    const viaCli = seeded();
    const viaHost = seeded();
    const added = await runCli(['schedules', 'add', '-d', viaCli, '--to', 'helper', '--weekly', 'fri 17:30', '-m', 'Weekly summary.\nTwo lines.', '--fresh-session', '--json']);
    expect(added.code, describeRun(added)).toBe(0);
    const made = (JSON.parse(added.stdout) as { schedule: { id: string; createdAtMs: number; label: string; recurrence: unknown } }).schedule;
    expect(made).toMatchObject({ label: 'every Friday at 17:30', recurrence: { kind: 'weekly', weekday: 'fri', hour: 17, minute: 30 } });
    expect(rows(viaCli).map((r) => r.id)).toEqual([KEPT.id, made.id]);

    const host = await openHost(viaHost);
    let hostId = '';
    const same = (): void => {
      const fromHost = rows(viaHost).find((r) => r.id === hostId);
      const swapped = file(viaHost).replace(hostId, made.id).replace(`"createdAtMs": ${fromHost?.createdAtMs ?? -1}`, `"createdAtMs": ${made.createdAtMs}`);
      expect(file(viaCli)).toBe(swapped);
    };
    try {
      const state = await host.village.addSchedule({ to: 'helper', message: 'Weekly summary.\nTwo lines.', recurrence: { kind: 'weekly', weekday: 'fri', hour: 17, minute: 30 }, sessionMode: 'fresh' });
      hostId = state.schedules.at(-1)!.id;
      same();
      // An unambiguous start of the id is enough.
      expect((await runCli(['schedules', 'disable', made.id.slice(0, 8), '-d', viaCli, '-q'])).code).toBe(0);
      await host.village.setScheduleEnabled(hostId, false);
      same();
      expect((await runCli(['schedules', 'enable', made.id, '-d', viaCli, '-q'])).code).toBe(0);
      await host.village.setScheduleEnabled(hostId, true);
      same();
      const removed = await runCli(['schedules', 'remove', made.id, '-d', viaCli]);
      expect(removed.stdout).toContain(`removed ${made.id}`);
      await host.village.removeSchedule(hostId);
      expect(file(viaCli)).toBe(file(viaHost));
    } finally {
      await host.close();
    }
    expect(JSON.parse(file(viaCli))).toEqual({ note: 'kept by hand', schedules: [KEPT] });
  });

  it('refuses changes while another process holds the village (exit 4, file untouched); list still answers', { timeout: cliBudget(4) }, async () => {
    const dir = seeded();
    const holder = await holdVillage(dir);
    try {
      for (const args of [['add', '--to', 'desk', '--every', '5', '-m', 'x'], ['disable', KEPT.id], ['remove', KEPT.id]]) {
        const refused = await runCli(['schedules', ...args, '-d', dir]);
        expect(refused.code, describeRun(refused)).toBe(4);
        expect(refused.stderr).toContain(`error [LOCK_HELD] schedules ${args[0]} changes this village`);
        expect(refused.stdout).toBe('');
      }
      expect(file(dir)).toBe(SEED);
      const list = await runCli(['schedules', 'list', '-d', dir, '--json']);
      expect(list.code, describeRun(list)).toBe(0);
      expect(JSON.parse(list.stdout)).toMatchObject({ blocked: null, schedules: [{ id: KEPT.id, label: 'every 60 minutes', probeApproved: false }] });
    } finally {
      await holder.release();
    }
  });

  it('bad recurrence flags and unknown ids are refused with the fix', { timeout: cliBudget(3) }, async () => {
    const dir = seeded();
    const both = await runCli(['schedules', 'add', '-d', dir, '--to', 'desk', '--every', '5', '--daily', '09:00', '-m', 'x']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--every and --daily cannot be combined');
    const badTime = await runCli(['schedules', 'add', '-d', dir, '--to', 'desk', '--daily', '25:00', '-m', 'x']);
    expect(badTime.code).toBe(2);
    expect(badTime.stderr).toContain('fix: Give exactly one of --every');
    const unknown = await runCli(['schedules', 'enable', 'ffffffff', '-d', dir]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('error [SCHEDULE_NOT_FOUND] No schedule has the id ffffffff.');
    expect(file(dir)).toBe(SEED);
  });

  it('run-now sends the scheduled body to the target, waits for its turn, consumes nothing; refused while held', { timeout: cliBudget(3) }, async () => {
    stub().respond(() => reply.text('Report sent.'));
    const dir = seeded();
    const before = file(dir);
    const run = await runCli(['schedules', 'run-now', KEPT.id.slice(0, 6), '-d', dir, '--json']);
    expect(run.code, describeRun(run)).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ format: 1, id: KEPT.id, to: 'desk', fired: true, probe: null, participants: ['desk'] });
    expect(stub().requests).toHaveLength(1);
    expect(stub().requests[0]!.lastUserText).toContain('【Scheduled run: every 60 minutes】\nkept');
    expect(file(dir)).toBe(before);

    const holder = await holdVillage(dir);
    try {
      const refused = await runCli(['schedules', 'run-now', KEPT.id, '-d', dir]);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain('schedules run-now starts agents of this village');
      expect(refused.stderr).toContain('door enable');
      expect(stub().requests).toHaveLength(1);
    } finally {
      await holder.release();
    }
  });
});
