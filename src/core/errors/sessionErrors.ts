/**
 * The session store (SESSION_NOT_FOUND, SESSION_STORE_FAILED, SESSION_STORE_LOCKED, SESSION_STORE_CORRUPT,
 * SESSION_SWITCH_BLOCKED). A damaged store is never opened or written; the village runs without saving.
 */
import { errorFactory } from './errorFactory.js';

/** A session id the store does not have. */
export const sessionNotFound = errorFactory('SESSION_NOT_FOUND', (id: string) => ({
  message: `Session ${id} does not exist in this village's session store.`,
  fix: 'List the sessions and pick an existing id.',
  details: { sessionId: id },
}));

/** A fork at a seq the session does not have (`last` = its last seq, null when empty). */
export const forkSeqNotFound = errorFactory('SESSION_NOT_FOUND', (id: string, atSeq: number, last: number | null) => ({
  message: `Session ${id} has no record at seq ${atSeq} to fork from.`,
  fix: `Pick a seq between 0 and ${last ?? '(none: the session is empty)'}.`,
  details: { sessionId: id, atSeq },
}));

/** A record could not be written (not a full disk: that is `sessionStoreFull`). */
export const sessionWriteFailed = errorFactory('SESSION_STORE_FAILED', (id: string, cause: unknown) => ({
  message: `Could not save to the session store (session ${id}).`,
  fix: 'Check free disk space and permissions of the workspace folder; the village keeps running.',
  details: { sessionId: id },
  cause,
}));

/** The disk holding the session store is full (ENOSPC): the answer still goes out, the record does not. */
export const sessionStoreFull = errorFactory('SESSION_STORE_FULL', (id: string, cause: unknown) => ({
  message: `The disk holding the session store is full: session ${id} is not being saved (answers still go out).`,
  fix: 'Free space on the disk of the workspace folder (df -h on it); saving resumes by itself with the next record, nothing needs a restart.',
  details: { sessionId: id },
  cause,
}));

/** True when `cause` (or lmdb's `commitError` beside it, see sessionStore.ts) says the disk is full. */
export function isDiskFull(cause: unknown): boolean {
  const c = cause as { code?: unknown; message?: unknown } | null;
  if (c === null || typeof c !== 'object') return false;
  if (c.code === 'ENOSPC' || c.code === 28) return true;
  return typeof c.message === 'string' && /No space left on device|MDB_MAP_FULL/.test(c.message);
}


/** The store could not be opened for reading. */
export const sessionStoreUnreadable = errorFactory('SESSION_STORE_FAILED', (dataPath: string, cause: unknown) => ({
  message: `Cannot read the session store ${dataPath}.`,
  fix: 'Check that this user may read the workspace folder and the files in it.',
  details: { file: dataPath },
  cause,
}));

/** A conversation asked of a village that runs without a session store. */
export const noSessionStore = errorFactory('SESSION_STORE_FAILED', () => ({
  message: 'This village runs without a session store, so conversations are not kept.',
  fix: 'See fuseforks.log for why the session store did not open, fix it, then reopen the village.',
}));

/** The store's own lock is held by another process or handle (the second net behind the village lock). */
export const sessionStoreLocked = errorFactory('SESSION_STORE_LOCKED', (dataPath: string, ownerPath: string, cause: unknown) => ({
  message: `The session store ${dataPath} is already open in another process or handle (lock ${ownerPath}).`,
  fix: 'Close the other Fuseforks GUI or fuseforks-cli using this village; open villages only through the village lock.',
  details: { path: ownerPath },
  cause,
}));

/** sessions.mdb failed the structural check, so it was not opened. */
export const sessionStoreCorrupt = errorFactory('SESSION_STORE_CORRUPT', (dataPath: string, reason: string) => ({
  message: `The session store ${dataPath} is damaged (${reason}); it was not opened.`,
  fix: `move ${dataPath} (and sessions.mdb-lock beside it) aside; the next start creates a fresh store`,
  details: { file: dataPath },
}));

/** Another conversation opened while turns are in flight. */
export const sessionSwitchBlocked = errorFactory('SESSION_SWITCH_BLOCKED', (inFlight: number) => ({
  message: `Cannot open another conversation while ${inFlight} turn(s) are in flight.`,
  fix: 'Wait for the answers (or press Stop all turns), then open the conversation again.',
  details: { inFlight },
}));
