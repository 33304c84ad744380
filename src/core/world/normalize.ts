/**
 * Load normalization of a parsed world.json (reference core.md §1.2–§1.4; bootstrap.rs order). Pure: the locale
 * and "is this a fresh village" are inputs; every change is reported as a note and `changed` says whether the
 * file should be rewritten.
 */
import { CREDENTIAL_SOURCES, EFFORTS, isOneOf, KNOWN_PROVIDERS, LANGUAGES, ROLE_COLORS } from './enums.js';
import type { ParsedWorld } from './schema.js';
import type { Language, World } from './types.js';
import { FRESH_TOKEN_BUDGET } from './worldDefaults.js';

/** Longest user / external name, in Unicode code points. */
export const MAX_USER_NAME_CODE_POINTS = 32;

/** Inputs of `normalizeWorld` besides the parsed world. */
export interface NormalizeOptions {
  /** BCP 47-ish locale of the machine (e.g. `ja-JP`, `en_US.UTF-8`); used only when language is undetermined. */
  locale: string;
  /** True when no world.json existed (the village is being created). */
  fresh: boolean;
  /** The raw parsed JSON, to note lenient readings (legacy credential, unknown enum values). */
  raw?: unknown;
}

/** The normalized world and what normalization did. */
export interface NormalizeResult {
  world: World;
  notes: string[];
  /** True when the normalized world differs from what the file says: the caller may rewrite it. */
  changed: boolean;
}

/** `ja…` → ja, anything else → en (bootstrap.rs: undetermined language follows the OS locale). */
export function languageFromLocale(locale: string): Language {
  return locale.trim().toLowerCase().startsWith('ja') ? 'ja' : 'en';
}

const FORBIDDEN_NAME_CHARS = /[【】［］]/u;
const CONTROL_CHARS = /\p{Cc}/u;

/** The userName / externalName rule: trimmed, non-empty, ≤ 32 code points, no 【】［］, no control chars; else null. */
export function normalizeUserName(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if ([...trimmed].length > MAX_USER_NAME_CODE_POINTS) return null;
  if (FORBIDDEN_NAME_CHARS.test(trimmed) || CONTROL_CHARS.test(trimmed)) return null;
  return trimmed;
}

/** Normalizes a parsed world as the original does on load, plus duplicate-id and duplicate-tie cleanup. */
export function normalizeWorld(parsed: ParsedWorld, options: NormalizeOptions): NormalizeResult {
  const notes: string[] = [];
  let changed = false;
  const change = (note: string): void => {
    notes.push(note);
    changed = true;
  };

  const agents = dedupeById(parsed.agents, 'agent', change);
  const ids = new Set(agents.map((agent) => agent.id));
  const normalizedAgents = agents.map((agent) => {
    const kept: string[] = [];
    const dropped: string[] = [];
    for (const target of agent.connectedAgents) {
      if (target === agent.id || !ids.has(target) || kept.includes(target)) dropped.push(target);
      else kept.push(target);
    }
    if (dropped.length > 0) {
      change(`agent ${q(agent.id)}: dropped ${dropped.length} tie(s) to itself, an unknown agent or twice: ${dropped.map(q).join(', ')}`);
    }
    return { ...agent, connectedAgents: kept };
  });

  const topologyPositions: World['topologyPositions'] = {};
  const strayPositions: string[] = [];
  for (const [id, position] of Object.entries(parsed.topologyPositions)) {
    if (ids.has(id)) topologyPositions[id] = position;
    else strayPositions.push(id);
  }
  if (strayPositions.length > 0) change(`topologyPositions: dropped ${strayPositions.length} position(s) of unknown agents`);

  let tokenBudget = parsed.tokenBudget;
  if (tokenBudget === 0) {
    tokenBudget = null;
    change('tokenBudget: 0 is read as "no ceiling" (null)');
  }
  if (options.fresh && tokenBudget === null) {
    tokenBudget = FRESH_TOKEN_BUDGET;
    change(`tokenBudget: a new village starts with ${FRESH_TOKEN_BUDGET} effective tokens per request`);
  }

  let language = parsed.language;
  if (language === null) {
    language = languageFromLocale(options.locale);
    change(`language: undetermined, set to ${language} from the system locale`);
  }

  const world: World = {
    agents: normalizedAgents,
    groups: dedupeById(parsed.groups, 'group', change),
    modelTemplates: dedupeById(parsed.modelTemplates, 'model template', change),
    roles: dedupeById(parsed.roles, 'role', change),
    topologyPositions,
    tokenBudget,
    language,
    userName: nameField('userName', parsed.userName, change),
    reception: parsed.reception,
    externalName: nameField('externalName', parsed.externalName, change),
    askTimeoutSecs: parsed.askTimeoutSecs,
    maxHops: parsed.maxHops,
  };

  const lenient = lenientReadings(options.raw);
  for (const note of lenient.notes) notes.push(note);
  return { world, notes, changed: changed || lenient.rewrites };
}

