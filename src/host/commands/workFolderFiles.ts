/**
 * The `@` path completion of the chat input: files and folders of one servant's work folder whose path matches
 * what the person typed. Confined exactly as the file tools are: the folder part of the query is resolved with
 * symlinks followed and must stay inside the (real) work folder, else it is refused with the tools' own text; the
 * walk below it never follows a symlink and skips dot-entries and build folders (the grep/fd walker). Bounded: at
 * most MAX_WORK_FILE_ENTRIES entries are visited and MAX_WORK_FILE_MATCHES answered.
 */
import { stat } from 'node:fs/promises';
import { resolveInWorkDir } from '../../core/tools/confinement.js';
import { walkSync } from '../../core/tools/walker.js';
import type { World } from '../../core/world/types.js';
import type { WorkFileList } from '../../core/tools/workFolderShapes.js';
import { requestFieldInvalid, workPathRefused } from '../../core/errors/requestErrors.js';
import { requireAgent } from './agentEdits.js';

/** Most paths one completion answers. */
export const MAX_WORK_FILE_MATCHES = 50;
/** Most entries one completion walks (a huge folder answers what it saw, marked truncated). */
export const MAX_WORK_FILE_ENTRIES = 5000;
/** Longest query accepted. */
export const MAX_WORK_FILE_QUERY = 512;

export type { WorkFileList } from '../../core/tools/workFolderShapes.js';

/** Orders matches: the name starting with the needle first, then shallower paths, then by path. */
export function rankWorkPaths(paths: readonly string[], needle: string): string[] {
  const lower = needle.toLowerCase();
  const nameOf = (p: string) => p.replace(/\/$/, '').split('/').at(-1)!.toLowerCase();
  const depth = (p: string) => p.replace(/\/$/, '').split('/').length;
  return [...paths].sort((a, b) => {
    const pa = nameOf(a).startsWith(lower) ? 0 : 1;
    const pb = nameOf(b).startsWith(lower) ? 0 : 1;
    return pa - pb || depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0);
  });
}

/**
 * Paths under the folder part of `query` (before its last `/`) whose path below that folder contains the rest,
 * case-insensitively. AGENT_NOT_FOUND for an unknown servant; INVALID_REQUEST (field query) when the folder part
 * leaves the work folder, is missing, or the query is not a plain string.
 */
export async function listWorkFiles(world: World, agentId: string, query: unknown): Promise<WorkFileList> {
  const agent = requireAgent(world, agentId);
  if (typeof query !== 'string' || query.length > MAX_WORK_FILE_QUERY) {
    throw requestFieldInvalid('query', `a string of at most ${MAX_WORK_FILE_QUERY} characters`);
  }
  const empty: WorkFileList = { agentId, workDir: agent.workDir, query, paths: [], truncated: false };
  if (agent.workDir === null) return empty;
  const slash = query.lastIndexOf('/');
  const folder = slash < 0 ? '' : query.slice(0, slash);
  const needle = query.slice(slash + 1).toLowerCase();
  const resolved = await resolveInWorkDir(agent.workDir, folder, world.language);
  if (!resolved.ok) throw workPathRefused(agentId, resolved.refusal);
  if (!(await stat(resolved.path)).isDirectory()) return empty;

  const prefix = folder === '' ? '' : `${folder}/`;
  const found: string[] = [];
  let visited = 0;
  const complete = walkSync(resolved.path, '', true, (_abs, rel, isDir) => {
    visited += 1;
    if (rel.toLowerCase().includes(needle)) found.push(`${prefix}${rel}${isDir ? '/' : ''}`);
    return visited < MAX_WORK_FILE_ENTRIES;
  });
  return { ...empty, paths: rankWorkPaths(found, needle).slice(0, MAX_WORK_FILE_MATCHES), truncated: !complete };
}
