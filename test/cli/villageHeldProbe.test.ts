/**
 * The held-village probe of a cold `ask` (villageHeldProbe.ts) against the real OS lock a serve takes: held while
 * another open file holds it, free before and after, and a village without a lock file gets none from the probe.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { villageLockHeld } from '../../src/cli/ask/villageHeldProbe.js';
import { acquireVillageLock, VILLAGE_LOCK_FILE } from '../../src/host/villageLock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('villageLockHeld (real OS lock)', () => {
  it('is true only while another holder has the village lock, and the probe itself leaves the lock free', () => {
    const workspace = mkdtempSync(join(tmpdir(), 'ff-held-'));
    dirs.push(workspace);
    const lockFile = join(workspace, VILLAGE_LOCK_FILE);
    writeFileSync(lockFile, '');
    expect(villageLockHeld(lockFile)).toBe(false);
    const lock = acquireVillageLock(workspace);
    try {
      expect(villageLockHeld(lockFile)).toBe(true);
    } finally {
      lock.release();
    }
    expect(villageLockHeld(lockFile)).toBe(false);
    // The probe gave the lock back: the host can take it.
    acquireVillageLock(workspace).release();
  });

  it('a village that never ran has no lock file, and the probe creates none', () => {
    const workspace = mkdtempSync(join(tmpdir(), 'ff-held-'));
    dirs.push(workspace);
    const lockFile = join(workspace, VILLAGE_LOCK_FILE);
    expect(villageLockHeld(lockFile)).toBe(false);
    expect(existsSync(lockFile)).toBe(false);
  });
});
