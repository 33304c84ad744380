/**
 * Opening the session store, with the two nets of the boot:
 * - the store's own exclusive OS lock (`sessions.mdb.owner`, never lmdb's lock file) is taken BEFORE lmdb
 *   opens anything; held → `SESSION_STORE_LOCKED` is thrown and boot stops (someone bypassed the village lock);
 * - the data file is walked page by page in plain JavaScript (`lmdbVerify.ts`) before lmdb maps it: lmdb-js kills
 *   the process on a damaged page, so a file that fails the walk is never handed to it, never written, and the
 *   village runs without persistence (`SESSION_STORE_CORRUPT`, one WARN with the fix "move sessions.mdb aside").
 *   Running on instead of exiting 5 is the boot's rule for every store failure other than "held": a person's
 *   `ask` still gets its answer, the WARN and `check` say what to do, and nothing is lost because nothing is written;
 * - any other failure (permissions, no OS locks) → `{store: null, warning}` as well, said once.
 */
import path from 'node:path';
import { tryExclusiveLock } from '../exclusiveLock.js';
import { diagText, type DiagSink } from '../diag.js';
import { SessionStore } from './sessionStore.js';
import { openSessionDbs } from './sessionDbs.js';
import { verifyLmdbFile } from './lmdbVerify.js';
import { SESSION_OWNER_FILE, SESSION_STORE_FILE } from './sessionFiles.js';
import { sessionStoreLocked } from '../errors/sessionErrors.js';

export { SESSION_OWNER_FILE, SESSION_STORE_FILE } from './sessionFiles.js';

export interface OpenSessionStoreOptions {
  workspaceDir: string;
  /** When given, the one WARN (`session store`) is noted here; the warning is returned either way. */
  diag?: DiagSink;
  /** Injectable clock (epoch ms) for tests. */
  now?: () => number;
}

/** `code` says why the store is missing: SESSION_STORE_CORRUPT for a file that failed the walk, else SESSION_STORE_FAILED. */
export type OpenedSessionStore =
  | { store: SessionStore; warning: null }
  | { store: null; warning: string; code: 'SESSION_STORE_CORRUPT' | 'SESSION_STORE_FAILED' };

function errnoOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const mdb = error instanceof Error ? /MDB_[A-Z_]+/.exec(error.message) : null;
  return mdb?.[0] ?? 'UNKNOWN';
}

/** Opens `workspace/sessions.mdb`. Throws only SESSION_STORE_LOCKED; every other failure is the warning result. */
export function openSessionStore(options: OpenSessionStoreOptions): OpenedSessionStore {
  const dataPath = path.join(options.workspaceDir, SESSION_STORE_FILE);
  const ownerPath = path.join(options.workspaceDir, SESSION_OWNER_FILE);
  const degrade = (reason: string, errno: string): OpenedSessionStore => {
    const warning =
      `session store: cannot open ${dataPath} (${reason}, ${errno}); this village runs WITHOUT saving conversations. ` +
      'Fix: check the file permissions, or move the damaged file aside and restart.';
    options.diag?.note('session store', { outcome: 'unavailable', reason, errno }, 'warn');
    return { store: null, warning, code: 'SESSION_STORE_FAILED' };
  };
  const corrupt = (reason: string): OpenedSessionStore => {
    const fix = `move ${dataPath} (and sessions.mdb-lock beside it) aside and start again; a fresh store is created`;
    const warning = `session store: ${dataPath} is damaged (${reason}); it was not opened and is left as it is. This village runs WITHOUT saving conversations. Fix: ${fix}.`;
    options.diag?.note('session store', { outcome: 'unavailable', code: 'SESSION_STORE_CORRUPT', file: diagText(dataPath), reason: diagText(reason), fix: diagText(fix) }, 'warn');
    return { store: null, warning, code: 'SESSION_STORE_CORRUPT' };
  };

  const attempt = tryExclusiveLock(ownerPath);
  if (!attempt.ok) {
    if (attempt.failure === 'held') {
      throw sessionStoreLocked(dataPath, ownerPath, attempt.cause);
    }
    return degrade(attempt.failure === 'no_locks' ? 'no_os_locks' : 'lock_file_io', attempt.errno);
  }
  try {
    const verdict = verifyLmdbFile(dataPath);
    if (verdict.state === 'corrupt') {
      attempt.lock.release();
      return corrupt(verdict.reason);
    }
    const { env, sessionsDb, recordsDb } = openSessionDbs(dataPath);
    const store = new SessionStore(options.workspaceDir, env, sessionsDb, recordsDb, attempt.lock, options.now);
    return { store, warning: null };
  } catch (error) {
    attempt.lock.release();
    return degrade('open_failed', errnoOf(error));
  }
}
