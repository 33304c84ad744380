/**
 * The files of a running village that exist but cannot be used, each with file, reason (the field included) and
 * fix: the same list `check` reports as CONFIG_BROKEN findings, read from disk now, for the GUI. Reads only; no
 * secret is looked at (a memory store stands in) and the session store is not walked (the host holds it open).
 */
import { isFuseforksError } from '../core/errors.js';
import { gatherView } from '../core/preflight/gatherView.js';
import type { ReadProblem } from '../core/preflight/configReaders.js';
import { MemorySecretStore } from '../core/secrets/secretStore.js';
import { villagePaths } from '../core/village/paths.js';
import type { World } from '../core/world/types.js';
import { hostFileProblems } from './fileProblems.js';

/** One unusable file (or entry); `fix` absent = the generic "fix it by hand so it parses". */
export type FileProblem = ReadProblem;

/** Problems of every file a serve of all `world`'s agents would read (door settings included). */
export async function villageFileProblems(dataDir: string, world: World): Promise<FileProblem[]> {
  const ids = world.agents.map((a) => a.id);
  let gathered;
  try {
    gathered = await gatherView({
      dataDir,
      mode: 'serve',
      // Every agent: the GUI can start any of them, so each one's mcp.json and run.json counts.
      start: ids.length === 0 ? 'batch' : ids.join(','),
      secrets: 'keyring',
      store: new MemorySecretStore(),
      bypassPlanReview: true,
      runApproval: 'required',
      moreProblems: hostFileProblems,
    });
  } catch (error) {
    // world.json edited by hand into something unreadable while the village runs: that file is the problem.
    if (!isFuseforksError(error)) throw error;
    return [{ file: villagePaths(dataDir).world, reason: error.message, ...(error.fix ? { fix: error.fix } : {}) }];
  }
  return gathered.ok ? gathered.problems : [];
}
