/**
 * Lenient, read-only readers of the few files preflight looks at besides world.json and schedules.json:
 * `mcp.json` (shared and per agent), `agents/{id}/judge.json` and the shelf's `jev.json`.
 * They never write and never throw for a missing file; a broken file comes back as a problem string so
 * `check` can say which file is broken (the runtime reports it again at boot).
 */
import { readFile } from 'node:fs/promises';
import { parseJevSettings } from '../jev/jevSettings.js';
import { judgeOn, parseJudgeConfig } from '../jev/judgeConfig.js';
import type { McpServerView } from './headlessPreflight.js';

/** A file (or one entry of it) that exists but could not be used: a CONFIG_BROKEN finding of `check`. */
export interface ReadProblem {
  file: string;
  reason: string;
  /** How to fix it, when the reader knows better than the generic advice. */
  fix?: string;
}

type Json = Record<string, unknown>;

async function readJsonObject(file: string): Promise<{ value: Json | null; problem: ReadProblem | null }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { value: null, problem: null };
    return { value: null, problem: { file, reason: `cannot read the file (${code ?? 'error'})` } };
  }
  if (text.trim() === '') return { value: null, problem: null };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { value: null, problem: { file, reason: 'expected a JSON object' } };
    return { value: value as Json, problem: null };
  } catch {
    return { value: null, problem: { file, reason: 'not valid JSON' } };
  }
}

/**
 * The servers of one mcp.json (Claude Desktop format `{"mcpServers": {name: {command, args, env, enabled}}}`).
 * An entry with a `command` is stdio; one with only a `url` is a remote transport (`type`, else `http`).
 * `enabled` defaults to true, as in the original.
 */
export async function readMcpServers(file: string, agentId: string | null): Promise<{ servers: McpServerView[]; problem: ReadProblem | null }> {
  const { value, problem } = await readJsonObject(file);
  if (value === null) return { servers: [], problem };
  const table = value.mcpServers;
  if (table === undefined) return { servers: [], problem: null };
  if (typeof table !== 'object' || table === null || Array.isArray(table)) {
    return { servers: [], problem: { file, reason: '"mcpServers" must be an object' } };
  }
  const servers: McpServerView[] = [];
  for (const [name, entry] of Object.entries(table as Json)) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Json;
    const enabled = e.enabled !== false;
    if (typeof e.command === 'string') servers.push({ name, agentId, transport: 'stdio', command: e.command, enabled });
    else {
      const view: McpServerView = { name, agentId, transport: typeof e.type === 'string' ? e.type : 'http', enabled };
      if (typeof e.url === 'string') view.url = e.url;
      if (typeof e.oauth === 'object' && e.oauth !== null) view.oauth = true;
      servers.push(view);
    }
  }
  return { servers, problem: null };
}

/**
 * The judge an agent declares in `agents/{id}/judge.json` (see core/jev/judgeConfig.ts): declared by a non-empty
 * `to` (the judge agent), off with `enabled: false`.
 */
export async function readJudgeTarget(file: string): Promise<{ declared: boolean; to: string | null; problem: ReadProblem | null }> {
  const { value, problem } = await readJsonObject(file);
  if (value === null) return { declared: false, to: null, problem };
  const config = parseJudgeConfig(JSON.stringify(value));
  return { declared: judgeOn(config), to: judgeOn(config) ? config.to : null, problem: null };
}

/** What preflight needs from the shelf's jev.json. */
export interface JevView {
  /** False only when jev.json says `"enabled": false` (then neither judge nor compression can run). */
  enabled: boolean;
  /** Tool-result compression (`"pruning": true` or `"pruning": {"enabled": true}`). */
  compression: boolean;
}

/** Reads jev.json; missing = enabled, no compression (judges alone still need the token). */
export async function readJevView(file: string): Promise<{ jev: JevView; problem: ReadProblem | null }> {
  const { value, problem } = await readJsonObject(file);
  if (value === null) return { jev: { enabled: true, compression: false }, problem };
  const settings = parseJevSettings(value);
  return { jev: { enabled: settings.enabled, compression: settings.compression.enabled }, problem: null };
}
