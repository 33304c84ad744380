/**
 * The supervisor reads an agent's prompt files once per delivery, synchronously (its `material` option is
 * sync because delivery happens inside a message handler). Missing files read as ""; an unreadable file is
 * one WARN (path and errno, never content) and reads as "" so a bad permission never takes a turn down.
 *
 * A file is read again only when it changed: each delivery stats it (no exception for a missing one) and reuses
 * the text it read before while inode, size, mtime and ctime are the same. An edit made with any editor, by the
 * GUI or by an agent's own tool is seen at the next delivery, as before. A file changed less than RACY_MS before it
 * was read is read again every time (timestamps are as coarse as the kernel's tick: a second same-size write in
 * that tick would keep the stamp), the way git treats a "racily clean" file.
 */
import { readFileSync, statSync, type BigIntStats } from 'node:fs';
import type { DiagSink } from '../core/diag.js';
import type { PromptMaterial } from '../core/turn/ports.js';
import type { VillagePaths } from '../core/village/paths.js';

interface Cached {
  stamp: string;
  text: string;
  /** False while the file was still fresh when read: then it is read again. */
  settled: boolean;
}

/** How long after its last change a file's stamp is trusted (ms). */
export const RACY_MS = 1000;

const stampOf = (s: BigIntStats): string => `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;

/** Texts of files read before, by path, reused while the file is unchanged. */
export class FileTexts {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly diag: DiagSink,
    private readonly now: () => number = Date.now,
  ) {}

  read(path: string): string {
    try {
      const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
      if (stats === undefined) {
        this.cache.delete(path);
        return '';
      }
      const stamp = stampOf(stats);
      const hit = this.cache.get(path);
      if (hit?.stamp === stamp && hit.settled) return hit.text;
      const text = readFileSync(path, 'utf8');
      const changedMs = Number(stats.ctimeNs > stats.mtimeNs ? stats.ctimeNs : stats.mtimeNs) / 1e6;
      this.cache.set(path, { stamp, text, settled: this.now() - changedMs > RACY_MS });
      return text;
    } catch (error) {
      this.cache.delete(path);
      const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
      if (code !== 'ENOENT' && code !== 'ENOTDIR') this.diag.note('prompt file', { file: path, errno: code }, 'warn');
      return '';
    }
  }
}

/** Builds the supervisor's `material(agentId)` over the village files. */
export function promptMaterialReader(paths: VillagePaths, diag: DiagSink): (agentId: string) => PromptMaterial {
  const files = new FileTexts(diag);
  return (agentId) => {
    const agent = paths.agent(agentId);
    return {
      ordinance: files.read(paths.ordinance),
      construct: files.read(agent.construct),
      skill: files.read(agent.skill),
      memory: files.read(agent.memory),
    };
  };
}
