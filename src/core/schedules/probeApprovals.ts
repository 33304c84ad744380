/**
 * Which pre-check commands this machine allows to run (reference/ops.md §2.6; SPEC §3, the shelf file
 * `{dataDir}/probe_approvals.json` = `{"hashes":[…]}`). Hashes only, never command text; bound to the village
 * through `villageId`, so a village copied in from elsewhere arrives with nothing approved.
 *
 * A file that cannot be read is treated as NO approvals (every probe is skipped as `unapproved`) and is never
 * overwritten: approve/revoke refuse with CONFIG_PARSE naming the file until a person fixes or removes it.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { diagText, nullDiagSink, type DiagSink } from '../diag.js';
import { writeFileAtomic } from '../village/atomicWrite.js';
import type { ScheduleProbe } from './types.js';
import { approvalsUnreadable } from '../errors/configErrors.js';
import { bug } from '../errors/runtimeErrors.js';

/** What an approval is bound to: the argv as written, the cwd as written (not resolved), and the village. */
export interface ApprovalSubject {
  command: string;
  args: readonly string[];
  cwd: string | null;
  villageId: string;
}

const HASH = /^[0-9a-f]{64}$/;

/**
 * The approval key: lowercase hex SHA-256 of compact JSON with keys in the fixed order args, command, cwd,
 * villageId (the original's canonical form, so a shelf file made by the desktop app keeps working).
 */
export function approvalKey(subject: ApprovalSubject): string {
  const canonical = JSON.stringify({
    args: [...subject.args],
    command: subject.command,
    cwd: subject.cwd,
    villageId: subject.villageId,
  });
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** The key of a schedule's probe in a village. */
export function probeKey(probe: Pick<ScheduleProbe, 'command' | 'args' | 'cwd'>, villageId: string): string {
  return approvalKey({ command: probe.command, args: probe.args, cwd: probe.cwd, villageId });
}

/** Why the approvals file is not writable: it exists but could not be read. */
export interface ApprovalsBlock {
  file: string;
  reason: string;
}

/** The approved hashes of this shelf. Create with `ProbeApprovals.load`. */
export class ProbeApprovals {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly file: string,
    private hashes: ReadonlySet<string>,
    private readonly extras: Record<string, unknown>,
    /** Non-null when the file exists but could not be read: treated as empty, writes refuse. */
    readonly blocked: ApprovalsBlock | null,
  ) {}

  /** Reads the shelf file; missing = no approvals (writable); unreadable = no approvals (blocked). */
  static async load(file: string, diag: DiagSink = nullDiagSink): Promise<ProbeApprovals> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return new ProbeApprovals(file, new Set(), {}, null);
      return ProbeApprovals.blockedAt(file, `cannot read the file (${code ?? 'error'})`, diag);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return ProbeApprovals.blockedAt(file, 'not valid JSON', diag);
    }
    const hashes = (value as { hashes?: unknown } | null)?.hashes;
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray(hashes)) {
      return ProbeApprovals.blockedAt(file, 'expected an object {"hashes": [...]}', diag);
    }
    if (!hashes.every((h): h is string => typeof h === 'string' && HASH.test(h))) {
      return ProbeApprovals.blockedAt(file, '"hashes" must hold 64-digit lowercase hex strings only', diag);
    }
    return new ProbeApprovals(file, new Set(hashes), value as Record<string, unknown>, null);
  }

  private static blockedAt(file: string, reason: string, diag: DiagSink): ProbeApprovals {
    diag.note('probe approvals', { blocked: diagText(file), reason: diagText(reason), fix: diagText('fix or delete the file by hand; until then no schedule pre-check is approved') }, 'warn');
    return new ProbeApprovals(file, new Set(), {}, { file, reason });
  }

  /** True when `key` is approved. */
  has(key: string): boolean {
    return this.hashes.has(key);
  }

  /** True when this probe may run in this village. An empty village id (unreadable `village_id`) never matches. */
  isApproved(probe: Pick<ScheduleProbe, 'command' | 'args' | 'cwd'>, villageId: string): boolean {
    return villageId !== '' && this.hashes.has(probeKey(probe, villageId));
  }

  /** The approved hashes, sorted. */
  list(): string[] {
    return [...this.hashes].sort();
  }

  /** Adds `key` and saves (atomic, 0600). Refuses while blocked. */
  approve(key: string): Promise<void> {
    if (!HASH.test(key)) return Promise.reject(bug('an approval key must be 64 lowercase hex digits'));
    return this.change((set) => set.add(key));
  }

  /** Removes `key` and saves. Refuses while blocked. */
  revoke(key: string): Promise<void> {
    return this.change((set) => set.delete(key));
  }

  /** Keeps only `keys` (cleanup after a schedule is deleted or edited). Refuses while blocked. */
  retainOnly(keys: Iterable<string>): Promise<void> {
    const keep = new Set(keys);
    return this.change((set) => {
      for (const h of [...set]) if (!keep.has(h)) set.delete(h);
    });
  }

  private change(edit: (set: Set<string>) => void): Promise<void> {
    const run = this.queue.then(async () => {
      if (this.blocked !== null) {
        throw approvalsUnreadable(this.file, this.blocked.reason);
      }
      const next = new Set(this.hashes);
      edit(next);
      const hashes = [...next].sort();
      // Other keys of the file survive; `hashes` is written sorted and pretty-printed, owner-only.
      const text = `${JSON.stringify({ ...this.extras, hashes }, null, 2)}\n`;
      await writeFileAtomic(this.file, text, { mode: 0o600 });
      this.hashes = next;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
