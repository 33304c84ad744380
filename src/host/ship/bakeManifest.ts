/**
 * `bake.json`: the manifest at the root of a bake. It lists exactly the files the bake carries (so `seed` copies
 * those and nothing else), what the container must provide (secret variable names, stdio MCP commands), and the
 * village it came from (so `seed --update-design` never lays one village's design over another's run state).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDesignPath, SHELF_FILES, type ShelfFile } from '../../core/village/designFiles.js';
import { bakeInvalid, bakeVillageMismatch } from '../../core/errors/hostErrors.js';

/** File name of the manifest inside a bake folder (never copied into a data dir). */
export const BAKE_MANIFEST_FILE = 'bake.json';
/** Bumped only when a reader of an older bake would misread a newer one. */
export const BAKE_FORMAT = 1;

/** A stdio MCP server the container must be able to start. */
export interface BakedMcpCommand {
  server: string;
  /** null = the shared mcp.json. */
  agentId: string | null;
  command: string;
}

/** The manifest's shape. Paths are POSIX and relative to the bake root (= the data dir they seed). */
export interface BakeManifest {
  format: typeof BAKE_FORMAT;
  /** The village's id (`workspace/village_id`), or null when the village has not been given one yet. */
  villageId: string | null;
  /** The `--start` the bake was checked for, and the ids it resolved to. */
  start: { flag: string; ids: string[] };
  /** Design files, then the shelf files named with `--with-shelf`. */
  files: string[];
  shelf: ShelfFile[];
  /** `FUSEFORKS_SECRET_*` variables the container must set. */
  secrets: string[];
  mcpCommands: BakedMcpCommand[];
  bakedAt: string;
}

/** The manifest of the bake at `bakeDir`; BAKE_INVALID when it is missing, unreadable or lists a foreign path. */
export function readBakeManifest(bakeDir: string): BakeManifest {
  const file = join(bakeDir, BAKE_MANIFEST_FILE);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const why = error instanceof SyntaxError ? 'it is not valid JSON' : `it cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    throw bakeInvalid(`${bakeDir} is not a bake: ${file} ${why}.`, 'Point --from at a folder made by `fuseforks-cli bake`.');
  }
  const m = parsed as Partial<BakeManifest>;
  if (m.format !== BAKE_FORMAT || !Array.isArray(m.files) || !Array.isArray(m.shelf)) {
    throw bakeInvalid(`${file} is not a format-${BAKE_FORMAT} bake manifest.`, 'Bake the village again with this version of fuseforks-cli.');
  }
  for (const path of m.files) {
    const shelfFile = typeof path === 'string' && (SHELF_FILES as readonly string[]).includes(path);
    if (typeof path !== 'string' || (!shelfFile && !isDesignPath(path))) {
      throw bakeInvalid(`${file} lists "${String(path)}", which is neither a design file nor a shelf file.`, 'Bake the village again; never edit bake.json by hand.');
    }
  }
  return m as BakeManifest;
}

/** BAKE_INVALID and BAKE_VILLAGE_MISMATCH: their factories live in the error catalogue. */
export { bakeInvalid, bakeVillageMismatch };
