import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryDiagSink } from '../../../src/core/diag.js';
import { FuseforksError } from '../../../src/core/errors.js';
import { ScheduleStore } from '../../../src/core/schedules/scheduleStore.js';
import { villagePaths } from '../../../src/core/village/paths.js';

const ID1 = '11111111-1111-4111-8111-111111111111';
const ID2 = '22222222-2222-4222-8222-222222222222';
const ID3 = '33333333-3333-4333-8333-333333333333';

/** A row as the desktop app writes it: original key order, no probe, defaults left out. */
const original = (id: string, to: string) => ({
  id,
  to,
  message: 'weekly report please',
  recurrence: { kind: 'weekly', weekday: 'thu', hour: 17, minute: 0 },
  createdAtMs: 1760000000000,
  lastConsumedDueMs: null,
  enabled: true,
});

let dir: string;
let file: string;
const sha = async (path: string) => createHash('sha256').update(await readFile(path)).digest('hex');
const known = new Set(['alice', 'bob']);
const agentExists = (id: string) => known.has(id);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ff-sched-'));
  file = villagePaths(dir).schedules;
  await mkdir(join(dir, 'workspace'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ScheduleStore: reading', () => {
  it('a missing file is no schedules and writable', async () => {
    const store = await ScheduleStore.open({ file });
    expect(store.list()).toEqual([]);
    expect(store.blocked).toBeNull();
  });

  it('drops bad rows one by one with a note naming the row, keeps the good ones', async () => {
    const bad = { ...original(ID2, 'alice'), recurrence: { kind: 'daily', hour: 25, minute: 0 } };
    await writeFile(file, JSON.stringify([original(ID1, 'alice'), bad, 'junk', original(ID3, 'bob')], null, 2));
    const diag = new MemoryDiagSink();
    const store = await ScheduleStore.open({ file, agentExists, diag });
    expect(store.list().map((t) => t.id)).toEqual([ID1, ID3]);
    const dropped = diag.notes.filter((n) => n.fields.dropped_row !== undefined);
    expect(dropped.map((n) => [n.fields.dropped_row, n.fields.id, n.fields.field])).toEqual([
      [1, ID2, 'recurrence.hour'],
      [2, null, '(row)'],
    ]);
    // Never the message text in a note.
    expect(JSON.stringify(diag.notes)).not.toContain('weekly report');
  });

  it('drops rows whose target agent is missing, with a note', async () => {
    await writeFile(file, JSON.stringify([original(ID1, 'alice'), original(ID2, 'ghost')]));
    const diag = new MemoryDiagSink();
    const store = await ScheduleStore.open({ file, agentExists, diag });
    expect(store.list().map((t) => t.id)).toEqual([ID1]);
    expect(diag.notes.some((n) => n.fields.id === ID2 && n.fields.reason === 'target agent missing')).toBe(true);
  });

  it('an unparseable file: no schedules, blocked with file and position, never overwritten', async () => {
    const text = '[\n  {"id": "x",\n  "to": }\n]';
    await writeFile(file, text);
    const before = await sha(file);
    const store = await ScheduleStore.open({ file, agentExists });
    expect(store.list()).toEqual([]);
    expect(store.blocked).toMatchObject({ file, line: 3, column: 9 });
    const attempts = [
      () => store.add({ to: 'alice', message: 'hi', recurrence: { kind: 'interval', everyMinutes: 5 } }, { nowMs: 1 }),
      () => store.remove(ID1),
      () => store.setEnabled(ID1, false),
    ];
    for (const attempt of attempts) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FuseforksError);
      expect((error as FuseforksError).code).toBe('SCHEDULE_STORE_BLOCKED');
      expect((error as FuseforksError).message).toContain(file);
      expect((error as FuseforksError).message).toContain('line 3, column 9');
    }
    expect(await store.consume(ID1, 5)).toBe(false);
    expect(await store.removeForAgent('alice')).toBe(0);
    expect(await sha(file)).toBe(before);
  });

  it('a file of the wrong shape is blocked too', async () => {
    await writeFile(file, '{"tasks": []}');
    const store = await ScheduleStore.open({ file });
    expect(store.blocked?.reason).toContain('array');
  });
});

