/**
 * The host's Jev facet: the helper model's settings on the shelf, its write-only token, a test call, and each
 * agent's judge switch. The token never comes back: only whether one is stored. Saving the settings and switching
 * a judge take a base (jev.json's / that judge.json's revision, core/village/revision.ts) and run one at a time.
 */
import { jevFileObject, jevTemplate, readJevSettings, type JevSettings } from '../core/jev/jevSettings.js';
import { readJudgeConfig } from '../core/jev/judgeConfig.js';
import type { JevTestResult, JevView, JudgeView } from '../core/jev/jevView.js';
import { isFuseforksError } from '../core/errors.js';
import { createBackendStrict } from '../core/llm/factory.js';
import { JEV_TOKEN_KEY } from '../core/secrets/secretNames.js';
import { MemorySecretStore, type SecretStore } from '../core/secrets/secretStore.js';
import { writeFileAtomic } from '../core/village/atomicWrite.js';
import type { VillagePaths } from '../core/village/paths.js';
import { readTextOrEmpty } from '../core/village/promptFiles.js';
import { fileTarget, requireContentBase, revisionsOf, type EditBase, type EditTarget, type Revisions } from '../core/village/revision.js';
import { KNOWN_PROVIDERS } from '../core/world/enums.js';
import type { Provider, World } from '../core/world/types.js';
import type { JevApi } from './hostApi.js';

export type { JevTestResult, JevView, JudgeView } from '../core/jev/jevView.js';
import { jevToken, setJudgeEnabled } from './jevHost.js';
import { jevFileUnusable, jevServantNotFound, jevSettingInvalid } from '../core/errors/jevErrors.js';
import { isSafeIdentifier } from '../core/world/identifiers.js';


/** What the Jev facet needs from the host. */
export interface JevPorts {
  paths: VillagePaths;
  secrets: SecretStore;
  /** The current world (agents and their work folders). */
  world(): World;
}

/** Checks a settings object from the Jev page; every field named when wrong. */
export function checkJevInput(input: unknown): JevSettings {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw jevSettingInvalid('settings', 'an object');
  const v = input as Record<string, unknown>;
  const bool = (k: string): boolean => {
    if (typeof v[k] !== 'boolean') throw jevSettingInvalid(k, 'true or false');
    return v[k] as boolean;
  };
  const int = (k: string, min: number, max: number): number => {
    const n = v[k];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) throw jevSettingInvalid(k, `a whole number from ${min} to ${max}`);
    return n;
  };
  const baseUrl = typeof v.baseUrl === 'string' ? v.baseUrl.trim() : null;
  if (baseUrl === null || (baseUrl !== '' && !/^https?:\/\/\S+$/.test(baseUrl))) throw jevSettingInvalid('baseUrl', 'an http(s) URL, or empty');
  if (typeof v.model !== 'string') throw jevSettingInvalid('model', 'a string');
  if (typeof v.wire !== 'string' || !(KNOWN_PROVIDERS as readonly string[]).includes(v.wire)) throw jevSettingInvalid('wire', `one of ${KNOWN_PROVIDERS.join(', ')}`);
  const compression = v.compression as Record<string, unknown> | undefined;
  if (typeof compression !== 'object' || compression === null) throw jevSettingInvalid('compression', 'an object {enabled, thresholdChars}');
  if (typeof compression.enabled !== 'boolean') throw jevSettingInvalid('compression.enabled', 'true or false');
  const threshold = compression.thresholdChars;
  if (typeof threshold !== 'number' || !Number.isInteger(threshold) || threshold < 1000 || threshold > 1_000_000) {
    throw jevSettingInvalid('compression.thresholdChars', 'a whole number from 1000 to 1000000');
  }
  return {
    enabled: bool('enabled'),
    baseUrl,
    model: v.model.trim(),
    wire: v.wire as Provider,
    maxOutputTokens: int('maxOutputTokens', 16, 32_768),
    requestTimeoutSecs: int('requestTimeoutSecs', 1, 600),
    compression: { enabled: compression.enabled, thresholdChars: threshold },
  };
}

