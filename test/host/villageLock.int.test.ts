/**
 * The village lock with real flock and real processes: refused in the same process and from another one,
 * free again after the holder exits or is SIGKILLed (polled; the latency is printed for the report, never
 * asserted), LOCK_IO when the file cannot be created, and the lock file is never deleted and stays empty.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { classifyLockErrno } from '../../src/core/exclusiveLock.js';
import { acquireVillageLock, VILLAGE_LOCK_FILE, type VillageLock } from '../../src/host/villageLock.js';
import { requireDist, startFixture, type LineChild } from '../support/childLines.js';

let dir: string;
const held: VillageLock[] = [];
const children: LineChild[] = [];

beforeAll(() => requireDist('host/villageLock.js'));
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ff-vlock-'));
});
afterEach(async () => {
  for (const lock of held.splice(0)) lock.release();
  for (const c of children.splice(0)) {
    c.child.kill('SIGKILL');
    await c.exited();
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

function acquire(workspace = dir): VillageLock {
  const lock = acquireVillageLock(workspace);
  held.push(lock);
  return lock;
}

/** Polls until the lock is free; returns ms from `sinceMs` (reported, never asserted). */
async function pollAcquire(sinceMs: number): Promise<number> {
  for (;;) {
    try {
      acquire();
      return performance.now() - sinceMs;
    } catch (error) {
      if ((error as { code?: string }).code !== 'LOCK_HELD') throw error;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}

const lockFile = () => path.join(dir, VILLAGE_LOCK_FILE);

describe('acquireVillageLock', () => {
  it('creates the workspace, holds an empty lock file, and a second acquire in the same process is refused', () => {
    const workspace = path.join(dir, 'new', 'workspace');
    const lock = acquire(workspace);
    expect(lock.path).toBe(path.join(workspace, VILLAGE_LOCK_FILE));
    let refused: unknown;
    try {
      acquireVillageLock(workspace);
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ code: 'LOCK_HELD', details: { path: lock.path } });
    expect((refused as Error).message).toContain('This village is open in another process (the Fuseforks GUI or fuseforks-cli)');
    expect((refused as Error).message).toContain(lock.path);
    expect((refused as { fix?: string }).fix).toMatch(/Close the other/);
    lock.release();
    lock.release();
    expect(acquire(workspace)).toBeDefined();
    expect(fs.statSync(lock.path).size).toBe(0);
  });

  it('another process holding it → LOCK_HELD; after a SIGKILL it is acquired; the file survives, empty', async () => {
    const holder = startFixture('holdVillageLock.mjs', [dir]);
    children.push(holder);
    expect(await holder.waitFor((l) => l === 'LOCKED' || l.startsWith('REFUSED'))).toBe('LOCKED');
    expect(() => acquireVillageLock(dir)).toThrow(expect.objectContaining({ code: 'LOCK_HELD' }));
    const killedAt = performance.now();
    holder.child.kill('SIGKILL');
    const latency = await pollAcquire(killedAt);
    process.stderr.write(`[village lock] free after SIGKILL in ${latency.toFixed(1)} ms\n`);
    expect(fs.existsSync(lockFile())).toBe(true);
    expect(fs.statSync(lockFile()).size).toBe(0);
  });

  it('a holder that exits normally frees it; a child is refused while this process holds it', async () => {
    const holder = startFixture('holdVillageLock.mjs', [dir, 'exit-on-stdin']);
    children.push(holder);
    await holder.waitFor((l) => l === 'LOCKED');
    const askedAt = performance.now();
    holder.child.stdin!.write('bye\n');
    const latency = await pollAcquire(askedAt);
    process.stderr.write(`[village lock] free after a normal exit in ${latency.toFixed(1)} ms\n`);

    const refused = startFixture('holdVillageLock.mjs', [dir]);
    children.push(refused);
    expect(await refused.waitFor((l) => l === 'LOCKED' || l.startsWith('REFUSED'))).toBe('REFUSED LOCK_HELD');
    expect(fs.statSync(lockFile()).size).toBe(0);
  });

  it('a workspace that cannot be created is LOCK_IO with a different fix', () => {
    const blocker = path.join(dir, 'a-file');
    fs.writeFileSync(blocker, 'not a folder');
    let error: unknown;
    try {
      acquireVillageLock(path.join(blocker, 'workspace'));
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'LOCK_IO' });
    expect((error as Error).message).toContain(path.join(blocker, 'workspace', VILLAGE_LOCK_FILE));
    expect((error as { fix?: string }).fix).toMatch(/writable/);
  });

  it.each([
    ['EAGAIN', 'held'],
    ['EWOULDBLOCK', 'held'],
    ['ENOLCK', 'no_locks'],
    ['EOPNOTSUPP', 'no_locks'],
    ['ENOTSUP', 'no_locks'],
    ['EACCES', 'io'],
    ['EBADF', 'io'],
  ])('classifies %s as %s', (errno, failure) => {
    expect(classifyLockErrno(errno)).toBe(failure);
  });
});
