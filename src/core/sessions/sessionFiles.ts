/**
 * The session store's file names inside the workspace, apart from the store itself so that `check` can name and
 * walk the file without loading lmdb. lmdb adds `sessions.mdb-lock` beside the data file.
 */
export const SESSION_STORE_FILE = 'sessions.mdb';
export const SESSION_OWNER_FILE = 'sessions.mdb.owner';
