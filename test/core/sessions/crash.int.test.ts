/**
 * Crash durability on real LMDB and real processes: a child appends turn records in a tight loop and prints
 * each seq only after its commit resolved; it is SIGKILLed at random moments. After every kill a fresh open
 * must succeed, every reported seq must be present, and recordCount must match the stored records (no torn
 * append). The same with bursts of appends issued in one event turn (one store batch: the records and one metadata
 * write): after every kill the session still lists first, for the owner reopening and for a read-only reader, with
 * its stored record count, a last-update time no older than its last record, and its title. Also the second net across processes: a live holder → SESSION_STORE_LOCKED; dead holder → free.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../../src/core/sessions/openSessionStore.js';
import { openSessionReader } from '../../../src/core/sessions/openSessionReader.js';
import { requireDist, startFixture, type LineChild } from '../../support/childLines.js';

const ROUNDS = 20;
const BURST = 16;
const BURST_ROUNDS = 10;
let dir: string;
const children: LineChild[] = [];

beforeAll(() => requireDist('core/sessions/openSessionStore.js'));
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ff-crash-'));
});
afterEach(async () => {
  for (const c of children.splice(0)) {
    c.child.kill('SIGKILL');
    await c.exited();
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('session store under SIGKILL', () => {
  it(`keeps every commit a killed writer reported, over ${ROUNDS} random kills`, async () => {
    let sessionId: string | undefined;
    const reported = new Set<number>();
    let totalStored = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const child = startFixture('appendLoop.mjs', sessionId === undefined ? [dir] : [dir, sessionId]);
      children.push(child);
      const ready = await child.waitFor((l) => l.startsWith('READY '));
      sessionId = ready.slice('READY '.length);
      // Kill at a random moment: sometimes before the first commit, mostly mid-loop.
      if (Math.random() < 0.8) await child.waitFor((l) => /^\d+$/.test(l));
      await sleep(Math.floor(Math.random() * 150));
      child.child.kill('SIGKILL');
      await child.exited();
      children.splice(children.indexOf(child), 1);
      for (const line of child.lines) if (/^\d+$/.test(line)) reported.add(Number(line));

      const opened = openSessionStore({ workspaceDir: dir });
      expect(opened.warning).toBeNull();
      const store = opened.store!;
      try {
        const { records, skipped } = store.records(sessionId);
        const stored = new Set(records.map((r) => r.seq));
        const missing = [...reported].filter((seq) => !stored.has(seq));
        expect(missing).toEqual([]);
        expect(skipped).toEqual({ futureVersion: 0, malformed: 0 });
        expect(store.open(sessionId).recordCount).toBe(records.length);
        totalStored = records.length;
      } finally {
        await store.close();
      }
    }
    expect(reported.size).toBeGreaterThan(0);
    process.stderr.write(`[crash test] rounds=${ROUNDS} reported_commits=${reported.size} stored_records=${totalStored}\n`);
  }, 90_000);

  it(`bursts of ${BURST} appends (one metadata write each): after ${BURST_ROUNDS} kills the session lists with its stored count, time and title`, async () => {
    // An older session, so "lists first" means the crashed session's metadata moved on.
    const older = openSessionStore({ workspaceDir: dir, now: () => 1000 }).store!;
    await older.create();
    await older.close();
    let sessionId = '-';
    const reported = new Set<number>();
    for (let round = 0; round < BURST_ROUNDS; round += 1) {
      const child = startFixture('appendLoop.mjs', [dir, sessionId, String(BURST), '  Crash\n loop   title ']);
      children.push(child);
      sessionId = (await child.waitFor((l) => l.startsWith('READY '))).slice('READY '.length);
      if (round === 0 || Math.random() < 0.8) await child.waitFor((l) => /^\d+$/.test(l));
      await sleep(Math.floor(Math.random() * 150));
      child.child.kill('SIGKILL');
      await child.exited();
      children.splice(children.indexOf(child), 1);
      for (const line of child.lines) if (/^\d+$/.test(line)) reported.add(Number(line));

      const store = openSessionStore({ workspaceDir: dir }).store!;
      try {
        const { records } = store.records(sessionId);
        const stored = new Set(records.map((r) => r.seq));
        expect([...reported].filter((seq) => !stored.has(seq))).toEqual([]);
        const lastTs = Math.max(...records.map((r) => (r.kind === 'message' ? r.message.tsMs : r.kind === 'turn' ? r.tsMs : 0)));
        const reader = openSessionReader(dir, { atRest: true })!;
        try {
          for (const listed of [store.list(), reader.list()]) {
            expect(listed.map((m) => m.id)).toHaveLength(2);
            const meta = listed[0]!;
            expect(meta.id).toBe(sessionId);
            expect(meta.recordCount).toBe(records.length);
            expect(meta.updatedAtMs).toBeGreaterThanOrEqual(lastTs);
            expect(meta.title).toBe('Crash loop title');
          }
        } finally {
          await reader.close();
        }
      } finally {
        await store.close();
      }
    }
    expect(reported.size).toBeGreaterThan(BURST);
  }, 90_000);

  it('another process holding the store → SESSION_STORE_LOCKED; after it is killed the store opens', async () => {
    const holder = startFixture('holdStore.mjs', [dir]);
    children.push(holder);
    await holder.waitFor((l) => l === 'READY');
    expect(() => openSessionStore({ workspaceDir: dir })).toThrow(expect.objectContaining({ code: 'SESSION_STORE_LOCKED' }));
    holder.child.kill('SIGKILL');
    await holder.exited();
    children.splice(0);
    const opened = openSessionStore({ workspaceDir: dir });
    expect(opened.store).not.toBeNull();
    await opened.store!.close();
  });
});
