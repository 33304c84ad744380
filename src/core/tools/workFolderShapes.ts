/**
 * Wire shapes of the work-folder screens (types only, shared by the host and the GUI client): the `@` completion's
 * answer and the batch dialog's folder check.
 */

/** Paths in an agent's work folder matching a query: relative, `/`-separated, folders ending in `/`. */
export interface WorkFileList {
  agentId: string;
  /** null = the agent has no work folder (nothing to complete). */
  workDir: string | null;
  query: string;
  paths: string[];
  /** True when the walk stopped at its entry limit before seeing everything. */
  truncated: boolean;
}

/** A work-folder check: the normalised path to store (null = clear), or why it cannot be used and the fix. */
export type WorkDirCheck = { ok: true; path: string | null } | { ok: false; folder: string; reason: string; fix: string };
