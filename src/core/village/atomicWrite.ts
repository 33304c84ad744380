/**
 * Atomic file replacement: write a temp file in the same folder, fsync it, rename it over the target, then fsync
 * the folder (best effort). A reader sees the old file or the new one, never a torn one; a crash leaves at most
 * a stray `.tmp` beside the target.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { atomicWriteFailed } from '../errors/configErrors.js';
import { PRIVATE_FILE_MODE } from '../privateFiles.js';

/** Options of `writeFileAtomic`. */
export interface AtomicWriteOptions {
  /** File mode of the new file; default 0o600 (private whatever the umask: files the runtime writes are the user's). */
  mode?: number;
}

/** Replaces `path` with `data` atomically. Throws CONFIG_IO naming the file on failure; the old file stays intact. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = dirname(path);
  // Same folder = same file system, so rename is atomic; the random part keeps concurrent writers apart.
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', options.mode ?? PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw atomicWriteFailed(path, dir, reason, error);
  }
  await syncDir(dir);
}

/** Makes the rename durable. Windows cannot open a folder for sync, and some file systems refuse: both are fine. */
async function syncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The data itself is already synced; only the directory entry's durability is best effort.
  }
}
