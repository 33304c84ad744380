/**
 * One agent's files as text for the inspector's editors: SKILL.md (instructions), Memory.md, Construct.md, and the
 * raw mcp.json and run.json. Reads say when a JSON file cannot be used; writes check JSON files with the same
 * parsers the runtime uses (a text the village could not load is refused and the file stays as it was), are
 * atomic, and refuse a text edited over an older version of the file (an agent may `remember` meanwhile): the
 * base is the revision the editor read (core/village/revision.ts), EDIT_CONFLICT when the file is no longer that.
 */
import { mkdir } from 'node:fs/promises';
import { isFuseforksError } from '../../core/errors.js';
import { parseRunPolicy } from '../../core/tools/runPolicy.js';
import { writeFileAtomic } from '../../core/village/atomicWrite.js';
import type { VillagePaths } from '../../core/village/paths.js';
import { readTextOrEmpty } from '../../core/village/promptFiles.js';
import type { World } from '../../core/world/types.js';
import { fileTarget, requireContentBase, revisionsOf, type EditBase, type EditTarget, type Revisions } from '../../core/village/revision.js';
import { parseMcpConfig } from '../mcp/mcpConfig.js';
import { requireAgent } from './agentEdits.js';
import { agentJsonInvalid } from '../../core/errors/configErrors.js';
import { textNotString, unknownAgentFile } from '../../core/errors/requestErrors.js';
import { PRIVATE_DIR_MODE } from '../../core/privateFiles.js';

/** The files the inspector edits. */
export const EDITABLE_AGENT_FILES = ['skill', 'memory', 'construct', 'mcp', 'run'] as const;
export type EditableAgentFile = (typeof EDITABLE_AGENT_FILES)[number];

/** One file as the editor shows it. */
export interface AgentFileView {
  agentId: string;
  kind: EditableAgentFile;
  /** Absolute path (shown so a person can find it). */
  file: string;
  /** Current text ("" when the file does not exist). */
  text: string;
  /** Why a JSON file cannot be used as it is (the runtime reads it as empty); null when fine or not JSON. */
  problem: string | null;
  /** The file's revision: the base of a save made from this text. */
  revisions: Revisions;
}

function targetOf(paths: VillagePaths, agentId: string, file: string): EditTarget {
  return fileTarget(paths.dataDir, file, { agentId });
}

/** Reads one agent file. */
export async function readAgentFile(paths: VillagePaths, world: World, agentId: string, kind: unknown): Promise<AgentFileView> {
  const k = checkKind(kind);
  requireAgent(world, agentId);
  const file = paths.agentFile(agentId, k);
  const text = await readTextOrEmpty(file);
  return { agentId, kind: k, file, text, problem: problemOf(k, text, file), revisions: revisionsOf(targetOf(paths, agentId, file), text) };
}

/**
 * Writes one agent file. `base` is the revision the editor read: when the file changed since, the write is refused
 * (EDIT_CONFLICT) so nobody overwrites what the agent (or another window) wrote meanwhile.
 */
export async function writeAgentFile(paths: VillagePaths, world: World, agentId: string, kind: unknown, text: unknown, base?: EditBase): Promise<AgentFileView> {
  const k = checkKind(kind);
  requireAgent(world, agentId);
  if (typeof text !== 'string') {
    throw textNotString('file');
  }
  const file = paths.agentFile(agentId, k);
  requireContentBase(targetOf(paths, agentId, file), await readTextOrEmpty(file), base);
  const problem = problemOf(k, text, file);
  if (problem !== null) {
    throw agentJsonInvalid(file, agentId, problem);
  }
  await mkdir(paths.agent(agentId).dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await writeFileAtomic(file, text);
  return readAgentFile(paths, world, agentId, k);
}

function checkKind(kind: unknown): EditableAgentFile {
  if (typeof kind === 'string' && (EDITABLE_AGENT_FILES as readonly string[]).includes(kind)) return kind as EditableAgentFile;
  throw unknownAgentFile(kind, EDITABLE_AGENT_FILES);
}

/** What is wrong with a JSON file's text, in the runtime's own words; null for Markdown or a usable file. */
function problemOf(kind: EditableAgentFile, text: string, file: string): string | null {
  if (kind === 'run') return parseRunPolicy(text).broken;
  if (kind !== 'mcp' || text.trim() === '') return null;
  try {
    parseMcpConfig(text, file);
    return null;
  } catch (error) {
    return isFuseforksError(error) ? error.message : String(error);
  }
}
