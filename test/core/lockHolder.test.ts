/** Reading a flock's holder from /proc/locks text (pure) and from the live system (a lock this process takes). */
import { mkdtempSync, rmSync } from 'node:fs';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tryExclusiveLock } from '../../src/core/exclusiveLock.js';
import { deviceText, flockHolderIn, lockHolder } from '../../src/core/lockHolder.js';

const LOCKS = [
  '1: POSIX  ADVISORY  WRITE 27870 fe:00:2271182 27870 27870',
  '2: FLOCK  ADVISORY  WRITE 4242 fe:00:5326844 0 EOF',
  '2: -> FLOCK  ADVISORY  WRITE 777 fe:00:5326844 0 EOF',
  '3: FLOCK  ADVISORY  WRITE 31 08:01:5326844 0 EOF',
].join('\n');

describe('lockHolder', () => {
  it('reads the device as /proc/locks writes it (hex major:minor)', () => {
    expect(deviceText(65024)).toBe('fe:00');
    expect(deviceText(2049)).toBe('08:01');
  });

  it('finds the FLOCK holder of one device and inode; POSIX locks, waiters and other devices do not count', () => {
    expect(flockHolderIn(LOCKS, 65024, 5326844)).toEqual({ pid: 4242 });
    expect(flockHolderIn(LOCKS, 2049, 5326844)).toEqual({ pid: 31 });
    expect(flockHolderIn(LOCKS, 65024, 2271182)).toBeNull();
  });

  it.runIf(process.platform === 'linux')('sees a lock this process holds, and a free file as free (a missing file too)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ff-holder-'));
    try {
      const file = join(dir, '.fuseforks.lock');
      expect(lockHolder(file)).toEqual({ held: false });
      const attempt = tryExclusiveLock(file);
      if (!attempt.ok) throw new Error('could not lock');
      expect(statSync(file).size).toBe(0);
      expect(lockHolder(file)).toEqual({ held: true, pid: process.pid });
      attempt.lock.release();
      expect(lockHolder(file)).toEqual({ held: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
