import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryDiagSink } from '../../src/core/diag.js';
import { collectAttachments } from '../../src/host/attachmentGc.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const DAY = 24 * 60 * 60 * 1000;

function workspace(files: Array<[name: string, bytes: number, ageDays: number]>, now: number): string {
  const ws = mkdtempSync(join(tmpdir(), 'ff-gc-'));
  dirs.push(ws);
  mkdirSync(join(ws, 'attachments'));
  for (const [name, bytes, age] of files) {
    const path = join(ws, 'attachments', name);
    writeFileSync(path, Buffer.alloc(bytes));
    const t = (now - age * DAY) / 1000;
    utimesSync(path, t, t);
  }
  return ws;
}

describe('attachment garbage collection at boot', () => {
  it('removes bodies older than 30 days, keeps the rest, and writes one line with counts', async () => {
    const now = Date.now();
    const ws = workspace([['old.png', 10, 40], ['new.pdf', 20, 2]], now);
    const diag = new MemoryDiagSink();
    expect(await collectAttachments(ws, now, diag)).toEqual({ removed: 1, remaining: 1, bytes: 20 });
    expect(readdirSync(join(ws, 'attachments'))).toEqual(['new.pdf']);
    expect(diag.notes.map((n) => n.kind)).toEqual(['attachment gc']);
  });

  it('over the size cap, the oldest go first until the folder fits', async () => {
    const now = Date.now();
    const ws = workspace([['a', 50, 3], ['b', 50, 2], ['c', 50, 1]], now);
    expect(await collectAttachments(ws, now, new MemoryDiagSink(), { retentionMs: 30 * DAY, maxBytes: 100 })).toEqual({ removed: 1, remaining: 2, bytes: 100 });
    expect(readdirSync(join(ws, 'attachments')).sort()).toEqual(['b', 'c']);
  });

  it('a village without attachments is left alone and logs nothing', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'ff-gc-'));
    dirs.push(ws);
    const diag = new MemoryDiagSink();
    expect(await collectAttachments(ws, Date.now(), diag)).toBeNull();
    expect(diag.notes).toEqual([]);
  });
});
