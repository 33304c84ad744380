/**
 * The held-village guess of a cold `ask` (heldVillageGuess.ts): `/proc/locks` parsing as a table, then the real
 * thing — the village lock taken through the same OS lock a serve takes, seen from /proc/locks, and gone on release.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deviceNumbers, lockLooksHeld, procLocksHold, type FileId } from '../../src/cli/ask/heldVillageGuess.js';
import { acquireVillageLock } from '../../src/host/villageLock.js';

const FILE: FileId = { major: 0n, minor: 0x2fn, ino: 1315n };

describe('procLocksHold', () => {
  const cases: Array<[string, string, boolean]> = [
    ['a flock on the file', '1: FLOCK  ADVISORY  WRITE 4242 00:2f:1315 0 EOF', true],
    ['a POSIX lock on the file', '2: POSIX  ADVISORY  WRITE 4242 00:2f:1315 0 EOF', true],
    ['another inode', '1: FLOCK  ADVISORY  WRITE 4242 00:2f:1316 0 EOF', false],
    ['another device', '1: FLOCK  ADVISORY  WRITE 4242 00:30:1315 0 EOF', false],
    ['a waiter holds nothing', '1: -> FLOCK  ADVISORY  WRITE 4243 00:2f:1315 0 EOF', false],
    ['among other lines', '1: POSIX  ADVISORY  READ 10 fd:01:99 0 EOF\n2: FLOCK  ADVISORY  WRITE 4242 00:2f:1315 0 EOF\n', true],
    ['empty', '', false],
    ['garbage', 'not a lock line at all\n1: FLOCK x y z zz:2f:1315', false],
  ];
  it.each(cases)('%s', (_name, text, held) => {
    expect(procLocksHold(text, FILE)).toBe(held);
  });

  it('device numbers follow glibc: small and large majors and minors', () => {
    expect(deviceNumbers(0x2fn)).toEqual({ major: 0n, minor: 0x2fn });
    expect(deviceNumbers(0xfd01n)).toEqual({ major: 0xfdn, minor: 0x01n });
    // makedev(0x123, 0x45678) = minor low 8 | major << 8 (12 bits) | minor high << 12 | major high << 32
    const dev = (0x45678n & 0xffn) | ((0x123n & 0xfffn) << 8n) | ((0x45678n & ~0xffn) << 12n) | ((0x123n & ~0xfffn) << 32n);
    expect(deviceNumbers(dev)).toEqual({ major: 0x123n, minor: 0x45678n });
  });
});

describe.runIf(process.platform === 'linux')('lockLooksHeld (real OS lock, real /proc/locks)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('sees the village lock while it is held, and not before or after', () => {
    const workspace = mkdtempSync(join(tmpdir(), 'ff-held-'));
    dirs.push(workspace);
    const lockFile = join(workspace, '.fuseforks.lock');
    expect(lockLooksHeld(lockFile)).toBe(false); // no file yet
    writeFileSync(lockFile, '');
    expect(statSync(lockFile).size).toBe(0);
    expect(lockLooksHeld(lockFile)).toBe(false); // a file nobody locks
    const lock = acquireVillageLock(workspace);
    try {
      expect(lockLooksHeld(lockFile)).toBe(true);
    } finally {
      lock.release();
    }
    expect(lockLooksHeld(lockFile)).toBe(false);
  });
});
