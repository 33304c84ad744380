/**
 * Probe approval commands on a real temp village: real schedules.json, village_id and the shelf's
 * probe_approvals.json. The approvals instance handed to the commands is the one a ticker would ask, so
 * `isApproved` on it is what the next firing sees; the shelf file is re-read from disk to prove what was saved.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentStatus } from '../../src/core/events.js';
import { isFuseforksError } from '../../src/core/errors.js';
import { ProbeApprovals, probeKey } from '../../src/core/schedules/probeApprovals.js';
import { ScheduleStore } from '../../src/core/schedules/scheduleStore.js';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { villagePaths, type VillagePaths } from '../../src/core/village/paths.js';
import { ensureVillageId } from '../../src/core/village/villageId.js';
import type { World } from '../../src/core/world/types.js';
import { VillageCommands } from '../../src/host/villageCommands.js';

let dir: string;
let paths: VillagePaths;
let villageId: string;
let approvals: ProbeApprovals;
let worlds: World[];

async function open(probes: 'shelf' | 'none' = 'shelf'): Promise<VillageCommands> {
  const schedules = await ScheduleStore.open({ file: paths.schedules });
  return VillageCommands.open({
    paths,
    supervisor: {
      setWorld: (w) => worlds.push(w),
      stopAgent: async () => undefined,
      statuses: () => (worlds.at(-1)?.agents ?? []).map((a) => ({ agentId: a.id, status: 'idle' as AgentStatus })),
    },
    schedules,
    probes: probes === 'shelf' ? { approvals, villageId } : null,
    secrets: new MemorySecretStore(),
    emit: () => undefined,
    sessions: null,
  });
}

function shelfHashes(): string[] {
  return (JSON.parse(readFileSync(paths.shelf.probeApprovals, 'utf8')) as { hashes: string[] }).hashes;
}

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (error) {
    return isFuseforksError(error) ? `${error.code}:${String(error.details?.field ?? error.details?.file ?? '')}` : String(error);
  }
}

async function villageWithSchedule(vc: VillageCommands): Promise<string> {
  await vc.upsertTemplate({ id: 'tpl', name: 'Stub', model: 'm', baseUrl: 'http://127.0.0.1:1/v1', credential: 'not_required' });
  const a = await vc.createAgent({ name: 'Alice' });
  const state = await vc.addSchedule({ to: a.id, message: 'report', recurrence: { kind: 'daily', hour: 9, minute: 0 } });
  return state.schedules[0]!.id;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ff-probe-cmd-'));
  paths = villagePaths(dir);
  mkdirSync(paths.workspace, { recursive: true });
  writeFileSync(paths.world, JSON.stringify({ language: 'en', modelTemplates: [], agents: [] }));
  villageId = (await ensureVillageId(paths)).id;
  approvals = await ProbeApprovals.load(paths.shelf.probeApprovals);
  worlds = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('probe approval commands', () => {
  it('approve → the shelf holds the key and the ticker instance says yes; editing args unapproves; revoke removes', async () => {
    const vc = await open();
    const id = await villageWithSchedule(vc);
    const probe = { command: 'git', args: ['status', '--porcelain'], cwd: '', expect: 'clean' };
    let state = await vc.setScheduleProbe(id, probe);
    let row = state.schedules[0]!;
    expect(row.probe).toEqual({ command: 'git', args: ['status', '--porcelain'], cwd: null, expect: 'clean', timeoutSecs: 60 });
    expect(row.probeApproved).toBe(false);
    expect(row.probeCommandLine).toBe('git status --porcelain');

    state = await vc.approveProbe(id);
    expect(state.schedules[0]!.probeApproved).toBe(true);
    const key = probeKey(row.probe!, villageId);
    expect(shelfHashes()).toEqual([key]);
    expect(approvals.isApproved(row.probe!, villageId)).toBe(true);
    // What a fresh boot would read from disk agrees.
    expect((await ProbeApprovals.load(paths.shelf.probeApprovals)).isApproved(row.probe!, villageId)).toBe(true);
    // Only the hash is on the shelf, never the command text.
    expect(readFileSync(paths.shelf.probeApprovals, 'utf8')).not.toContain('porcelain');

    // A changed argument is a new key: unapproved, and the old approval is withdrawn.
    state = await vc.setScheduleProbe(id, { ...probe, args: ['status'] });
    row = state.schedules[0]!;
    expect(row.probeApproved).toBe(false);
    expect(approvals.isApproved(row.probe!, villageId)).toBe(false);
    expect(shelfHashes()).toEqual([]);

    state = await vc.approveProbe(id);
    expect(state.schedules[0]!.probeApproved).toBe(true);
    state = await vc.revokeProbe(id);
    expect(state.schedules[0]!.probeApproved).toBe(false);
    expect(shelfHashes()).toEqual([]);
  });

  it('a changed cwd or command is unapproved too; the same probe in another village is not approved', async () => {
    const vc = await open();
    const id = await villageWithSchedule(vc);
    await vc.setScheduleProbe(id, { command: 'test', args: ['-f', 'ready'], expect: 'x' });
    await vc.approveProbe(id);
    expect((await vc.setScheduleProbe(id, { command: 'test', args: ['-f', 'ready'], cwd: '/srv', expect: 'x' })).schedules[0]!.probeApproved).toBe(false);
    await vc.approveProbe(id);
    expect((await vc.setScheduleProbe(id, { command: '/usr/bin/test', args: ['-f', 'ready'], cwd: '/srv', expect: 'x' })).schedules[0]!.probeApproved).toBe(false);
    await vc.approveProbe(id);
    // Changing only the expected line keeps the approval (it is not part of the key).
    const kept = await vc.setScheduleProbe(id, { command: '/usr/bin/test', args: ['-f', 'ready'], cwd: '/srv', expect: 'y' });
    expect(kept.schedules[0]!.probeApproved).toBe(true);
    expect(approvals.isApproved(kept.schedules[0]!.probe!, '00000000-0000-4000-8000-000000000000')).toBe(false);
    // A second schedule with another probe stays unapproved next to the approved one.
    const to = kept.world.agents[0]!.id;
    const two = await vc.addSchedule({ to, message: 'other', recurrence: { kind: 'interval', everyMinutes: 5 } });
    const other = two.schedules[1]!.id;
    const both = await vc.setScheduleProbe(other, { command: 'false', args: [], expect: 'x' });
    expect(both.schedules.map((s) => s.probeApproved)).toEqual([true, false]);
    // The same shelf seen from a village with another id approves nothing (the id is part of the key).
    villageId = '00000000-0000-4000-8000-000000000000';
    expect((await open()).state().schedules.map((s) => s.probeApproved)).toEqual([false, false]);
  });

  it('refusals name the field: shell syntax, empty command, no probe to approve, unknown schedule, no village id', async () => {
    const vc = await open();
    const id = await villageWithSchedule(vc);
    expect(await code(vc.setScheduleProbe(id, { command: 'ls | grep x', args: [], expect: 'y' }))).toBe('INVALID_SCHEDULE:probe.command');
    expect(await code(vc.setScheduleProbe(id, { command: '', args: [], expect: 'y' }))).toBe('INVALID_SCHEDULE:probe.command');
    expect(await code(vc.updateSchedule(id, { probe: { command: 'a;b', args: [], expect: 'y', cwd: null, timeoutSecs: 60 } }))).toBe('INVALID_SCHEDULE:probe.command');
    expect(await code(vc.approveProbe(id))).toBe('INVALID_SCHEDULE:probe');
    expect(await code(vc.approveProbe('8a1c4c9e-2f1b-4c9e-9d1a-0f2b3c4d5e6f'))).toBe('SCHEDULE_NOT_FOUND:');
    const bare = await open('none');
    await bare.setScheduleProbe(id, { command: 'true', args: [], expect: 'y' });
    expect(await code(bare.approveProbe(id))).toBe(`CONFIG_IO:${paths.villageId}`);
    expect(bare.state().schedules[0]!.probeApproved).toBe(false);
  });

  it('clearing the probe or deleting the schedule withdraws its approval', async () => {
    const vc = await open();
    const id = await villageWithSchedule(vc);
    await vc.setScheduleProbe(id, { command: 'true', args: [], expect: 'y' });
    await vc.approveProbe(id);
    let state = await vc.setScheduleProbe(id, null);
    expect(state.schedules[0]!.probe).toBeUndefined();
    expect(state.schedules[0]!.probeApproved).toBe(false);
    expect(shelfHashes()).toEqual([]);
    await vc.setScheduleProbe(id, { command: 'true', args: [], expect: 'y' });
    await vc.approveProbe(id);
    state = await vc.removeSchedule(id);
    expect(state.schedules).toEqual([]);
    expect(shelfHashes()).toEqual([]);
  });
});
