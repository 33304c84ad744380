/**
 * Migration of the record encoding (recordCodec.ts): a store written by the previous code (lmdb's own msgpack,
 * committed fixture) opens and reads exactly as that code read it, takes new records in the new encoding, and
 * reads both kinds after a reopen. The fixture itself is never written (tests work on a copy).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../../src/core/sessions/openSessionStore.js';
import { CODEC_MARK } from '../../../src/core/sessions/recordCodec.js';
import type { SessionStore } from '../../../src/core/sessions/sessionStore.js';

const FIXTURE = new URL('../../fixtures/sessions/legacy-store/', import.meta.url).pathname;
const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8')) as {
  sessions: Array<{ id: string }>;
  records: Record<string, unknown>;
};
const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function copyFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ff-legacy-'));
  dirs.push(dir);
  copyFileSync(join(FIXTURE, 'sessions.mdb'), join(dir, 'sessions.mdb'));
  return dir;
}

function openStore(dir: string): SessionStore {
  const opened = openSessionStore({ workspaceDir: dir });
  if (opened.store === null) throw new Error(opened.warning);
  return opened.store;
}

const readAll = (store: SessionStore) => ({
  sessions: store.list(),
  records: Object.fromEntries(store.list().map((m) => [m.id, store.records(m.id)])),
});

describe('a session store written before the msgpackr codec', () => {
  it('opens and reads identically: every session, every record, nothing skipped', async () => {
    const before = sha(join(FIXTURE, 'sessions.mdb'));
    const store = openStore(copyFixture());
    expect(readAll(store)).toEqual(expected);
    expect(store.restore(expected.sessions.at(-1)!.id).counts.skipped).toEqual({ futureVersion: 0, malformed: 0 });
    await store.close();
    expect(sha(join(FIXTURE, 'sessions.mdb'))).toBe(before);
  });

  it('new records go in the new encoding; after a reopen old and new read side by side', async () => {
    const dir = copyFixture();
    const store = openStore(dir);
    const id = expected.sessions.at(-1)!.id;
    const oldRecords = store.records(id).records;
    const turn = {
      kind: 'turn' as const, agentId: 'planner', tsMs: 1767225700000, hop: 100, rounds: 65, waves: 64, stop: { kind: 'completed' as const },
      prompt: 127, cached: 64, completion: 99, reasoning: 0, cacheWrite: 0, cacheWrite1h: 70, model: 'm', backend: 'b', elapsedMs: 66,
    };
    const seq = await store.append(id, turn);
    const message = { kind: 'message' as const, message: { id: 'new-1', from: { kind: 'user' as const }, to: { kind: 'agent' as const, id: 'planner' }, content: '新しい', tokens: 80, tsMs: 1767225700001, hop: 0 } };
    await store.append(id, message);
    await store.close();

    const again = openStore(dir);
    const records = again.records(id);
    expect(records.skipped).toEqual({ futureVersion: 0, malformed: 0 });
    expect(records.records.slice(0, oldRecords.length)).toEqual(oldRecords);
    expect(records.records.slice(oldRecords.length)).toEqual([
      { ...turn, v: expect.any(Number), seq },
      { ...message, v: expect.any(Number), seq: seq + 1 },
    ]);
    for (const other of expected.sessions) if (other.id !== id) expect(again.records(other.id)).toEqual(expected.records[other.id]);
    await again.close();

    // On disk: the old values as they were, the new ones behind the codec's prefix.
    const env = open({ path: join(dir, 'sessions.mdb'), maxDbs: 4, overlappingSync: false });
    const raw = env.openDB<Buffer, [string, number]>({ name: 'records', encoding: 'binary' });
    const first = [...raw.getRange({ start: [id, 0], end: [id, 1] })][0]!.value;
    const added = raw.getBinary([id, seq])!;
    expect(first[0]).not.toBe(CODEC_MARK);
    expect(added[0]).toBe(CODEC_MARK);
    await env.close();
  });
});
