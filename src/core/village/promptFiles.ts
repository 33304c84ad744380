/**
 * The text files that compose an agent's system prompt (reference core.md §1.5): `Ordinance.md` and
 * `agents/{id}/SKILL.md`, `Memory.md`, `Construct.md`. A missing file reads as "". zod-free, so a worker may use it.
 */
import { readFile } from 'node:fs/promises';
import type { PromptMaterial } from '../turn/ports.js';
import type { VillagePaths } from './paths.js';
import { textFileUnreadable } from '../errors/configErrors.js';

/** Agent text files that feed the prompt. */
export type PromptFileKind = 'skill' | 'memory' | 'construct';

/** Reads a UTF-8 text file; "" when it (or its folder) does not exist. Other failures → CONFIG_IO naming the file. */
export async function readTextOrEmpty(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return '';
    throw textFileUnreadable(path, code, error);
  }
}

/** The village rules (`Ordinance.md`), "" when absent. */
export function readOrdinance(paths: VillagePaths): Promise<string> {
  return readTextOrEmpty(paths.ordinance);
}

/** One agent text file; throws UNSAFE_IDENTIFIER for an unsafe id before touching the disk. */
export function readAgentText(paths: VillagePaths, agentId: string, kind: PromptFileKind): Promise<string> {
  return readTextOrEmpty(paths.agentFile(agentId, kind));
}

/** Everything the system prompt is composed from, read fresh (the files may change between turns). */
export async function readPromptMaterial(paths: VillagePaths, agentId: string): Promise<PromptMaterial> {
  const agent = paths.agent(agentId);
  const [ordinance, construct, skill, memory] = await Promise.all([
    readTextOrEmpty(paths.ordinance),
    readTextOrEmpty(agent.construct),
    readTextOrEmpty(agent.skill),
    readTextOrEmpty(agent.memory),
  ]);
  return { ordinance, construct, skill, memory };
}
