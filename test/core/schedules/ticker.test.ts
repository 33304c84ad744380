import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryDiagSink } from '../../../src/core/diag.js';
import { FuseforksError } from '../../../src/core/errors.js';
import { ScheduleStore } from '../../../src/core/schedules/scheduleStore.js';
import {
  createScheduleTicker,
  ScheduleTicker,
  type ScheduleFiring,
  type ScheduleNotice,
  type ScheduleTickerOptions,
} from '../../../src/core/schedules/ticker.js';
import { utcZone } from '../../../src/core/schedules/timeZone.js';
import type { Recurrence, ScheduledTask } from '../../../src/core/schedules/types.js';
import { villagePaths } from '../../../src/core/village/paths.js';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const T = Date.UTC(2026, 0, 15, 9, 0);
const ID = '11111111-1111-4111-8111-111111111111';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ff-tick-'));
  file = villagePaths(dir).schedules;
  await mkdir(join(dir, 'workspace'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function village(recurrence: Recurrence, extra: Partial<ScheduledTask> = {}) {
  const row = { id: ID, to: 'alice', message: 'check the inbox', recurrence, createdAtMs: T, lastConsumedDueMs: null, enabled: true, ...extra };
  await writeFile(file, JSON.stringify([row], null, 2));
  const store = await ScheduleStore.open({ file });
  const fired: ScheduleFiring[] = [];
  const notices: ScheduleNotice[] = [];
  const diag = new MemoryDiagSink();
  const running = new Set(['alice']);
  const options: ScheduleTickerOptions = {
    store,
    zone: utcZone,
    language: () => 'en',
    isRunning: (id) => running.has(id),
    agentName: (id) => (id === 'alice' ? 'Alice' : undefined),
    fire: (_task, firing) => {
      fired.push(firing);
    },
    notice: (n) => notices.push(n),
    diag,
  };
  return { store, fired, notices, diag, running, options, ticker: new ScheduleTicker(options) };
}

const consumedInFile = async () => (JSON.parse(await readFile(file, 'utf8')) as ScheduledTask[])[0]?.lastConsumedDueMs;

describe('ScheduleTicker.tickOnce (injected clock)', () => {
  it('an interval schedule resumed after two days fires once, not once per missed slot', async () => {
    const v = await village({ kind: 'interval', everyMinutes: 10 }, { lastConsumedDueMs: T });
    const entries = await v.ticker.tickOnce(T + 2 * DAY + 3 * MIN);
    expect(entries).toEqual([{ id: ID, action: 'fired', dueMs: T + 2 * DAY }]);
    expect(await v.ticker.tickOnce(T + 2 * DAY + 3 * MIN + 30_000)).toEqual([]);
    expect(v.fired).toHaveLength(1);
    expect(v.fired[0]).toMatchObject({
      taskId: ID,
      to: 'alice',
      dueMs: T + 2 * DAY,
      body: '【Scheduled run: every 10 minutes】\ncheck the inbox',
      sessionMode: 'continue',
      summarizeAfter: false,
    });
    expect(await consumedInFile()).toBe(T + 2 * DAY);
  });

  it('a daily due 6 minutes late is consumed and skipped: nothing delivered, no chat line', async () => {
    const v = await village({ kind: 'daily', hour: 9, minute: 0 });
    expect(await v.ticker.tickOnce(T + 6 * MIN)).toEqual([{ id: ID, action: 'skipped_late', dueMs: T }]);
    expect(v.fired).toEqual([]);
    expect(v.notices).toEqual([]);
    expect(await consumedInFile()).toBe(T);
    expect(await v.ticker.tickOnce(T + 7 * MIN)).toEqual([]);
  });

  it('a stopped target: consumed and skipped with ONE notice line, never delivered', async () => {
    const v = await village({ kind: 'daily', hour: 9, minute: 0 });
    v.running.clear();
    expect(await v.ticker.tickOnce(T + MIN)).toEqual([{ id: ID, action: 'skipped_stopped', dueMs: T }]);
    await v.ticker.tickOnce(T + 1.5 * MIN);
    await v.ticker.tickOnce(T + 2 * MIN);
    expect(v.notices).toEqual([
      { agentId: 'alice', taskId: ID, text: 'Skipped the scheduled run "daily at 09:00" for Alice (alice): the agent is stopped' },
    ]);
    expect(v.fired).toEqual([]);
    expect(await consumedInFile()).toBe(T);
  });

  it('the due is in schedules.json BEFORE fire is called (a crash cannot fire twice)', async () => {
    const v = await village({ kind: 'interval', everyMinutes: 5 });
    const seenAtFire: Array<number | null | undefined> = [];
    const ticker = new ScheduleTicker({ ...v.options, fire: async () => void seenAtFire.push(await consumedInFile()) });
    await ticker.tickOnce(T + 5 * MIN);
    expect(seenAtFire).toEqual([T + 5 * MIN]);
  });

  it('a failed delivery is logged and not retried (one judgement per due)', async () => {
    const v = await village({ kind: 'interval', everyMinutes: 5 });
    let calls = 0;
    const ticker = new ScheduleTicker({
      ...v.options,
      fire: () => {
        calls += 1;
        throw new FuseforksError('MAILBOX_FULL', 'full');
      },
    });
    expect(await ticker.tickOnce(T + 5 * MIN)).toEqual([{ id: ID, action: 'fire_failed', dueMs: T + 5 * MIN }]);
    expect(await ticker.tickOnce(T + 6 * MIN)).toEqual([]);
    expect(calls).toBe(1);
    expect(v.diag.notes.some((n) => n.fields.reason === 'MAILBOX_FULL')).toBe(true);
  });

  it('a busy target waits without consuming; a disabled schedule is left alone', async () => {
    const v = await village({ kind: 'interval', everyMinutes: 5 });
    const busy = new ScheduleTicker({ ...v.options, isBusy: () => true });
    expect(await busy.tickOnce(T + 5 * MIN)).toEqual([{ id: ID, action: 'waiting_busy', dueMs: T + 5 * MIN }]);
    expect(await consumedInFile()).toBeNull();
    await v.store.setEnabled(ID, false);
    expect(await v.ticker.tickOnce(T + 5 * MIN)).toEqual([]);
  });

  it('Japanese body, fresh session and summarize-after are passed through', async () => {
    const v = await village({ kind: 'weekly', weekday: 'thu', hour: 9, minute: 0 }, { sessionMode: 'fresh', summarizeAfter: true });
    const ticker = new ScheduleTicker({ ...v.options, language: () => 'ja' });
    await ticker.tickOnce(T + MIN);
    expect(v.fired[0]).toMatchObject({
      body: '【定期実行: 毎週 木曜 09:00】\ncheck the inbox',
      sessionMode: 'fresh',
      summarizeAfter: true,
    });
  });

  it('start() ticks on its own timer', async () => {
    const v = await village({ kind: 'interval', everyMinutes: 5 });
    const ticker = new ScheduleTicker({ ...v.options, clock: () => T + 5 * MIN, intervalMs: 10 });
    ticker.start();
    while (v.fired.length === 0) await new Promise((r) => setTimeout(r, 5));
    await ticker.stop();
    expect(v.fired).toHaveLength(1);
  });
});

describe('runSchedules off', () => {
  it('the ticker is never constructed and schedules.json stays byte-identical', async () => {
    const v = await village({ kind: 'interval', everyMinutes: 5 });
    const before = createHash('sha256').update(await readFile(file)).digest('hex');
    const ticker = createScheduleTicker(false, { ...v.options, clock: () => T + 50 * MIN, intervalMs: 1 });
    expect(ticker).toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect(createHash('sha256').update(await readFile(file)).digest('hex')).toBe(before);
    expect(v.store.get(ID)?.lastConsumedDueMs).toBeNull();
    expect(v.fired).toEqual([]);
    expect(createScheduleTicker(true, v.options)).toBeInstanceOf(ScheduleTicker);
  });
});
