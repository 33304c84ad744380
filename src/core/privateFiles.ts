/**
 * Files and folders the runtime creates are private to the user whatever the umask (issue 28): folders 0700, files
 * 0600. Modes are given where a file or folder is created (the umask can only take bits away, so 0600/0700 survive
 * any umask); files a library creates itself (lmdb's data and lock file) are chmod-ed right after. Files the agents'
 * own file tools write in a work folder are the user's work and keep the usual modes.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';

/** Mode of every file the runtime creates. */
export const PRIVATE_FILE_MODE = 0o600;
/** Mode of every folder the runtime creates. */
export const PRIVATE_DIR_MODE = 0o700;

/** `mkdir -p` with every folder it creates 0700 (existing ones are left as they are). */
export async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** `mkdirSync -p` with every folder it creates 0700 (existing ones are left as they are). */
export function makePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Narrows `file` (made by a library under the umask) to 0600; a file that is not there is fine. */
export function narrowToPrivate(file: string): void {
  try {
    chmodSync(file, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Every path under `root` (folders before their contents); [] when `root` is missing. Links are not followed. */
export function pathsUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true }).flatMap((e) => {
    const path = join(root, e.name);
    return e.isDirectory() ? [path, ...pathsUnder(path)] : [path];
  });
}

/**
 * Narrows what a copy made under `root` to 0700 folders and 0600 files, leaving `before` (the paths that were there
 * before the copy) and links as they were. For copies made by a library that keeps the source's modes (`init`).
 */
export function narrowCopyToPrivate(root: string, before: ReadonlySet<string>): void {
  if (!before.has(root)) chmodSync(root, PRIVATE_DIR_MODE);
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) narrowCopyToPrivate(path, before);
    else if (entry.isFile() && !before.has(path)) chmodSync(path, PRIVATE_FILE_MODE);
  }
}
