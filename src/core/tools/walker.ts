/**
 * The tree walk shared by grep and fd: depth-first; in each folder its entries in name order, then its
 * subfolders; never follows symlinks (a link could lead out of the work folder or loop); skips dot-entries and
 * build/vendor folders. Synchronous on purpose: it runs on the scanning pool (scan/), where blocking a thread is
 * the job, and sync reads measured 2–4× faster than async ones on 20,000 small files.
 */
import { readdirSync } from 'node:fs';

/** Entry names the walker never enters or lists (besides every name starting with `.`). */
export const SKIPPED_NAMES: ReadonlySet<string> = new Set(['node_modules', 'target', 'dist', 'build', 'out', 'vendor']);

/** Most files one walk visits. */
export const MAX_WALK_FILES = 20_000;

/** True for names the walker skips. */
export function isSkippedName(name: string): boolean {
  return name.startsWith('.') || SKIPPED_NAMES.has(name);
}

/**
 * Walks the tree under `start` (not listing `start` itself), calling `visit(abs, rel, isDir)` per entry in walk
 * order; folders are visited only when `includeDirs`. Stops and returns false as soon as `visit` returns false.
 * Unreadable folders are skipped silently (they cannot be searched).
 */
export function walkSync(
  start: string,
  startRel: string,
  includeDirs: boolean,
  visit: (abs: string, rel: string, isDir: boolean) => boolean,
): boolean {
  let children;
  try {
    children = readdirSync(start, { withFileTypes: true });
  } catch {
    return true;
  }
  children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const subdirs: Array<{ abs: string; rel: string }> = [];
  for (const child of children) {
    if (isSkippedName(child.name)) continue;
    // `start` is absolute and normalised (confined by the tool); a plain join is enough and much cheaper.
    const abs = `${start}/${child.name}`;
    const rel = startRel === '' ? child.name : `${startRel}/${child.name}`;
    if (child.isDirectory()) {
      if (includeDirs && !visit(abs, rel, true)) return false;
      subdirs.push({ abs, rel });
    } else if (child.isFile()) {
      if (!visit(abs, rel, false)) return false;
    }
    // Symlinks, FIFOs, sockets and devices are not visited.
  }
  for (const dir of subdirs) if (!walkSync(dir.abs, dir.rel, includeDirs, visit)) return false;
  return true;
}
