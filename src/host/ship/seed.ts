/**
 * `seed`: lays a bake into a data dir — the one step a container image's init and a Kubernetes init container
 * both run before `serve`. A data dir that already holds a village is left alone (a restart or a new pod keeps its
 * sessions); with `--update-design` the design files are replaced from the bake while run state (sessions, log,
 * exports) and the shelf stay. The village lock is held throughout, so a running `serve` is never changed under
 * its feet (exit 4, as for a second serve).
 *
 * world.json is written last: a seed cut short leaves no world.json, so the next seed simply starts again.
 */
import { copyFile, readdir, rename, rm, unlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AGENT_DESIGN_FILES, RUNTIME_APPENDED_DESIGN_FILE, WORKSPACE_DESIGN_FILES } from '../../core/village/designFiles.js';
import { villagePaths } from '../../core/village/paths.js';
import { readVillageId } from '../../core/village/villageId.js';
import { isSafeIdentifier } from '../../core/world/identifiers.js';
import { acquireVillageLock } from '../villageLock.js';
import { copyIfFile } from './bake.js';
import { bakeVillageMismatch, readBakeManifest } from './bakeManifest.js';
import { bakeInvalid } from '../../core/errors/hostErrors.js';
import { fileReplaceFailed } from '../../core/errors/configErrors.js';

/** What to seed. */
export interface SeedOptions {
  /** The bake folder (holds bake.json). */
  from: string;
  dataDir: string;
  /** Replace the design files of an existing village, keeping its run state. */
  updateDesign: boolean;
  /** With updateDesign: also replace Memory.md files the agents have been appending to. */
  replaceMemory: boolean;
}

/** What a seed did. */
export type SeedResult =
  | { kind: 'seeded'; written: string[] }
  | { kind: 'kept' }
  | { kind: 'updated'; written: string[]; removed: string[]; keptMemory: string[] };

const WORLD = 'workspace/world.json';
const VILLAGE_ID = 'workspace/village_id';

/** Seeds `dataDir` from the bake at `from`. Throws BAKE_INVALID, BAKE_VILLAGE_MISMATCH, LOCK_HELD, LOCK_IO, CONFIG_IO. */
export async function seedVillage(options: SeedOptions): Promise<SeedResult> {
  const manifest = readBakeManifest(options.from);
  const paths = villagePaths(options.dataDir);
  const lock = acquireVillageLock(paths.workspace);
  try {
    const exists = existsSync(paths.world);
    if (exists && !options.updateDesign) return { kind: 'kept' };
    if (exists) {
      const dataId = await readVillageId(paths);
      if (manifest.villageId !== null && dataId !== null && manifest.villageId !== dataId) {
        throw bakeVillageMismatch(manifest.villageId, dataId, paths.dataDir);
      }
    }
    const existingMemory = new Set((await designFilesIn(paths.dataDir)).filter((rel) => rel.endsWith(`/${RUNTIME_APPENDED_DESIGN_FILE}`)));
    const keptMemory: string[] = [];
    const written: string[] = [];
    // world.json goes last (see the file comment).
    const order = [...manifest.files.filter((f) => f !== WORLD), ...manifest.files.filter((f) => f === WORLD)];
    for (const rel of order) {
      if (exists && rel === VILLAGE_ID) continue; // an existing village keeps its id (it matched, or the bake has none)
      if (exists && existingMemory.has(rel) && !options.replaceMemory) {
        keptMemory.push(rel);
        continue;
      }
      await replaceFile(join(options.from, rel), join(paths.dataDir, rel));
      written.push(rel);
    }
    if (!exists) return { kind: 'seeded', written };
    const baked = new Set(manifest.files);
    const removed: string[] = [];
    for (const rel of await designFilesIn(paths.dataDir)) {
      if (baked.has(rel) || rel === VILLAGE_ID) continue;
      if (existingMemory.has(rel) && !options.replaceMemory) continue;
      await unlink(join(paths.dataDir, rel));
      removed.push(rel);
    }
    return { kind: 'updated', written, removed, keptMemory };
  } finally {
    lock.release();
  }
}

/** Copies `from` over `to` through a temp file in the target folder, so a reader never sees half a file. */
async function replaceFile(from: string, to: string): Promise<void> {
  const temp = join(dirname(to), `.seed-${process.pid}.tmp`);
  if (!(await copyIfFile(from, temp))) {
    throw bakeInvalid(`The bake lists ${from}, but the file is missing.`, 'Bake the village again.');
  }
  try {
    await rename(temp, to);
  } catch (error) {
    await rm(temp, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw fileReplaceFailed(to, code, error);
  }
}

/** Relative paths of the design files present in a data dir (agents found by folder, not by world.json). */
async function designFilesIn(dataDir: string): Promise<string[]> {
  const found: string[] = [];
  const workspace = join(dataDir, 'workspace');
  for (const name of WORKSPACE_DESIGN_FILES) if (existsSync(join(workspace, name))) found.push(`workspace/${name}`);
  let agents: string[] = [];
  try {
    agents = await readdir(join(workspace, 'agents'));
  } catch {
    return found;
  }
  for (const id of agents.filter(isSafeIdentifier).sort()) {
    for (const name of AGENT_DESIGN_FILES) if (existsSync(join(workspace, 'agents', id, name))) found.push(`workspace/agents/${id}/${name}`);
  }
  return found;
}
