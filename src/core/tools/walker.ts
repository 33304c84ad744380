/**
 * The tree walker shared by grep and fd: depth-first, name-sorted, never follows symlinks (a link could
 * lead out of the work folder or loop), skips dot-entries and build/vendor folders, stops at 20,000 files
 * and between directories when the turn is interrupted.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Entry names the walker never enters or lists (besides every name starting with `.`). */
export const SKIPPED_NAMES: ReadonlySet<string> = new Set(['node_modules', 'target', 'dist', 'build', 'out', 'vendor']);

/** Most files one walk visits. */
export const MAX_WALK_FILES = 20_000;

/** One visited entry: absolute path and `/`-separated path relative to the walk's display root. */
export interface WalkEntry {
  abs: string;
  rel: string;
  isDir: boolean;
}

/** What a walk found; `truncated` = the file limit was hit, `aborted` = the signal fired. */
export interface WalkResult {
  entries: WalkEntry[];
  fileCount: number;
  truncated: boolean;
  aborted: boolean;
}

export interface WalkOptions {
  /** Absolute dir to start in (already confined). */
  start: string;
  /** `rel` of `start` as shown to the model ('' for the work folder itself). */
  startRel: string;
  signal: AbortSignal;
  /** Also return directories (fd), not only files (grep). */
  includeDirs: boolean;
  maxFiles?: number;
}

/** True for names the walker skips. */
export function isSkippedName(name: string): boolean {
  return name.startsWith('.') || SKIPPED_NAMES.has(name);
}

/** Walks the tree under `start`. Unreadable directories are skipped silently (they cannot be searched). */
export async function walk(options: WalkOptions): Promise<WalkResult> {
  const maxFiles = options.maxFiles ?? MAX_WALK_FILES;
  const entries: WalkEntry[] = [];
  let fileCount = 0;
  // Stack of directories still to read; pushed in reverse so they pop in name order.
  const stack: Array<{ abs: string; rel: string }> = [{ abs: options.start, rel: options.startRel }];
  while (stack.length > 0) {
    if (options.signal.aborted) return { entries, fileCount, truncated: false, aborted: true };
    const dir = stack.pop() as { abs: string; rel: string };
    let children;
    try {
      children = await readdir(dir.abs, { withFileTypes: true });
    } catch {
      continue;
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: Array<{ abs: string; rel: string }> = [];
    for (const child of children) {
      if (isSkippedName(child.name)) continue;
      const abs = join(dir.abs, child.name);
      const rel = dir.rel === '' ? child.name : `${dir.rel}/${child.name}`;
      if (child.isDirectory()) {
        if (options.includeDirs) entries.push({ abs, rel, isDir: true });
        subdirs.push({ abs, rel });
      } else if (child.isFile()) {
        if (fileCount >= maxFiles) return { entries, fileCount, truncated: true, aborted: false };
        fileCount += 1;
        entries.push({ abs, rel, isDir: false });
      }
      // Symlinks, FIFOs, sockets and devices are not visited.
    }
    for (let i = subdirs.length - 1; i >= 0; i -= 1) stack.push(subdirs[i] as { abs: string; rel: string });
  }
  return { entries, fileCount, truncated: false, aborted: false };
}
