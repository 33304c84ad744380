/**
 * The LMDB env of a session store and its named dbs, opened the one way both the owner (`openSessionStore`) and a
 * read-only reader (`openSessionReader`) need: `sessions` (id → meta), `records` ([id, seq] → record, through the
 * record codec) and the codec's shared `structures`.
 */
import { open, type Database, type DatabaseOptions, type RootDatabase } from 'lmdb';
import { createRecordCodec, type RecordCodec } from './recordCodec.js';
import { narrowToPrivate } from '../privateFiles.js';

/** An opened env and its dbs. */
export interface SessionDbs {
  env: RootDatabase;
  sessionsDb: Database<unknown, string>;
  recordsDb: Database<unknown, [string, number]>;
}

/** Opens `dataPath`; `readOnly` maps nothing writable (a reader beside the owner process). Throws what lmdb throws. */
export function openSessionDbs(dataPath: string, readOnly = false): SessionDbs {
  // overlappingSync:false: a writer killed mid-commit must not leave MDB_PANIC behind (deps-probe §2).
  const env = open({ path: dataPath, overlappingSync: false, maxDbs: 4, ...(readOnly ? { readOnly: true } : {}) });
  // lmdb creates the data file and its lock file under the umask: narrow both to the user (privateFiles.ts).
  if (!readOnly) for (const file of [dataPath, `${dataPath}-lock`]) narrowToPrivate(file);
  try {
    const sessionsDb = env.openDB<unknown, string>({ name: 'sessions' });
    // Records use the project's msgpackr with shared structures (recordCodec.ts); older values keep reading.
    const structuresDb = env.openDB<Array<{}>, string>({ name: 'structures' });
    const codec = createRecordCodec(env, structuresDb);
    // lmdb takes a per-db `encoder` at run time; its types only list it on the root options.
    const recordsOptions: DatabaseOptions & { name: string; encoder: RecordCodec } = { name: 'records', encoder: codec };
    const recordsDb = env.openDB<unknown, [string, number]>(recordsOptions) as Database<unknown, [string, number]>;
    return { env, sessionsDb, recordsDb };
  } catch (error) {
    void env.close().catch(() => undefined);
    throw error;
  }
}