/** The Jev facet over a host's parts. */
export class JevCommands implements JevApi {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly ports: JevPorts) {}

  /** The Jev page, read now. */
  async view(): Promise<JevView> {
    const read = await readJevSettings(this.ports.paths.shelf.jev);
    // An agent with an unsafe id has no folder (and no judge.json) to read: it is left out (preflight names it).
    const agents = this.ports.world().agents.filter((a) => isSafeIdentifier(a.id));
    const judges = agents.map((a): JudgeView => {
      const c = readJudgeConfig(this.ports.paths.workspace, a.id);
      return { agentId: a.id, declared: c.declared, enabled: c.declared && c.enabled, to: c.to, problem: c.problem };
    });
    const revisions: Revisions = revisionsOf(this.settingsTarget, await readTextOrEmpty(this.settingsTarget.file));
    for (const a of agents) Object.assign(revisions, revisionsOf(this.judgeTarget(a.id), await readTextOrEmpty(this.judgeTarget(a.id).file)));
    return { settings: read.settings, tokenPresent: jevToken(this.ports.secrets) !== null, problem: read.problem, judges, revisions };
  }

  /** Saves the settings over jev.json, keeping keys this build does not know; a broken file is never overwritten. */
  save(input: unknown, base?: EditBase): Promise<JevView> {
    return this.serial(async () => {
      const settings = checkJevInput(input);
      const file = this.ports.paths.shelf.jev;
      const read = await readJevSettings(file);
      if (read.problem !== null) {
        throw jevFileUnusable(file, read.problem, 'settings');
      }
      requireContentBase(this.settingsTarget, await readTextOrEmpty(file), base);
      await writeFileAtomic(file, `${JSON.stringify(jevFileObject(read.raw, settings), null, 2)}\n`);
      return this.view();
    });
  }

  /** Stores the token (write-only; trimmed; an empty one is refused). */
  async setToken(token: string): Promise<JevView> {
    if (token.trim() === '') throw jevSettingInvalid('token', 'a non-empty token');
    this.ports.secrets.set(JEV_TOKEN_KEY, token.trim());
    return this.view();
  }

  /** Removes the token. */
  async clearToken(): Promise<JevView> {
    if (jevToken(this.ports.secrets) !== null) this.ports.secrets.delete(JEV_TOKEN_KEY);
    return this.view();
  }

  /** Turns one agent's judge on or off and, when given, names its judge agent (judge.json, other keys kept). */
  setJudge(agentId: string, enabled: boolean, to: string | null = null, base?: EditBase): Promise<JevView> {
    return this.serial(async () => {
      const ids = this.ports.world().agents.map((a) => a.id);
      for (const id of [agentId, ...(to === null ? [] : [to])]) {
        if (!ids.includes(id)) {
          throw jevServantNotFound(id);
        }
      }
      if (to === agentId) throw jevSettingInvalid('to', 'another servant (a servant cannot be its own judge)');
      const target = this.judgeTarget(agentId);
      requireContentBase(target, await readTextOrEmpty(target.file), base);
      await setJudgeEnabled(this.ports.paths.workspace, agentId, enabled, to);
      return this.view();
    });
  }

  private get settingsTarget(): EditTarget {
    return fileTarget(this.ports.paths.dataDir, this.ports.paths.shelf.jev);
  }

  private judgeTarget(agentId: string): EditTarget {
    return fileTarget(this.ports.paths.dataDir, this.ports.paths.agentFile(agentId, 'judge'), { agentId });
  }

  private serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** One short call to the saved helper model with the stored token ("Test connection"). */
  async test(now: () => number = Date.now): Promise<JevTestResult> {
    const { settings } = await readJevSettings(this.ports.paths.shelf.jev);
    const started = now();
    const token = jevToken(this.ports.secrets);
    try {
      const backend = createBackendStrict({ ...jevTemplate(settings), maxRetries: 1 }, new MemorySecretStore(token === null ? {} : { [JEV_TOKEN_KEY]: token }));
      const response = await backend.chat({
        model: settings.model,
        messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
        tools: [],
        toolChoice: 'none',
        temperature: null,
        maxTokens: 16,
        effort: null,
        cacheablePrefixLen: 0,
      });
      return { ok: true, model: settings.model, elapsedMs: now() - started, reply: (response.text ?? '').slice(0, 80) };
    } catch (error) {
      const code = isFuseforksError(error) ? error.code : 'BUG';
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, model: settings.model, elapsedMs: now() - started, code, message: message.split(token ?? '\u0000').join('***') };
    }
  }
}
