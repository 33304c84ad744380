/**
 * Setting one work folder on several servants at once (the batch work-folder dialog). The folder is checked
 * before anything is written — absolute, existing, a folder, readable — and a refusal names the folder, why and
 * how to fix it. The edit itself is pure: every listed servant gets the folder in one world.json write (atomic,
 * unknown keys kept, by the world store); an empty folder clears it (the file tools stay off until one is set).
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { isAbsolute, normalize } from 'node:path';
import type { World } from '../../core/world/types.js';
import type { WorkDirCheck } from '../../core/tools/workFolderShapes.js';
import { requestFieldInvalid, workDirInvalid } from '../../core/errors/requestErrors.js';
import { requireAgent } from './agentEdits.js';

export type { WorkDirCheck } from '../../core/tools/workFolderShapes.js';

/** Checks a work folder on disk (blank = clear). Never throws for a bad folder: the answer says why. */
export async function checkWorkDir(folder: string): Promise<WorkDirCheck> {
  const text = folder.trim();
  if (text === '') return { ok: true, path: null };
  const no = (reason: string, fix: string): WorkDirCheck => ({ ok: false, folder: text, reason, fix });
  if (!isAbsolute(text)) return no('is not an absolute path', 'Give the full path from the root, such as /home/you/project.');
  const path = normalize(text).replace(/(.)\/+$/, '$1');
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return no('does not exist', 'Create the folder first, or correct the path.');
    return no(`cannot be opened (${code ?? 'unknown error'})`, 'Give your user access to the folder, or choose another one.');
  }
  if (!info.isDirectory()) return no('is a file, not a folder', 'Choose the folder that contains it.');
  try {
    await access(path, constants.R_OK | constants.X_OK);
  } catch {
    return no('cannot be read (permission denied)', 'Give your user read access to the folder, or choose another one.');
  }
  return { ok: true, path };
}

/** Throws INVALID_REQUEST (field workDir) naming the folder, the reason and the fix; else the path to store. */
export async function requireWorkDir(folder: string): Promise<string | null> {
  const check = await checkWorkDir(folder);
  if (!check.ok) throw workDirInvalid(check.folder, check.reason, check.fix);
  return check.path;
}

/** Every listed servant gets `workDir` (already checked); unknown ids AGENT_NOT_FOUND, an empty list INVALID_REQUEST. */
export function setWorkDirs(world: World, ids: readonly string[], workDir: string | null): World {
  if (ids.length === 0) throw requestFieldInvalid('ids', 'a list of at least one servant id');
  for (const id of ids) requireAgent(world, id);
  const chosen = new Set(ids);
  return { ...world, agents: world.agents.map((a) => (chosen.has(a.id) ? { ...a, workDir } : a)) };
}
