/**
 * Revisions: how every edit of a village or shelf file carries the version it was made from, so a stale one is
 * refused (EDIT_CONFLICT) instead of silently undoing what was saved meanwhile. One mechanism for every file:
 *
 * - a *document* is what one editor edits, named by its path under the data dir (`workspace/world.json`), with
 *   `#part` when an editor owns only part of a file (`workspace/agents/a/run.json#policy`: the allow/deny form, not
 *   the requests agents append);
 * - its *revision* is a hash of the document's name and content, so equal texts of two documents never match;
 * - every view of a document answers `revisions: {doc: revision}`, and every change takes a *base*: the revision
 *   the caller saw, or every revision it knows (the GUI sends all of a tab's; the one of the edited document counts).
 *   No base = no check (a caller that means to overwrite).
 *
 * Checked in the owner's one-at-a-time queue, against the content as it is right before the write.
 */
import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
import { editConflict } from '../errors/requestErrors.js';

/** An opaque version of one document. */
export type Revision = string;

/** What a change was made from: one revision, or every revision the caller knows. */
export type EditBase = Revision | readonly Revision[];

/** Document → its current revision, as views answer them. */
export type Revisions = Record<string, Revision>;

/** What an edit is made on, for the refusal. */
export interface EditTarget {
  /** The document's name. */
  doc: string;
  /** Absolute path of its file. */
  file: string;
  agentId?: string;
}

/** The revision of `content` as document `doc`: sha256 over both, 128 bits in base64url. */
export function revisionOf(doc: string, content: string): Revision {
  return createHash('sha256').update(doc).update('\0').update(content).digest('base64url').slice(0, 22);
}

/** A document's name: `file` relative to the data dir with `/`, plus `#part` when given. */
export function docName(dataDir: string, file: string, part?: string): string {
  const rel = relative(dataDir, file).split(sep).join('/');
  return part === undefined ? rel : `${rel}#${part}`;
}

/** The edit target of `file` under `dataDir` (`part` for a section of it). */
export function fileTarget(dataDir: string, file: string, options: { agentId?: string; part?: string } = {}): EditTarget {
  return { doc: docName(dataDir, file, options.part), file, ...(options.agentId === undefined ? {} : { agentId: options.agentId }) };
}

/** The `revisions` a view of `target` with `content` answers. */
export function revisionsOf(target: EditTarget, content: string): Revisions {
  return { [target.doc]: revisionOf(target.doc, content) };
}

/** Refuses an edit of `target`, whose content is `current` right now, when `base` does not name that version. */
export function requireContentBase(target: EditTarget, current: string, base: EditBase | undefined): void {
  requireBase(target, revisionOf(target.doc, current), base);
}

/** The base of a change made from `view`: every revision it answered (the CLI reads, then changes, in one process). */
export function baseOf(view: { revisions: Revisions }): EditBase {
  return Object.values(view.revisions);
}

/** True when `base` is absent or names `current`. */
export function baseAccepts(base: EditBase | undefined, current: Revision): boolean {
  if (base === undefined) return true;
  return typeof base === 'string' ? base === current : base.includes(current);
}

/** Refuses an edit whose base is not the document's current revision (EDIT_CONFLICT with the current one). */
export function requireBase(target: EditTarget, current: Revision, base: EditBase | undefined): void {
  if (!baseAccepts(base, current)) throw editConflict(target, current);
}

/** JSON with object keys sorted, so a document's revision does not depend on key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}
