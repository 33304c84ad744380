/**
 * An OS advisory exclusive lock (flock, see `flock.ts`) on a dedicated, never-written file.
 *
 * Why flock: the kernel drops it when the holder dies (no stale-lock cleanup), and it belongs to the open
 * file description, so a second open in the same process is refused too. fcntl locks are not used because
 * closing any other handle to the file silently drops them. The file is opened in append mode so nothing
 * is ever truncated, and it is never unlinked (unlinking would let two processes lock two different inodes).
 */
import fs from 'node:fs';
import path from 'node:path';
import { flockExclusiveNonBlocking, flockUnlock } from './flock.js';
import { makePrivateDirSync, PRIVATE_FILE_MODE } from './privateFiles.js';

/** A held lock. `release()` unlocks and closes; it never deletes the file. Idempotent. */
export interface ExclusiveLock {
  readonly path: string;
  release(): void;
}

/** Why the lock could not be taken: `held` elsewhere, OS has `no_locks` here, or the file could not be opened (`io`). */
export type LockFailure = 'held' | 'no_locks' | 'io';

export type LockAttempt =
  | { ok: true; lock: ExclusiveLock }
  | { ok: false; failure: LockFailure; errno: string; cause: unknown };

const HELD = new Set(['EAGAIN', 'EWOULDBLOCK']);
const NO_LOCKS = new Set(['ENOLCK', 'EOPNOTSUPP', 'ENOTSUP', 'ENOSYS']);

function errnoOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'UNKNOWN';
}

/** Classifies a flock errno (pure; table-tested). */
export function classifyLockErrno(errno: string): LockFailure {
  if (HELD.has(errno)) return 'held';
  if (NO_LOCKS.has(errno)) return 'no_locks';
  return 'io';
}

/** Creates the parent directory, opens `lockPath` (append, never truncate) and takes a non-blocking flock. */
export function tryExclusiveLock(lockPath: string): LockAttempt {
  let fd: number;
  try {
    makePrivateDirSync(path.dirname(lockPath));
    fd = fs.openSync(lockPath, 'a', PRIVATE_FILE_MODE);
  } catch (cause) {
    return { ok: false, failure: 'io', errno: errnoOf(cause), cause };
  }
  try {
    flockExclusiveNonBlocking(fd);
  } catch (cause) {
    fs.closeSync(fd);
    const errno = errnoOf(cause);
    return { ok: false, failure: classifyLockErrno(errno), errno, cause };
  }
  let open = true;
  return {
    ok: true,
    lock: {
      path: lockPath,
      release(): void {
        if (!open) return;
        open = false;
        try {
          flockUnlock(fd);
        } finally {
          // Closing the last descriptor releases the flock anyway; unlock first so the order is explicit.
          fs.closeSync(fd);
        }
      },
    },
  };
}
