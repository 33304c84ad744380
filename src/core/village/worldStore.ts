/**
 * world.json on disk (SPEC §3): load, explicit bootstrap, atomic save that keeps unknown keys, and the
 * read-only mode of an unparseable file. Main thread only (zod, through the schema).
 *
 * A missing file is its own result (the CLI maps it to VILLAGE_MISSING): nothing here creates a village except
 * `bootstrapWorld`. An unparseable file is read as the default world and every save refuses with its
 * CONFIG_PARSE error, so a file a person can still fix is never overwritten.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { FuseforksError } from '../errors.js';
import { normalizeWorld } from '../world/normalize.js';
import type { RawObject } from '../world/parseWorld.js';
import { emptyWorld, readWorldText } from '../world/readWorld.js';
import { toWorldFile } from '../world/toWorldFile.js';
import type { World } from '../world/types.js';
import { writeFileAtomic } from './atomicWrite.js';
import type { VillagePaths } from './paths.js';
import { fileAccessFailed, unparsedNotOverwritten } from '../errors/configErrors.js';
import { PRIVATE_DIR_MODE } from '../privateFiles.js';

/** A loaded world and what is needed to write it back. */
export interface WorldDocument {
  /** Absolute path of world.json. */
  path: string;
  world: World;
  /** The object last read from or written to the file (unknown keys included); null when there is none. */
  raw: RawObject | null;
  /** The file's text as last read or written (its revision is made from it); null when there is none. */
  text: string | null;
  /** What normalization changed or read leniently (no message bodies, no secrets). */
  notes: string[];
  /** True when the normalized world differs from the file: `saveWorldIfNormalized` rewrites it. */
  changed: boolean;
  /** Set when the file could not be parsed: the world is the default one and saves refuse with this error. */
  readOnly: FuseforksError | null;
}

/** Outcome of reading world.json: missing (→ VILLAGE_MISSING in the CLI), loaded, or unreadable (read-only default). */
export type WorldLoad =
  | { kind: 'missing'; path: string }
  | { kind: 'loaded'; doc: WorldDocument }
  | { kind: 'unreadable'; doc: WorldDocument; error: FuseforksError };

/** Inputs of a load besides the paths. */
export interface WorldLoadOptions {
  /** Machine locale, used only when the village language is undetermined (`ja…` → ja, else en). */
  locale: string;
}

/** The machine locale from the usual environment variables, else from Intl. */
export function systemLocale(env: NodeJS.ProcessEnv = process.env): string {
  return env.LC_ALL || env.LC_MESSAGES || env.LANG || Intl.DateTimeFormat().resolvedOptions().locale;
}

/** Reads world.json. Never writes. Throws CONFIG_IO only when the file exists but cannot be read. */
export async function loadWorld(paths: VillagePaths, options: WorldLoadOptions): Promise<WorldLoad> {
  const text = await readTextIfPresent(paths.world);
  if (text === null) return { kind: 'missing', path: paths.world };
  const parsed = await readWorldText(text, paths.world);
  if (!parsed.ok) {
    const doc = await defaultDocument(paths.world, options, parsed.error);
    return { kind: 'unreadable', doc, error: parsed.error };
  }
  const normalized = normalizeWorld(parsed.parsed, { locale: options.locale, fresh: false, raw: parsed.raw });
  return {
    kind: 'loaded',
    doc: { path: paths.world, raw: parsed.raw, text, readOnly: null, ...normalized },
  };
}

/**
 * Loads world.json, creating a fresh village (tokenBudget 1,000,000, language from the locale) when it is
 * missing. The explicit "create if missing" step: only the GUI and `init`-like commands call it.
 */
export async function bootstrapWorld(
  paths: VillagePaths,
  options: WorldLoadOptions,
): Promise<{ load: Exclude<WorldLoad, { kind: 'missing' }>; created: boolean }> {
  const load = await loadWorld(paths, options);
  if (load.kind !== 'missing') return { load, created: false };
  await mkdir(paths.workspace, { recursive: true, mode: PRIVATE_DIR_MODE }).catch((error: unknown) => {
    throw ioError(paths.workspace, 'create', error);
  });
  const fresh = normalizeWorld(await emptyWorld(), { locale: options.locale, fresh: true });
  const doc = await saveWorld({ path: paths.world, raw: null, text: null, readOnly: null, ...fresh }, fresh.world);
  return { load: { kind: 'loaded', doc: { ...doc, notes: fresh.notes } }, created: true };
}

/**
 * Writes `world` over the document's file atomically, keeping unknown keys of the last read. Refuses with the
 * document's CONFIG_PARSE error when the file could not be parsed. Returns the document after the write.
 */
export async function saveWorld(doc: WorldDocument, world: World): Promise<WorldDocument> {
  if (doc.readOnly !== null) {
    throw unparsedNotOverwritten(doc.path, doc.readOnly);
  }
  const raw = toWorldFile(world, doc.raw);
  const text = `${JSON.stringify(raw, null, 2)}\n`;
  await writeFileAtomic(doc.path, text);
  return { path: doc.path, world, raw, text, notes: [], changed: false, readOnly: null };
}

/** Rewrites the file when load normalization changed it (bootstrap step 3 of the original); else a no-op. */
export async function saveWorldIfNormalized(doc: WorldDocument): Promise<WorldDocument> {
  if (!doc.changed || doc.readOnly !== null) return doc;
  const saved = await saveWorld(doc, doc.world);
  return { ...saved, notes: doc.notes };
}

async function defaultDocument(path: string, options: WorldLoadOptions, error: FuseforksError): Promise<WorldDocument> {
  // fresh: true gives the default world a token ceiling, so agents added in memory cannot spend without limit.
  const normalized = normalizeWorld(await emptyWorld(), { locale: options.locale, fresh: true });
  return { path, world: normalized.world, raw: null, text: null, notes: [error.message], changed: false, readOnly: error };
}

/** File text, or null when the file does not exist (CONFIG_IO when it exists but cannot be read). */
export async function readTextIfPresent(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw ioError(path, 'read', error);
  }
}

function ioError(path: string, verb: string, error: unknown): FuseforksError {
  const reason = (error as NodeJS.ErrnoException).code ?? String(error);
  return fileAccessFailed(path, verb, reason, error);
}
