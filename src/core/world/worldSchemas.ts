/**
 * The zod schemas of world.json, loaded on demand: reading a valid village never needs them (fastWorld.ts), only
 * edits from the GUI/HostApi and the explanation of a broken file do. Async callers load them first
 * (`loadWorldSchemas`); the synchronous edit functions then take them from here (`worldSchemas`).
 */
import { BugError } from '../errors.js';

export type WorldSchemas = typeof import('./schema.js');

let loaded: WorldSchemas | null = null;

/** Loads zod and the schemas once. */
export async function loadWorldSchemas(): Promise<WorldSchemas> {
  loaded ??= await import('./schema.js');
  return loaded;
}

/** The schemas; a bug when nobody loaded them first (the edit paths await `loadWorldSchemas`). */
export function worldSchemas(): WorldSchemas {
  if (loaded === null) throw new BugError('world.json schemas used before loadWorldSchemas()');
  return loaded;
}
