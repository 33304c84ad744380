/**
 * Whether another process holds a village's lock, asked before `ask` spawns its agent workers (earlyPrewarm.ts):
 * when a `serve` holds the village the ask goes through its door, and five bootstraps on the daemon's host would be
 * spent for nothing. The probe takes the lock without waiting and gives it back at once; the host takes it for real
 * later. It loads the lock's FFI binding a little earlier than the host would (the same module, loaded once), and
 * never creates the lock file: a village that never ran has none, and a rejected preflight must leave nothing behind.
 * (Reading `/proc/locks` instead was measured at 8–20 ms of wall time per read here, more than the binding costs.)
 */
import { existsSync } from 'node:fs';
import { tryExclusiveLock } from '../../core/exclusiveLock.js';

/** True when another open file holds `lockFile`'s lock right now; false when it is free, absent, or on any doubt. */
export function villageLockHeld(lockFile: string): boolean {
  try {
    if (!existsSync(lockFile)) return false;
    const attempt = tryExclusiveLock(lockFile);
    if (attempt.ok) {
      attempt.lock.release();
      return false;
    }
    return attempt.failure === 'held';
  } catch {
    return false;
  }
}
