/**
 * Jev on the host side: what each agent worker is started with (the shelf's jev.json and the `jev_api_token`
 * from the chosen store, read at every start so the GUI's changes apply to the next started agent), the `jev:`
 * line of the startup band with the real state, and the judge switch of one agent (judge.json, other keys kept).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DiagSink } from '../core/diag.js';
import { isFuseforksError } from '../core/errors.js';
import { jevConfigured, readJevSettings } from '../core/jev/jevSettings.js';
import { judgeFile, judgeOn, readJudgeConfig } from '../core/jev/judgeConfig.js';
import { JEV_TOKEN_KEY } from '../core/secrets/secretNames.js';
import type { SecretStore } from '../core/secrets/secretStore.js';
import { writeFileAtomic } from '../core/village/atomicWrite.js';
import type { VillagePaths } from '../core/village/paths.js';
import type { World } from '../core/world/types.js';
import type { JevInit } from '../actors/protocol.js';
import { jevFileUnusable, judgeAgentMissing } from '../core/errors/jevErrors.js';
import { PRIVATE_DIR_MODE } from '../core/privateFiles.js';

/** The token when stored; null when absent or the store refuses to read (never thrown, never logged). */
export function jevToken(secrets: SecretStore): string | null {
  try {
    const token = secrets.get(JEV_TOKEN_KEY);
    return token === null || token.trim() === '' ? null : token.trim();
  } catch {
    return null;
  }
}

/** What a worker gets about Jev when its agent starts. */
export async function jevInit(paths: VillagePaths, secrets: SecretStore): Promise<JevInit> {
  const { settings } = await readJevSettings(paths.shelf.jev);
  // The store is asked only when Jev can call its model: a keyring read is a D-Bus round trip per started agent.
  return { settings, token: settings.enabled && jevConfigured(settings) ? jevToken(secrets) : null };
}

/**
 * The `jev:` line: what jev.json says (enabled, model, wire, compression and its threshold), how many agents
 * declare a judge, whether the token is stored, and `active` = switched on, a model named and the token stored.
 * Presence only: the token itself never reaches the log.
 */
export async function noteJev(paths: VillagePaths, world: World, secrets: SecretStore, diag: DiagSink): Promise<{ active: boolean }> {
  const read = await readJevSettings(paths.shelf.jev);
  const s = read.settings;
  const token = jevToken(secrets) !== null;
  const judges = world.agents.filter((a) => judgeOn(readJudgeConfig(paths.workspace, a.id))).length;
  const active = s.enabled && (jevConfigured(s) || s.wire === 'echo') && (token || s.wire === 'echo');
  diag.note(
    'jev',
    {
      enabled: s.enabled,
      active,
      model: s.model === '' ? '-' : s.model,
      wire: s.wire,
      compression: s.compression.enabled,
      threshold: s.compression.thresholdChars,
      judges,
      token: token ? 'present' : 'missing',
      blocked: read.problem !== null,
    },
    read.problem !== null || (!active && (judges > 0 || s.compression.enabled)) ? 'warn' : 'info',
  );
  return { active };
}

/**
 * Turns an agent's judge on or off in `agents/{id}/judge.json` and, when given, names the judge agent (`to`), keeping
 * every other key. Turning on needs a judge (given now or already in the file). A judge.json that cannot be parsed
 * is never overwritten (CONFIG_PARSE names the file).
 */
export async function setJudgeEnabled(workspaceDir: string, agentId: string, enabled: boolean, to: string | null = null): Promise<void> {
  const file = judgeFile(workspaceDir, agentId);
  let raw: Record<string, unknown> = {};
  let text: string | null = null;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== null && text.trim() !== '') {
    const config = readJudgeConfig(workspaceDir, agentId);
    if (config.problem !== null) {
      throw jevFileUnusable(file, config.problem, 'judge');
    }
    raw = JSON.parse(text) as Record<string, unknown>;
  }
  const judge = to ?? (typeof raw.to === 'string' && raw.to.trim() !== '' ? raw.to : null);
  if (enabled && judge === null) {
    throw judgeAgentMissing(agentId);
  }
  await mkdir(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  await writeFileAtomic(file, `${JSON.stringify({ ...raw, ...(to === null ? {} : { to }), enabled }, null, 2)}\n`);
}

/** Whether a FuseforksError is the parse refusal above (for callers that show it as a form error). */
export function isJudgeParseError(error: unknown): boolean {
  return isFuseforksError(error) && error.code === 'CONFIG_PARSE';
}
