/**
 * Reading a village's conversations from beside its owner (`fuseforks-cli stats`, `sessions list|show|export`): the
 * store is opened read-only, without its owner lock, so a running GUI or `serve` is neither blocked nor disturbed.
 * LMDB serves readers in other processes from a consistent snapshot while the owner writes (multi-process access
 * works); nothing here writes to the store (an export file goes to `exports/`, outside it), so the owner stays the
 * one writer its lock promises.
 *
 * The page walk that guards lmdb from a damaged file (`lmdbVerify.ts`) runs when the caller says the file is at
 * rest (no owner): a file another process is committing to may be caught between two writes, and its owner walked
 * it when it opened it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { verifyLmdbFile } from './lmdbVerify.js';
import { openSessionDbs } from './sessionDbs.js';
import { SESSION_STORE_FILE } from './sessionFiles.js';
import { SessionStore } from './sessionStore.js';
import { sessionStoreCorrupt, sessionStoreUnreadable } from '../errors/sessionErrors.js';

/** What a reader may do: list, read, write an export file (outside the store), close. */
export type SessionReader = Pick<SessionStore, 'list' | 'open' | 'records' | 'exportJsonl' | 'close'>;

/** The reader, or null when the village has no session store yet (nothing was ever recorded). */
export function openSessionReader(workspaceDir: string, options: { atRest: boolean }): SessionReader | null {
  const dataPath = path.join(workspaceDir, SESSION_STORE_FILE);
  if (!existsSync(dataPath)) return null;
  if (options.atRest) {
    const verdict = verifyLmdbFile(dataPath);
    if (verdict.state === 'corrupt') {
      throw sessionStoreCorrupt(dataPath, verdict.reason);
    }
  }
  let dbs;
  try {
    dbs = openSessionDbs(dataPath, true);
  } catch (cause) {
    throw sessionStoreUnreadable(dataPath, cause);
  }
  // Nothing is written, so no owner lock is held or released.
  return new SessionStore(workspaceDir, dbs.env, dbs.sessionsDb, dbs.recordsDb, { path: '', release: () => undefined });
}
