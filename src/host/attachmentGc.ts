/**
 * Keeps `workspace/attachments/` from growing without bound (the original's rule): at boot, bodies older than
 * 30 days go, then the oldest until the folder holds at most 500 MiB. Messages keep naming a removed file; only its
 * bytes are gone (they were sent once and never again). A village without the folder writes nothing.
 */
import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiagSink } from '../core/diag.js';
import { ATTACHMENT_DIR } from './attachmentUploads.js';

/** Age after which an attachment body is removed (ms). */
export const ATTACHMENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** Largest total size the folder keeps (bytes). */
export const ATTACHMENT_MAX_TOTAL_BYTES = 500 * 1024 * 1024;

/** What a collection did. */
export interface GcReport {
  removed: number;
  remaining: number;
  bytes: number;
}

/** Removes what is too old, then the oldest while the total is too large. Null when there is no folder. */
export async function collectAttachments(workspaceDir: string, nowMs: number, diag: DiagSink, limits = { retentionMs: ATTACHMENT_RETENTION_MS, maxBytes: ATTACHMENT_MAX_TOTAL_BYTES }): Promise<GcReport | null> {
  const dir = join(workspaceDir, ATTACHMENT_DIR);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  const files: Array<{ path: string; bytes: number; mtimeMs: number }> = [];
  for (const name of names) {
    try {
      const s = await stat(join(dir, name));
      if (s.isFile()) files.push({ path: join(dir, name), bytes: s.size, mtimeMs: s.mtimeMs });
    } catch {
      // Gone meanwhile: nothing to collect.
    }
  }
  files.sort((a, b) => a.mtimeMs - b.mtimeMs);
  let total = files.reduce((n, f) => n + f.bytes, 0);
  let removed = 0;
  for (const f of files) {
    if (nowMs - f.mtimeMs <= limits.retentionMs && total <= limits.maxBytes) break;
    try {
      await unlink(f.path);
      total -= f.bytes;
      removed += 1;
    } catch {
      // A file we cannot remove stays; the next boot tries again.
    }
  }
  const report = { removed, remaining: files.length - removed, bytes: total };
  diag.note('attachment gc', report);
  return report;
}
