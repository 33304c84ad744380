/**
 * The session store on real LMDB in temp dirs: durability across close/reopen, fork, export, delete,
 * restore, validation on read, and the two nets of open (lock held → SESSION_STORE_LOCKED; corrupt → WARN).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../../src/core/events.js';
import { MemoryDiagSink } from '../../../src/core/diag.js';
import { openSessionStore } from '../../../src/core/sessions/openSessionStore.js';
import { openSessionReader } from '../../../src/core/sessions/openSessionReader.js';
import type { SessionStore } from '../../../src/core/sessions/sessionStore.js';
import { CURRENT_RECORD_VERSION, type SessionRecordBody } from '../../../src/core/sessions/records.js';
import { readFixture, V1_FIXTURES, V2_FIXTURES } from './fixtures.js';

let dir: string;
const opened: SessionStore[] = [];

function openStore(now?: () => number): SessionStore {
  const result = openSessionStore({ workspaceDir: dir, ...(now === undefined ? {} : { now }) });
  if (result.store === null) throw new Error(`expected a store, got warning: ${result.warning}`);
  opened.push(result.store);
  return result.store;
}

function userMessage(content: string, tsMs = 1): SessionRecordBody {
  const message: AgentMessage = { id: `id-${content}`, from: { kind: 'user' }, to: { kind: 'agent', id: 'a' }, content, tokens: 0, tsMs, hop: 0 };
  return { kind: 'message', message };
}
const exchange = (agentId: string, sent: string): SessionRecordBody => ({ kind: 'exchange', agentId, sent, replied: `re:${sent}` });

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ff-sessions-'));
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('session store on real LMDB', () => {
  it('a record appended is readable after close and reopen, with meta updated in the same commit', async () => {
    const store = openStore();
    const meta = await store.create();
    expect(await store.append(meta.id, userMessage('  Plan the\n launch  please, with all the details you have'))).toBe(0);
    expect(await store.append(meta.id, exchange('a', 'sent-0'))).toBe(1);
    await store.close();

    const again = openStore();
    const reread = again.open(meta.id);
    expect(reread.recordCount).toBe(2);
    expect(reread.title).toBe('Plan the launch please, with a');
    const { records, skipped } = again.records(meta.id);
    expect(records.map((r) => [r.seq, r.kind])).toEqual([[0, 'message'], [1, 'exchange']]);
    expect(skipped).toEqual({ futureVersion: 0, malformed: 0 });
    expect(await again.append(meta.id, exchange('a', 'sent-2'))).toBe(2);
  });

  it('appends issued together get distinct monotonic seqs', async () => {
    const store = openStore();
    const { id } = await store.create();
    const seqs = await Promise.all(Array.from({ length: 50 }, (_, i) => store.append(id, exchange('a', `s${i}`))));
    expect(seqs).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(store.lastSeq(id)).toBe(49);
    expect(store.open(id).recordCount).toBe(50);
  });

  it('appends to two sessions in one event turn and in later microtasks of it: each batch commits its records with its metadata; metas handed out before stay as they were', async () => {
    let clock = 5000;
    const store = openStore(() => clock);
    const a = await store.create();
    const b = await store.create();
    const before = store.open(a.id);
    const asItWas = structuredClone(before);
    clock = 6000;
    const first = [store.append(a.id, exchange('a', 'a0')), store.append(b.id, userMessage('for b')), store.append(a.id, exchange('a', 'a1'))];
    await Promise.resolve(); // the batches of this turn have closed; these open new ones, still in the same turn
    clock = 7000;
    const later = [store.append(a.id, userMessage('late title')), store.append(b.id, exchange('b', 'b1'))];
    expect(await Promise.all([...first, ...later])).toEqual([0, 0, 1, 2, 1]);
    expect(before).toEqual(asItWas);
    const reader = openSessionReader(dir, { atRest: false })!;
    try {
      for (const listed of [store.list(), reader.list()]) {
        expect(listed.map((m) => [m.id, m.recordCount, m.updatedAtMs, m.title])).toEqual(
          [[b.id, 2, 7000, 'for b'], [a.id, 3, 7000, 'late title']].sort((x, y) => (x[0]! < y[0]! ? 1 : -1)),
        );
      }
    } finally {
      await reader.close();
    }
  });

  it('a record lmdb cannot encode rejects with SESSION_STORE_FAILED; nothing is counted and the next append takes its seq', async () => {
    const store = openStore();
    const { id } = await store.create();
    expect(await store.append(id, exchange('a', 'ok'))).toBe(0);
    const unencodable = { kind: 'exchange', agentId: 'a', sent: 2n ** 70n, replied: 'r' } as unknown as SessionRecordBody;
    let returned: Promise<number> | undefined;
    expect(() => (returned = store.append(id, unencodable))).not.toThrow();
    await expect(returned).rejects.toMatchObject({ code: 'SESSION_STORE_FAILED', details: { sessionId: id } });
    expect(store.open(id).recordCount).toBe(1);
    expect(await store.append(id, exchange('a', 'next'))).toBe(1);
    await store.close();
    const again = openStore();
    expect(again.open(id).recordCount).toBe(2);
    expect(again.records(id).records.map((r) => (r.kind === 'exchange' ? r.sent : r.kind))).toEqual(['ok', 'next']);
  });

  it('continueLatest picks the highest updatedAtMs, not the id order', async () => {
    let clock = 1000;
    const store = openStore(() => clock);
    const first = await store.create();
    clock = 2000;
    await store.create();
    clock = 3000;
    await store.append(first.id, exchange('a', 'x'));
    expect((await store.continueLatest()).id).toBe(first.id);
    expect(store.list().map((m) => m.id)[0]).toBe(first.id);
  });

  it('an empty store continues into a new session', async () => {
    const store = openStore();
    const meta = await store.continueLatest();
    expect(store.list()).toEqual([meta]);
  });

  it('unknown ids are SESSION_NOT_FOUND, delete of an unknown id is a no-op', async () => {
    const store = openStore();
    expect(() => store.open('nope')).toThrow(expect.objectContaining({ code: 'SESSION_NOT_FOUND' }));
    expect(() => store.restore('nope')).toThrow(expect.objectContaining({ code: 'SESSION_NOT_FOUND' }));
    await expect(store.append('nope', exchange('a', 'x'))).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect(await store.delete('nope')).toBe(false);
  });

  it('fork copies exactly the records up to and including atSeq, keeping seqs; the source is untouched', async () => {
    const store = openStore();
    const { id } = await store.create();
    for (let i = 0; i < 6; i += 1) await store.append(id, i % 2 === 0 ? userMessage(`u${i}`) : exchange('a', `e${i}`));
    const fork = await store.fork(id, 3);
    expect(fork.forkedFrom).toEqual({ sessionId: id, atSeq: 3 });
    expect(fork.recordCount).toBe(4);
    expect(fork.title).toBe('u0');
    expect(store.records(fork.id).records).toEqual(store.records(id, 0, 3).records);
    expect(store.records(id).records).toHaveLength(6);
    expect(await store.append(fork.id, exchange('a', 'after'))).toBe(4);
    await expect(store.fork(id, 6)).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
  });

  it('export writes exports/{id}.jsonl: a header then exactly one line per record', async () => {
    const store = openStore();
    const { id } = await store.create();
    await store.append(id, userMessage('hello'));
    await store.append(id, exchange('a', 'folded hello'));
    await store.append(id, { kind: 'summary', agentId: 'a', text: 'short', coversUpToSeq: 1 });
    const result = store.exportJsonl(id);
    expect(result.path).toBe(path.join(dir, 'exports', `${id}.jsonl`));
    const lines = fs.readFileSync(result.path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({ session: { id, meta: { recordCount: 3, title: 'hello' } } });
    expect(lines[0]).not.toHaveProperty('kind');
    expect(lines.slice(1).map((l) => [l.seq, l.kind])).toEqual([[0, 'message'], [1, 'exchange'], [2, 'summary']]);
    expect(lines[2]).toEqual({ seq: 1, kind: 'exchange', v: CURRENT_RECORD_VERSION, agentId: 'a', sent: 'folded hello', replied: 're:folded hello' });
    expect(fs.readdirSync(path.join(dir, 'exports'))).toEqual([`${id}.jsonl`]);
  });

  it('delete removes the meta and every record', async () => {
    const store = openStore();
    const keep = await store.create();
    const gone = await store.create();
    await store.append(gone.id, exchange('a', 'x'));
    await store.append(keep.id, exchange('a', 'y'));
    expect(await store.delete(gone.id)).toBe(true);
    expect(store.list().map((m) => m.id)).toEqual([keep.id]);
    await store.close();
    const again = openStore();
    expect(() => again.records(gone.id)).toThrow(expect.objectContaining({ code: 'SESSION_NOT_FOUND' }));
    expect(again.records(keep.id).records).toHaveLength(1);
  });

  it('restore rebuilds histories from exchanges only and counts the rest', async () => {
    const store = openStore();
    const { id } = await store.create();
    await store.append(id, userMessage('question'));
    for (let i = 0; i < 10; i += 1) await store.append(id, exchange('a', `a${i}`));
    await store.append(id, exchange('b', 'b0'));
    const restored = store.restore(id);
    expect(restored.logTail.map((m) => m.content)).toEqual(['question']);
    expect(restored.histories.get('a')?.map((e) => e.sent)).toEqual(['a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9']);
    expect(restored.histories.get('b')).toEqual([{ sent: 'b0', replied: 're:b0' }]);
    expect(restored.counts).toMatchObject({ messages: 1, histories: 2, summaries: 0 });
  });

  it('reads the frozen corpus: v1 and v2 records restored, malformed and future-version skipped with counts', async () => {
    const store = openStore();
    const { id } = await store.create();
    await store.close();
    // Write the fixture values raw, behind the store's back, exactly as an older or newer build would have.
    const env = open({ path: path.join(dir, 'sessions.mdb'), overlappingSync: false, maxDbs: 4 });
    const records = env.openDB<unknown, [string, number]>({ name: 'records' });
    const names = [...V1_FIXTURES, 'malformed.json', 'future.v99.json', ...V2_FIXTURES];
    names.forEach((name, seq) => void records.put([id, seq], readFixture(name)));
    await records.committed;
    await env.close();

    const again = openStore();
    const read = again.records(id);
    expect(read.records.map((r) => r.kind)).toEqual(['message', 'exchange', 'summary', 'turn', 'turn', 'call', 'toolResult']);
    expect(read.skipped).toEqual({ futureVersion: 1, malformed: 1 });
    const restored = again.restore(id);
    expect(restored.counts.skipped).toEqual({ futureVersion: 1, malformed: 1 });
    expect(restored.summaries.get('planner')).toEqual({ text: 'We agreed on a Friday launch.', coversUpToSeq: 1 });
    expect(restored.histories.has('planner')).toBe(false);
    expect(restored.counts.turns).toBe(2);
  });

  it('a second open of the same store is refused with SESSION_STORE_LOCKED (the second net)', () => {
    openStore();
    expect(() => openSessionStore({ workspaceDir: dir })).toThrow(expect.objectContaining({ code: 'SESSION_STORE_LOCKED' }));
  });

  it('a corrupt store file gives store: null, SESSION_STORE_CORRUPT and one WARN with reason and fix, and leaves the file alone', () => {
    const garbage = Buffer.alloc(64 * 1024, 0x5a);
    fs.writeFileSync(path.join(dir, 'sessions.mdb'), garbage);
    const diag = new MemoryDiagSink();
    const result = openSessionStore({ workspaceDir: dir, diag });
    expect(result.store).toBeNull();
    expect(result.store === null && result.code).toBe('SESSION_STORE_CORRUPT');
    expect(result.warning).toMatch(/session store: .*sessions\.mdb is damaged .*WITHOUT saving.*move .*aside/);
    expect(diag.notes).toEqual([expect.objectContaining({ kind: 'session store', level: 'warn' })]);
    expect(diag.notes[0]?.fields).toMatchObject({ code: 'SESSION_STORE_CORRUPT', reason: { diagText: expect.stringMatching(/meta page|magic/) } });
    // lmdb never opened it: not even its lock file was made.
    expect(fs.existsSync(path.join(dir, 'sessions.mdb-lock'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'sessions.mdb')).equals(garbage)).toBe(true);
    // The lock was released on the failure path: after a repair, the store opens in this same process.
    fs.rmSync(path.join(dir, 'sessions.mdb'));
    fs.rmSync(path.join(dir, 'sessions.mdb-lock'), { force: true });
    expect(openStore()).toBeDefined();
  });
});
