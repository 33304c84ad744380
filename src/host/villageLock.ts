/**
 * The village lock: the one mechanism that decides which process owns a village
 * (`workspace/.fuseforks.lock`, OS flock). Taken before anything else is opened, so a refused start writes
 * nothing — not even a log line. The file stays empty and is never deleted; the OS releases the lock when
 * the holder dies, however it dies.
 */
import path from 'node:path';
import { FuseforksError } from '../core/errors.js';
import { tryExclusiveLock, type ExclusiveLock } from '../core/exclusiveLock.js';

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
  const details = { path: lockPath, errno: attempt.errno };
  switch (attempt.failure) {
    case 'held':
      throw new FuseforksError(
        'LOCK_HELD',
        `This village is open in another process (the Fuseforks GUI or fuseforks-cli): ${lockPath} is locked.`,
        { fix: 'Close the other Fuseforks GUI or fuseforks-cli using this village, then try again.', details, cause: attempt.cause },
      );
    case 'no_locks':
      throw new FuseforksError(
        'LOCK_IO',
        `Cannot lock the village at ${lockPath}: this filesystem does not support OS file locks (${attempt.errno}).`,
        { fix: 'Put the village on a local filesystem (not a network share) that supports flock.', details, cause: attempt.cause },
      );
    case 'io':
      throw new FuseforksError(
        'LOCK_IO',
        `Cannot create or open the village lock file ${lockPath} (${attempt.errno}).`,
        { fix: 'Check that the workspace folder exists and is writable by this user.', details, cause: attempt.cause },
      );
  }
}
