/**
 * Clock steps (reliability suite, issue 28): the real schedule ticker on its own timer, with a real schedules.json,
 * while the wall clock steps. The test owns both clocks the ticker reads (wall and monotonic) and the timer (fake
 * `setInterval` only); each seeded try runs one schedule — every 1, 2, 5 or 7 minutes, or daily — through 120 to 240
 * ticks of 30 s with one to three steps: 1 h and 2 h back and forward (DST-sized and beyond), 6 s to 10 min either
 * way, a day or three back. Held when, in monotonic time, an interval schedule is never silent longer than one
 * interval and one tick (plus the step tolerance), fires early (before one interval minus the tolerance) at most
 * once per forward step (the one catch-up due), a daily one never fires the same due twice, and the timer ticked
 * every time.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it, vi } from 'vitest';
import { CLOCK_STEP_TOLERANCE_MS } from '../../src/core/schedules/clockStep.js';
import { ScheduleStore } from '../../src/core/schedules/scheduleStore.js';
import { ScheduleTicker } from '../../src/core/schedules/ticker.js';
import { utcZone } from '../../src/core/schedules/timeZone.js';
import type { Recurrence } from '../../src/core/schedules/types.js';
import { villagePaths } from '../../src/core/village/paths.js';
import { pick, seeded, Tally } from './support/tally.js';

const TRIES = 40;
const TICK_MS = 30_000;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const ID = '22222222-2222-4222-8222-222222222222';

afterEach(() => {
  vi.useRealTimers();
});

/** A seeded step size (ms; negative = back). */
function stepSize(next: () => number): number {
  const sizes = [-2 * HOUR, 2 * HOUR, -HOUR, HOUR, -DAY, -3 * DAY];
  if (next() < 0.6) return sizes[pick(next, sizes.length)]!;
  const small = 6_000 + pick(next, 10 * MIN - 6_000);
  return next() < 0.5 ? -small : small;
}

interface Fire {
  monoMs: number;
  dueMs: number;
}

async function runTry(dir: string, next: () => number, label: string, tally: Tally): Promise<void> {
  const file = villagePaths(dir).schedules;
  await mkdir(join(dir, 'workspace'), { recursive: true });
  const every = [1, 2, 5, 7][pick(next, 4)]!;
  const recurrence: Recurrence = next() < 0.25 ? { kind: 'daily', hour: pick(next, 24), minute: pick(next, 60) } : { kind: 'interval', everyMinutes: every };
  let wall = Date.UTC(2026, 2, 29, 0, 0) + pick(next, 3 * DAY);
  let mono = 1_000 + pick(next, 100_000);
  await writeFile(file, JSON.stringify([{ id: ID, to: 'alice', message: 'tick', recurrence, createdAtMs: wall, lastConsumedDueMs: null, enabled: true }]));
  const store = await ScheduleStore.open({ file });
  const fires: Fire[] = [];
  let ticked = 0;
  let settled: () => void = () => undefined;
  const ticker = new ScheduleTicker({
    store,
    zone: utcZone,
    clock: () => wall,
    monoClock: () => mono,
    intervalMs: TICK_MS,
    language: () => 'en',
    isRunning: () => true,
    fire: (_task, firing) => {
      fires.push({ monoMs: mono, dueMs: firing.dueMs });
    },
    notice: () => undefined,
    onTick: () => {
      ticked += 1;
      settled();
    },
  });
  const ticks = 120 + pick(next, 121);
  const steps = new Map<number, number>();
  for (let s = 1 + pick(next, 3); s > 0; s -= 1) steps.set(1 + pick(next, ticks - 1), stepSize(next));
  const startMono = mono;
  ticker.start();
  for (let t = 0; t < ticks; t += 1) {
    mono += TICK_MS;
    wall += TICK_MS + (steps.get(t) ?? 0);
    const done = new Promise<void>((resolve) => (settled = resolve));
    await vi.advanceTimersByTimeAsync(TICK_MS);
    await done;
  }
  await ticker.stop();
  const shape = `${recurrence.kind === 'interval' ? `every ${every} min` : `daily ${recurrence.hour}:${recurrence.minute}`}, steps ${JSON.stringify([...steps])}`;
  tally.check(`${label} (${shape}): the timer ticked every time`, ticked === ticks ? null : `${ticked} of ${ticks}`);
  if (recurrence.kind === 'interval') {
    const everyMs = every * MIN;
    const forward = [...steps.values()].filter((s) => s > 0).length;
    let early = 0;
    let longest = 0;
    let last = startMono;
    for (const f of fires) {
      const gap = f.monoMs - last;
      longest = Math.max(longest, gap);
      if (last !== startMono && gap < everyMs - CLOCK_STEP_TOLERANCE_MS) early += 1;
      last = f.monoMs;
    }
    longest = Math.max(longest, mono - last);
    const limit = everyMs + TICK_MS + CLOCK_STEP_TOLERANCE_MS;
    tally.check(`${label} (${shape}): never silent longer than an interval and a tick`, longest <= limit ? null : `silent ${longest / 1000} s of monotonic time (limit ${limit / 1000} s), fired ${fires.length}×`);
    tally.check(`${label} (${shape}): at most one early (catch-up) firing per forward step`, early <= forward ? null : `${early} early firings, ${forward} forward steps`);
  } else {
    const dues = fires.map((f) => f.dueMs);
    tally.check(`${label} (${shape}): no due fired twice`, new Set(dues).size === dues.length ? null : `dues ${JSON.stringify(dues)}`);
  }
}

describe('reliability: schedules across wall-clock steps', () => {
  it('seeded steps back and forward: interval schedules keep their pace, nothing fires twice, the timer never stops', { timeout: 120_000 }, async () => {
    const tally = new Tally('clock-steps');
    const next = seeded(284);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    for (let i = 0; i < TRIES; i += 1) {
      const dir = await mkdtemp(join(tmpdir(), 'ff-rel-clock-'));
      try {
        await runTry(dir, next, `try ${i}`, tally);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    tally.finish(TRIES * 2);
  });
});