describe('ScheduleStore: writing', () => {
  it('a probeless row made by the desktop app round-trips byte for byte', async () => {
    const text = JSON.stringify([original(ID1, 'alice'), original(ID2, 'bob')], null, 2);
    await writeFile(file, text);
    const store = await ScheduleStore.open({ file, agentExists });
    await store.setEnabled(ID2, true); // a rewrite that changes nothing
    expect(await readFile(file, 'utf8')).toBe(text);
    await store.consume(ID2, 1760000000000);
    const expected = [original(ID1, 'alice'), { ...original(ID2, 'bob'), lastConsumedDueMs: 1760000000000 }];
    expect(await readFile(file, 'utf8')).toBe(JSON.stringify(expected, null, 2));
  });

  it('unknown keys survive a rewrite at file, row, recurrence and probe level; bad rows stay in the file', async () => {
    const row = {
      ...original(ID1, 'alice'),
      futureKey: { nested: [1, 2] },
      recurrence: { kind: 'daily', hour: 8, minute: 30, jitter: 3 },
      probe: { command: 'true', args: [], expect: 'GO', timeoutSecs: 60, cwd: null, shell: 'never' },
    };
    const badRow = { id: 'not-a-uuid', to: 'alice' };
    await writeFile(file, JSON.stringify({ version: 7, schedules: [row, badRow], trailer: 'x' }));
    const store = await ScheduleStore.open({ file, agentExists });
    await store.setEnabled(ID1, false);
    const back = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(back)).toEqual(['version', 'schedules', 'trailer']);
    const [r0, r1] = back.schedules as Array<Record<string, unknown>>;
    expect(r0).toEqual({ ...row, enabled: false });
    expect(r1).toEqual(badRow);
  });

  it('add validates and names the field; unknown target is AGENT_NOT_FOUND; missing id is SCHEDULE_NOT_FOUND', async () => {
    const store = await ScheduleStore.open({ file, agentExists });
    const bad = await store
      .add({ to: 'alice', message: 'x', recurrence: { kind: 'daily', hour: 9, minute: 60 } }, { nowMs: 1, agentExists })
      .catch((e: FuseforksError) => e);
    expect(bad).toMatchObject({ code: 'INVALID_SCHEDULE', details: { field: 'recurrence.minute' } });
    const badProbe = await store
      .add(
        {
          to: 'alice',
          message: 'x',
          recurrence: { kind: 'interval', everyMinutes: 5 },
          probe: { command: 'true', args: [], expect: 'GO', timeoutSecs: 3601, cwd: null },
        },
        { nowMs: 1 },
      )
      .catch((e: FuseforksError) => e);
    expect(badProbe).toMatchObject({ code: 'INVALID_SCHEDULE', details: { field: 'probe.timeoutSecs' } });
    const blank = await store
      .add({ to: 'alice', message: '  ', recurrence: { kind: 'interval', everyMinutes: 5 } }, { nowMs: 1 })
      .catch((e: FuseforksError) => e);
    expect(blank).toMatchObject({ code: 'INVALID_SCHEDULE', details: { field: 'message' } });
    const ghost = await store
      .add({ to: 'ghost', message: 'x', recurrence: { kind: 'interval', everyMinutes: 5 } }, { nowMs: 1, agentExists })
      .catch((e: FuseforksError) => e);
    expect(ghost).toMatchObject({ code: 'AGENT_NOT_FOUND' });
    const missing = await store.remove(ID3).catch((e: FuseforksError) => e);
    expect(missing).toMatchObject({ code: 'SCHEDULE_NOT_FOUND' });
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('add / pause / resume / delete persist, and a reopened store reads the same', async () => {
    const store = await ScheduleStore.open({ file, agentExists });
    const a = await store.add(
      { to: 'alice', message: 'ping', recurrence: { kind: 'interval', everyMinutes: 15 }, sessionMode: 'fresh' },
      { nowMs: 1000, agentExists },
    );
    const b = await store.add({ to: 'bob', message: 'pong', recurrence: daily() }, { nowMs: 2000 });
    await store.setEnabled(a.id, false);
    expect((await ScheduleStore.open({ file })).get(a.id)).toMatchObject({ enabled: false, sessionMode: 'fresh', createdAtMs: 1000 });
    await store.setEnabled(a.id, true);
    await store.remove(b.id);
    const reopened = await ScheduleStore.open({ file });
    expect(reopened.list()).toEqual([{ ...a, enabled: true }]);
    expect(await store.removeForAgent('alice')).toBe(1);
    expect((await ScheduleStore.open({ file })).list()).toEqual([]);
  });

  it('a due consumed while an update is being written survives the update', async () => {
    const store = await ScheduleStore.open({ file, agentExists });
    const a = await store.add({ to: 'alice', message: 'ping', recurrence: daily() }, { nowMs: 1000 });
    const updating = store.update(a.id, { message: 'pong' });
    await store.consume(a.id, 777);
    await updating;
    expect((await ScheduleStore.open({ file })).get(a.id)).toMatchObject({ message: 'pong', lastConsumedDueMs: 777 });
  });
});

function daily() {
  return { kind: 'daily' as const, hour: 9, minute: 0 };
}
