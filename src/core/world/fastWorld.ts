/**
 * A zod-free reading of world.json for the common case, so `ask` (preflight and boot) never loads zod for a valid
 * village: the same output `worldFileSchema` gives (defaults, lenient enums, unknown keys dropped, the same key
 * order), or null as soon as anything is unusual — a wrong type, an out-of-range number, a non-object entry. Null
 * means "let zod decide": it then parses the document itself and explains any error (readWorld.ts). So this reader
 * may be stricter than the schema, never looser; test/core/world/fastWorld.test.ts holds the two equal.
 */
import type { ParsedWorld } from './schema.js';
import { CREDENTIAL_SOURCES, EFFORTS, isOneOf, KNOWN_PROVIDERS, LANGUAGES, ROLE_COLORS } from './enums.js';
import type { AgentRole, AgentSpec, Group, ModelTemplate, Position } from './types.js';
import { DEFAULT_ASK_TIMEOUT_SECS, DEFAULT_BASE_URL, DEFAULT_MAX_HOPS } from './worldDefaults.js';

/** Thrown inside the reader when the document needs zod; never leaves this module. */
class NeedsSchema extends Error {}
const give = (): never => {
  throw new NeedsSchema();
};

type Obj = Record<string, unknown>;

function object(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : give();
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : give();
}

function bool(value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  return typeof value === 'boolean' ? value : give();
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : give();
}

/** A whole number ≥ `min` (and ≤ `max`), within the safe range. */
function whole(value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max ? value : give();
}

function withDefault<T>(value: unknown, fallback: T, read: (v: unknown) => T): T {
  return value === undefined ? fallback : read(value);
}

function nullable<T>(value: unknown, read: (v: unknown) => T): T | null {
  return value === null ? null : read(value);
}

/** Every element read by `read` (an index loop: `map` would skip the holes of a sparse array). */
function each<T>(value: unknown, read: (v: unknown) => T): T[] {
  if (!Array.isArray(value)) give();
  const items = value as unknown[];
  const out: T[] = [];
  for (let i = 0; i < items.length; i += 1) out.push(read(items[i]));
  return out;
}

function strings(value: unknown): string[] {
  return each(value, str);
}

function list<T>(value: unknown, read: (v: unknown) => T): T[] {
  return value === undefined ? [] : each(value, read);
}

/** A string enum read leniently: an unknown string is null; a non-string needs the schema. */
function lenient<const T extends readonly string[]>(values: T, value: unknown): T[number] | null {
  if (value === undefined || value === null) return null;
  const text = str(value);
  return isOneOf(values, text) ? text : null;
}

function agent(value: unknown): AgentSpec {
  const a = object(value);
  return {
    id: str(a['id']),
    name: str(a['name']),
    modelTemplateId: str(a['modelTemplateId']),
    ragSources: withDefault(a['ragSources'], [], strings),
    connectedAgents: withDefault(a['connectedAgents'], [], strings),
    order: withDefault(a['order'], 0, (v) => whole(v, 0)),
    workDir: withDefault(a['workDir'], null, (v) => nullable(v, str)),
    maxToolIterations: withDefault(a['maxToolIterations'], null, (v) => nullable(v, (n) => whole(n, 0, 255))),
    enabledTools: withDefault(a['enabledTools'], null, (v) => nullable(v, strings)),
    hearsRoomLog: bool(a['hearsRoomLog'], true),
    allowHandoff: bool(a['allowHandoff'], true),
    batchStart: bool(a['batchStart'], true),
    roleId: withDefault(a['roleId'], null, (v) => nullable(v, str)),
    groupId: withDefault(a['groupId'], null, (v) => nullable(v, str)),
    hidden: bool(a['hidden'], false),
    planReview: bool(a['planReview'], false),
  };
}

const price = (value: unknown): number | null => withDefault(value, null, (v) => nullable(v, (n) => (num(n) >= 0 ? (n as number) : give())));

