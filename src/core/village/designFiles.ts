/**
 * Which files of a data dir are the village's DESIGN (what `bake` carries to a container and `seed
 * --update-design` replaces), as opposed to its RUN STATE (sessions store, log, exports, lock, serve status) and
 * its SHELF (this machine's door token, probe approvals, Jev settings, pricing source). Pure path arithmetic over
 * relative paths, so the bake, the seed and their tests share one list.
 */
import { isSafeIdentifier } from '../world/identifiers.js';
import { AGENT_FILE_NAMES } from './paths.js';

/** Design files directly under `workspace/` (each optional). */
export const WORKSPACE_DESIGN_FILES = ['world.json', 'Ordinance.md', 'schedules.json', 'mcp.json', 'village_id'] as const;

/** Design files of every agent (`workspace/agents/{id}/…`, each optional). */
export const AGENT_DESIGN_FILES: readonly string[] = [
  AGENT_FILE_NAMES.skill,
  AGENT_FILE_NAMES.construct,
  AGENT_FILE_NAMES.memory,
  AGENT_FILE_NAMES.run,
  AGENT_FILE_NAMES.mcp,
  AGENT_FILE_NAMES.judge,
];

/** Shelf files (beside `workspace/`), never baked unless named with `--with-shelf`. */
export const SHELF_FILES = ['mcp_server.json', 'probe_approvals.json', 'jev.json', 'pricing.json'] as const;
export type ShelfFile = (typeof SHELF_FILES)[number];

/**
 * Memory.md is design when baked, but the `remember` tool appends to it while the village runs, so once a
 * village has run, its Memory.md is also run state: `seed --update-design` keeps an existing one by default.
 */
export const RUNTIME_APPENDED_DESIGN_FILE = AGENT_FILE_NAMES.memory;

/** Relative (POSIX) paths of every design file a village with `agentIds` may have, in a stable order. */
export function designCandidates(agentIds: readonly string[]): string[] {
  const paths = WORKSPACE_DESIGN_FILES.map((name) => `workspace/${name}`);
  for (const id of [...new Set(agentIds)].filter(isSafeIdentifier).sort()) {
    for (const name of AGENT_DESIGN_FILES) paths.push(`workspace/agents/${id}/${name}`);
  }
  return paths;
}

/** The eval case folder under `workspace/` (its `{id}.json` files are design: they travel with a bake). */
export const EVALS_FOLDER = 'evals';

/** True when `name` can be an eval case file (`{safe id}.json`). */
export function isEvalCaseName(name: string): boolean {
  return name.endsWith('.json') && isSafeIdentifier(name.slice(0, -'.json'.length));
}

/**
 * The relative paths of the eval case files among `names` (the entries of `workspace/evals/`), sorted. A listing
 * of that one folder, never a walk: other files there (fixtures a case copies with `from`) are the person's to add
 * to a bake by hand.
 */
export function evalCaseCandidates(names: readonly string[]): string[] {
  return names.filter(isEvalCaseName).sort().map((name) => `workspace/${EVALS_FOLDER}/${name}`);
}

/** True when `relPath` (POSIX, relative to the data dir) names a design file of some agent or of the workspace. */
export function isDesignPath(relPath: string): boolean {
  const parts = relPath.split('/');
  if (parts[0] !== 'workspace') return false;
  if (parts.length === 3 && parts[1] === EVALS_FOLDER) return isEvalCaseName(parts[2] ?? '');
  if (parts.length === 2) return (WORKSPACE_DESIGN_FILES as readonly string[]).includes(parts[1] ?? '');
  return parts.length === 4 && parts[1] === 'agents' && isSafeIdentifier(parts[2] ?? '') && AGENT_DESIGN_FILES.includes(parts[3] ?? '');
}

/** The named shelf files, or the first name that is not a shelf file. */
export function parseShelfList(names: readonly string[]): { ok: true; files: ShelfFile[] } | { ok: false; bad: string } {
  const files: ShelfFile[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (name === '') continue;
    if (!(SHELF_FILES as readonly string[]).includes(name)) return { ok: false, bad: name };
    if (!files.includes(name as ShelfFile)) files.push(name as ShelfFile);
  }
  return { ok: true, files };
}
