/**
 * Whether another process seems to hold a village's lock, read without taking it: Linux lists every file lock in
 * `/proc/locks` by device and inode. `ask` spawns its agent workers before it even loads the CLI (earlyPrewarm.ts);
 * when a `serve` holds the village the ask goes through its door instead, and five bootstraps on the daemon's
 * host would be spent for nothing. Checking the real lock there would load the FFI binding first (~6 ms on the
 * common path), so this only reads two files. A guess: elsewhere, or on any doubt, it answers false (spawn as before).
 */
import { readFileSync, statSync } from 'node:fs';

/** A file's device (major, minor) and inode, as `/proc/locks` names them. */
export interface FileId {
  major: bigint;
  minor: bigint;
  ino: bigint;
}

/** The major and minor numbers of a Linux `st_dev` (glibc's encoding). Pure. */
export function deviceNumbers(dev: bigint): { major: bigint; minor: bigint } {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  return { major, minor };
}

/**
 * True when `/proc/locks` text lists a granted lock on `file` (waiters, marked `->`, hold nothing). A line reads
 * `1: FLOCK  ADVISORY  WRITE 4242 00:2f:1315 0 EOF`: device in hex, inode in decimal. Pure.
 */
export function procLocksHold(procLocks: string, file: FileId): boolean {
  for (const line of procLocks.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields[1] === '->') continue;
    const id = fields[5]?.split(':');
    if (id?.length !== 3) continue;
    const [major, minor, ino] = id as [string, string, string];
    if (!/^[0-9a-f]+$/i.test(major) || !/^[0-9a-f]+$/i.test(minor) || !/^\d+$/.test(ino)) continue;
    if (BigInt(`0x${major}`) === file.major && BigInt(`0x${minor}`) === file.minor && BigInt(ino) === file.ino) return true;
  }
  return false;
}

/** True when Linux says some process holds a lock on `lockFile`; false when it does not, elsewhere, or on any doubt. */
export function lockLooksHeld(lockFile: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = statSync(lockFile, { bigint: true, throwIfNoEntry: false });
    if (stat === undefined) return false;
    return procLocksHold(readFileSync('/proc/locks', 'utf8'), { ...deviceNumbers(stat.dev), ino: stat.ino });
  } catch {
    return false;
  }
}