function template(value: unknown): ModelTemplate {
  const t = object(value);
  const credential = t['credential'] === undefined ? undefined : str(t['credential']);
  const provider = withDefault(t['provider'], null, (v) => nullable(v, str));
  const rest = {
    id: str(t['id']),
    name: str(t['name']),
    baseUrl: withDefault(t['baseUrl'], DEFAULT_BASE_URL, str),
    model: str(t['model']),
    contextLength: withDefault(t['contextLength'], 128_000, (v) => whole(v, 0)),
    temperature: withDefault(t['temperature'], null, (v) => nullable(v, num)),
    maxOutputTokens: withDefault(t['maxOutputTokens'], 8192, (v) => whole(v, 0)),
    credential: isOneOf(CREDENTIAL_SOURCES, credential) ? credential : ('unset' as const),
    useTools: bool(t['useTools'], true),
    effort: lenient(EFFORTS, t['effort']),
    googleSearch: bool(t['googleSearch'], false),
    xaiWebSearch: bool(t['xaiWebSearch'], false),
    xaiXSearch: bool(t['xaiXSearch'], false),
    openaiWebSearch: bool(t['openaiWebSearch'], false),
    openaiReasoningPro: bool(t['openaiReasoningPro'], false),
    metaWebSearch: bool(t['metaWebSearch'], false),
    stream: bool(t['stream'], true),
    requestTimeoutSecs: withDefault(t['requestTimeoutSecs'], 120, (v) => whole(v, 0)),
    maxRetries: withDefault(t['maxRetries'], 3, (v) => whole(v, 0)),
    // Only when set, as in the schema (the backends default to 8 MiB); dropping it would lift the reply cap.
    ...(t['maxResponseBytes'] === undefined ? {} : { maxResponseBytes: whole(t['maxResponseBytes'], 0) }),
    inputPerMtok: price(t['inputPerMtok']),
    outputPerMtok: price(t['outputPerMtok']),
    cacheReadPerMtok: price(t['cacheReadPerMtok']),
    cacheWritePerMtok: price(t['cacheWritePerMtok']),
    cacheWrite1hPerMtok: price(t['cacheWrite1hPerMtok']),
    pricingAsOf: withDefault(t['pricingAsOf'], null, (v) => nullable(v, str)),
  };
  if (provider === null || isOneOf(KNOWN_PROVIDERS, provider)) return { ...rest, provider };
  return { ...rest, provider: null, unsupportedProvider: provider };
}

function role(value: unknown): AgentRole {
  const r = object(value);
  const d = r['defaults'] === undefined ? {} : object(r['defaults']);
  return {
    id: str(r['id']),
    name: str(r['name']),
    description: withDefault(r['description'], '', str),
    color: lenient(ROLE_COLORS, r['color']),
    defaults: {
      construct: withDefault(d['construct'], '', str),
      modelTemplateId: withDefault(d['modelTemplateId'], null, (v) => nullable(v, str)),
      enabledTools: withDefault(d['enabledTools'], null, (v) => nullable(v, strings)),
      maxToolIterations: withDefault(d['maxToolIterations'], null, (v) => nullable(v, (n) => whole(n, 0, 255))),
    },
  };
}

function group(value: unknown): Group {
  const g = object(value);
  return { id: str(g['id']), name: str(g['name']), batchStart: bool(g['batchStart'], true), order: withDefault(g['order'], 0, (v) => whole(v, 0)) };
}

function positions(value: unknown): Record<string, Position> {
  if (value === undefined) return {};
  const out: Record<string, Position> = {};
  for (const [key, entry] of Object.entries(object(value))) {
    const p = object(entry);
    out[key] = { x: num(p['x']), y: num(p['y']) };
  }
  return out;
}

/** `raw` (the parsed JSON object) read as the schema would, or null when only the schema can decide. */
export function fastParseWorld(raw: Record<string, unknown>): ParsedWorld | null {
  try {
    return {
      agents: list(raw['agents'], agent),
      groups: list(raw['groups'], group),
      modelTemplates: list(raw['modelTemplates'], template),
      roles: list(raw['roles'], role),
      topologyPositions: positions(raw['topologyPositions']),
      tokenBudget: withDefault(raw['tokenBudget'], null, (v) => nullable(v, (n) => whole(n, 0))),
      language: lenient(LANGUAGES, raw['language']),
      userName: withDefault(raw['userName'], null, (v) => nullable(v, str)),
      reception: withDefault(raw['reception'], null, (v) => nullable(v, str)),
      externalName: withDefault(raw['externalName'], null, (v) => nullable(v, str)),
      askTimeoutSecs: withDefault(raw['askTimeoutSecs'], DEFAULT_ASK_TIMEOUT_SECS, (v) => whole(v, 1)),
      maxHops: withDefault(raw['maxHops'], DEFAULT_MAX_HOPS, (v) => whole(v, 1)),
    };
  } catch (error) {
    if (error instanceof NeedsSchema) return null;
    throw error;
  }
}
