/**
 * Opening the session store, with the two nets of the boot:
 * - the store's own exclusive OS lock (`sessions.mdb.owner`, never lmdb's lock file) is taken BEFORE lmdb
 *   opens anything; held → `SESSION_STORE_LOCKED` is thrown and boot stops (someone bypassed the village lock);
 * - any other failure (corrupt file, permissions, no OS locks) → `{store: null, warning}`: the village runs
 *   without persistence and says so once.
 */
import path from 'node:path';
import { open, type Database } from 'lmdb';
import { FuseforksError } from '../errors.js';
import { tryExclusiveLock } from '../exclusiveLock.js';
import type { DiagSink } from '../diag.js';
import { SessionStore } from './sessionStore.js';
import { checkLmdbFile } from './lmdbHeader.js';

/** File names inside the workspace. lmdb adds `sessions.mdb-lock` beside the data file. */
export const SESSION_STORE_FILE = 'sessions.mdb';
export const SESSION_OWNER_FILE = 'sessions.mdb.owner';

export interface OpenSessionStoreOptions {
  workspaceDir: string;
  /** When given, the one WARN (`session store`) is noted here; the warning is returned either way. */
  diag?: DiagSink;
  /** Injectable clock (epoch ms) for tests. */
  now?: () => number;
}

export type OpenedSessionStore = { store: SessionStore; warning: null } | { store: null; warning: string };

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
    return { store: null, warning };
  };

  const attempt = tryExclusiveLock(ownerPath);
  if (!attempt.ok) {
    if (attempt.failure === 'held') {
      throw new FuseforksError(
        'SESSION_STORE_LOCKED',
        `The session store ${dataPath} is already open in another process or handle (lock ${ownerPath}).`,
        {
          fix: 'Close the other Fuseforks GUI or fuseforks-cli using this village; open villages only through the village lock.',
          details: { path: ownerPath },
          cause: attempt.cause,
        },
      );
    }
    return degrade(attempt.failure === 'no_locks' ? 'no_os_locks' : 'lock_file_io', attempt.errno);
  }
  try {
    const verdict = checkLmdbFile(dataPath);
    if (verdict === 'not_lmdb' || verdict === 'truncated') {
      attempt.lock.release();
      return degrade(verdict === 'truncated' ? 'truncated_file' : 'not_a_session_store', 'EINVAL');
    }
    // overlappingSync:false: a writer killed mid-commit must not leave MDB_PANIC behind (deps-probe §2).
    const env = open({ path: dataPath, overlappingSync: false, maxDbs: 4 });
    try {
      const sessionsDb = env.openDB<unknown, string>({ name: 'sessions' });
      const recordsDb = env.openDB<unknown, [string, number]>({ name: 'records' }) as Database<unknown, [string, number]>;
      const store = new SessionStore(options.workspaceDir, env, sessionsDb, recordsDb, attempt.lock, options.now);
      return { store, warning: null };
    } catch (error) {
      void env.close().catch(() => undefined);
      throw error;
    }
  } catch (error) {
    attempt.lock.release();
    return degrade('open_failed', errnoOf(error));
  }
}
