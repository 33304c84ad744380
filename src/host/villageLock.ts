/**
 * The village lock: the one mechanism that decides which process owns a village
 * (`workspace/.fuseforks.lock`, OS flock). Taken before anything else is opened, so a refused start writes
 * nothing — not even a log line. The file stays empty and is never deleted; the OS releases the lock when
 * the holder dies, however it dies.
 */
import path from 'node:path';
import { tryExclusiveLock, type ExclusiveLock } from '../core/exclusiveLock.js';
import { lockFileUnusable, noOsLocks, villageLockHeld } from '../core/errors/hostErrors.js';

/** File name of the village lock inside the workspace. */
export const VILLAGE_LOCK_FILE = '.fuseforks.lock';

/** A held village lock; `release()` unlocks and closes (never unlinks). */
export type VillageLock = ExclusiveLock;

/**
 * Takes the village lock for `workspaceDir` (created if missing).
 * Throws `LOCK_HELD` when another process (or another open in this one) holds it, `LOCK_IO` when the file
 * cannot be created/opened or the filesystem has no OS locks.
 */
export function acquireVillageLock(workspaceDir: string): VillageLock {
  const lockPath = path.join(workspaceDir, VILLAGE_LOCK_FILE);
  const attempt = tryExclusiveLock(lockPath);
  if (attempt.ok) return attempt.lock;
  switch (attempt.failure) {
    case 'held':
      throw villageLockHeld(lockPath, attempt.errno, attempt.cause);
    case 'no_locks':
      throw noOsLocks(lockPath, attempt.errno, attempt.cause);
    case 'io':
      throw lockFileUnusable(lockPath, attempt.errno, attempt.cause);
  }
}
