/**
 * Who holds a flock, read from Linux's `/proc/locks` — without taking or even trying the lock, so `check` stays
 * read-only and can never make a starting `serve` fail. Other systems answer "unknown" (null).
 */
import fs from 'node:fs';

/** The lock holder: a process id, or `held` with no pid shown; `free`; null when this system cannot tell. */
export type LockHolder = { held: true; pid: number | null } | { held: false } | null;

/** Linux's st_dev → the `major:minor` text /proc/locks uses (hex, two digits at least). Pure. */
export function deviceText(dev: number): string {
  const major = Number((BigInt(dev) >> 8n) & 0xfffn) | Number((BigInt(dev) >> 32n) & ~0xfffn);
  const minor = Number(BigInt(dev) & 0xffn) | Number((BigInt(dev) >> 12n) & ~0xffn);
  return `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}`;
}

/** The pid holding a FLOCK on `dev`/`ino` in a /proc/locks text; null when none does. Pure. */
export function flockHolderIn(procLocks: string, dev: number, ino: number): { pid: number } | null {
  const want = `${deviceText(dev)}:${ino}`;
  for (const line of procLocks.split('\n')) {
    // "1: FLOCK  ADVISORY  WRITE 12345 08:01:1234567 0 EOF" (a "->" marks a waiter, not a holder)
    const f = line.trim().split(/\s+/);
    if (f[1] !== 'FLOCK' || f[2] === '->') continue;
    if (f[5] === want) return { pid: Number(f[4]) };
  }
  return null;
}

/** Who holds the flock on `lockPath` (a missing file is free). Never opens the file. */
export function lockHolder(lockPath: string): LockHolder {
  if (process.platform !== 'linux') return null;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(lockPath);
  } catch {
    return { held: false };
  }
  let text: string;
  try {
    text = fs.readFileSync('/proc/locks', 'utf8');
  } catch {
    return null;
  }
  const found = flockHolderIn(text, stat.dev, stat.ino);
  return found === null ? { held: false } : { held: true, pid: Number.isFinite(found.pid) ? found.pid : null };
}
