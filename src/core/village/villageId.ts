/**
 * `workspace/village_id`: one lowercase hyphenated UUID v4 (36 chars) that binds shelf data such as probe
 * approvals to this village (reference ops.md). Reading and creating are separate because `check` never writes.
 */
import { randomUUID } from 'node:crypto';
import { writeFileAtomic } from './atomicWrite.js';
import type { VillagePaths } from './paths.js';
import { readTextOrEmpty } from './promptFiles.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for a 36-char lowercase hyphenated UUID. */
export function isVillageId(value: string): boolean {
  return UUID.test(value);
}

/** The village id, or null when the file is missing or malformed. Never writes. */
export async function readVillageId(paths: VillagePaths): Promise<string | null> {
  const text = (await readTextOrEmpty(paths.villageId)).trim();
  return isVillageId(text) ? text : null;
}

/** Reads the village id, creating (or replacing a malformed) one. Call only where writing is allowed. */
export async function ensureVillageId(paths: VillagePaths): Promise<{ id: string; created: boolean }> {
  const existing = await readVillageId(paths);
  if (existing !== null) return { id: existing, created: false };
  const id = randomUUID();
  await writeFileAtomic(paths.villageId, id);
  return { id, created: true };
}