function dedupeById<T extends { id: string }>(items: T[], what: string, change: (note: string) => void): T[] {
  const seen = new Set<string>();
  const kept: T[] = [];
  for (const item of items) {
    if (seen.has(item.id)) {
      change(`${what} ${q(item.id)}: a second entry with the same id was dropped`);
      continue;
    }
    seen.add(item.id);
    kept.push(item);
  }
  return kept;
}

function nameField(key: string, value: string | null, change: (note: string) => void): string | null {
  if (value === null) return null;
  const normalized = normalizeUserName(value);
  if (normalized === null) {
    // The value itself is not echoed: names are user text, notes go to logs.
    change(`${key}: dropped (must be 1-${MAX_USER_NAME_CODE_POINTS} characters after trim, without 【】［］ or control characters)`);
  } else if (normalized !== value) {
    change(`${key}: surrounding whitespace trimmed`);
  }
  return normalized;
}

interface LenientReadings {
  notes: string[];
  /** True when a lenient reading changes what would be written (unknown providers are written back as read). */
  rewrites: boolean;
}

/** Notes for values the schema read leniently; looks at the raw JSON because the schema output no longer shows them. */
function lenientReadings(raw: unknown): LenientReadings {
  const notes: string[] = [];
  let rewrites = false;
  if (!isRecord(raw)) return { notes, rewrites };
  for (const template of recordsOf(raw.modelTemplates)) {
    const id = q(String(template.id));
    const { credential, provider, effort } = template;
    if (credential === 'none') {
      notes.push(`model template ${id}: legacy credential "none" read as "unset"`);
      rewrites = true;
    } else if (typeof credential === 'string' && !isOneOf(CREDENTIAL_SOURCES, credential)) {
      notes.push(`model template ${id}: unknown credential ${q(credential)} read as "unset"`);
      rewrites = true;
    }
    if (typeof provider === 'string' && !isOneOf(KNOWN_PROVIDERS, provider)) {
      notes.push(`model template ${id}: provider ${q(provider)} is not supported by this build; agents on it cannot run`);
    }
    if (typeof effort === 'string' && !isOneOf(EFFORTS, effort)) {
      notes.push(`model template ${id}: unknown effort ${q(effort)} read as unset`);
      rewrites = true;
    }
  }
  for (const role of recordsOf(raw.roles)) {
    const color = role.color;
    if (typeof color === 'string' && !isOneOf(ROLE_COLORS, color)) {
      notes.push(`role ${q(String(role.id))}: unknown color ${q(color)} read as unset`);
      rewrites = true;
    }
  }
  if (typeof raw.language === 'string' && !isOneOf(LANGUAGES, raw.language)) {
    notes.push(`language: unknown value ${q(raw.language)} read as undetermined`);
  }
  return { notes, rewrites };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function recordsOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

const q = (value: string): string => JSON.stringify(value);
