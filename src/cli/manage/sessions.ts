/**
 * `fuseforks-cli sessions list|show|export|fork`: the village's stored conversations, through `HostApi` like the
 * GUI's conversation menu. `list`, `show` and `export` change nothing in the store, so while a serve or the GUI
 * holds the village they read it read-only beside its owner (as `stats` does); `export` then writes only
 * `workspace/exports/{id}.jsonl`, with the same renderer the owner uses. `fork` adds a conversation to the store,
 * so it refuses politely while another process holds the village.
 */
import { jsonText } from '../jsonFormat.js';
import { isFuseforksError } from '../../core/errors.js';
import { exportLines } from '../../core/sessions/exportLines.js';
import { openSessionReader, type SessionReader } from '../../core/sessions/openSessionReader.js';
import type { SessionMeta } from '../../core/sessions/sessionMeta.js';
import { sessionNotFound } from '../../core/sessions/sessionStore.js';
import { readStoredSession, showOf, type StoredSession } from '../../core/sessions/storedSession.js';
import { villagePaths } from '../../core/village/paths.js';
import type { HostApi } from '../../host/hostApi.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';
import { withVillage } from './openManaged.js';
import { forkLine, sessionListText, sessionShowText } from './sessionsText.js';

/** What every `sessions` command takes. */
export interface SessionsOptions {
  dataDir: string;
  json: boolean;
}

/** What the read-only commands read: the open host, or the store beside its owner. */
interface SessionSource {
  list(): SessionMeta[];
  read(id: string): Promise<StoredSession>;
  /** Writes `exports/{id}.jsonl` as the GUI's export does. */
  exportFile(id: string): Promise<{ path: string; records: number }>;
}

function hostSource(host: HostApi): SessionSource {
  return {
    list: () => host.listSessions(),
    read: (id) => host.readSession(id),
    exportFile: (id) => host.village.exportSession(id),
  };
}

/** Beside the owner; a village that never recorded anything has no store file and no conversations. */
function readerSource(reader: SessionReader | null): SessionSource {
  return {
    list: () => reader?.list() ?? [],
    read: async (id) => {
      if (reader === null) throw sessionNotFound(id);
      return readStoredSession(reader, id);
    },
    exportFile: async (id) => {
      if (reader === null) throw sessionNotFound(id);
      const out = reader.exportJsonl(id);
      return { path: out.path, records: out.records };
    },
  };
}

function noteError(error: unknown, output: CliOutput): ExitCode {
  if (!isFuseforksError(error)) throw error;
  output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix === undefined ? {} : { fix: error.fix }) });
  return EXIT.coreError;
}

/** Runs `fn` through the host, or beside the owner when the village is held; errors become one note and exit 1. */
async function readOnly<T>(
  dataDir: string,
  command: string,
  output: CliOutput,
  fn: (source: SessionSource) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; exit: ExitCode }> {
  try {
    const managed = await withVillage(dataDir, command, output, (host) => fn(hostSource(host)), true);
    if (managed.ok) return managed;
    if (!managed.held) return managed;
    const reader = openSessionReader(villagePaths(dataDir).workspace, { atRest: false });
    try {
      return { ok: true, value: await fn(readerSource(reader)) };
    } finally {
      await reader?.close();
    }
  } catch (error) {
    return { ok: false, exit: noteError(error, output) };
  }
}

/** `sessions list`: every stored conversation, newest first. */
export async function runSessionsList(options: SessionsOptions, output: CliOutput): Promise<ExitCode> {
  const read = await readOnly(options.dataDir, 'sessions list', output, async (source) => source.list());
  if (!read.ok) return read.exit;
  output.stdout(options.json ? jsonText({ sessions: read.value }) : sessionListText(read.value));
  return EXIT.ok;
}

/** `sessions show ID`: the meta, counts, messages and summaries of one conversation. */
export async function runSessionsShow(options: SessionsOptions & { id: string }, output: CliOutput): Promise<ExitCode> {
  const read = await readOnly(options.dataDir, 'sessions show', output, (source) => source.read(options.id));
  if (!read.ok) return read.exit;
  const show = showOf(read.value);
  output.stdout(options.json ? jsonText(show) : sessionShowText(show));
  return EXIT.ok;
}

/** `sessions export ID [--stdout]`: the JSONL export, as a file (like the GUI) or on stdout byte for byte. */
export async function runSessionsExport(options: SessionsOptions & { id: string; stdout: boolean }, output: CliOutput): Promise<ExitCode> {
  if (options.stdout) {
    const read = await readOnly(options.dataDir, 'sessions export', output, (source) => source.read(options.id));
    if (!read.ok) return read.exit;
    // exportLines ends every line with \n; stdout() adds the last one back.
    output.stdout(exportLines(read.value.meta, read.value.records).replace(/\n$/, ''));
    return EXIT.ok;
  }
  const written = await readOnly(options.dataDir, 'sessions export', output, (source) => source.exportFile(options.id));
  if (!written.ok) return written.exit;
  output.stdout(options.json ? jsonText(written.value) : `${written.value.path} (${written.value.records} records)`);
  return EXIT.ok;
}

/** `sessions fork ID [--at SEQ]`: a new conversation with the records up to SEQ (default: all of them). */
export async function runSessionsFork(options: SessionsOptions & { id: string; atSeq?: number }, output: CliOutput): Promise<ExitCode> {
  try {
    const managed = await withVillage(options.dataDir, 'sessions fork', output, async (host) => {
      const atSeq = options.atSeq ?? lastSeqOf(await host.readSession(options.id));
      const { id } = await host.village.forkSession(options.id, atSeq);
      return host.listSessions().find((m) => m.id === id) as SessionMeta;
    });
    if (!managed.ok) return managed.exit;
    output.stdout(options.json ? jsonText(managed.value) : forkLine(managed.value));
    return EXIT.ok;
  } catch (error) {
    return noteError(error, output);
  }
}

/** The newest seq of a conversation; -1 when it is empty (the store then explains that there is nothing to fork). */
function lastSeqOf(stored: StoredSession): number {
  return stored.records.at(-1)?.seq ?? -1;
}
