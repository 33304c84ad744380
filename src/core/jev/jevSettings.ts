/**
 * Jev, the village's helper model, as the shelf's `jev.json` describes it: which model to call (base URL, model,
 * wire) and the switches (`enabled` for everything, `pruning` for tool-result compression). The key is never here:
 * it is `jev_api_token` in the chosen secret store. Reading is lenient (a missing file is the defaults); a file that
 * cannot be parsed is reported and never overwritten. Unknown keys survive a rewrite.
 */
import { readFile } from 'node:fs/promises';
import { NO_PRICES } from '../billing/pricing.js';
import { JEV_TOKEN_KEY } from '../secrets/secretNames.js';
import { KNOWN_PROVIDERS } from '../world/enums.js';
import type { ModelTemplate, Provider } from '../world/types.js';

/** Compression starts above this many chars of one tool result unless jev.json says otherwise. */
export const DEFAULT_COMPRESS_THRESHOLD_CHARS = 8_000;
/** The smallest threshold accepted (smaller results are cheaper to read than to summarise). */
export const MIN_COMPRESS_THRESHOLD_CHARS = 1_000;

/** The helper model and its switches. */
export interface JevSettings {
  /** Master switch: false = neither judge nor compression runs. */
  enabled: boolean;
  baseUrl: string;
  model: string;
  /** The wire the helper speaks (a model template's `provider`). */
  wire: Provider;
  /** Output cap of one helper call, in tokens. */
  maxOutputTokens: number;
  requestTimeoutSecs: number;
  compression: { enabled: boolean; thresholdChars: number };
}

export const DEFAULT_JEV_SETTINGS: JevSettings = {
  enabled: true,
  baseUrl: '',
  model: '',
  wire: 'open_ai_compat',
  maxOutputTokens: 1024,
  requestTimeoutSecs: 60,
  compression: { enabled: false, thresholdChars: DEFAULT_COMPRESS_THRESHOLD_CHARS },
};

/** A model is named: the helper can be called at all (with a token). */
export function jevConfigured(settings: JevSettings): boolean {
  return settings.baseUrl.trim() !== '' && settings.model.trim() !== '';
}

type Json = Record<string, unknown>;

function int(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, Math.round(value))) : fallback;
}

/** Settings from a parsed jev.json object (wrong types fall back to defaults, one by one). */
export function parseJevSettings(value: Json): JevSettings {
  const d = DEFAULT_JEV_SETTINGS;
  const pruning = value.pruning;
  const pruningObj: Json = typeof pruning === 'object' && pruning !== null && !Array.isArray(pruning) ? (pruning as Json) : {};
  const wire = typeof value.wire === 'string' && (KNOWN_PROVIDERS as readonly string[]).includes(value.wire) ? (value.wire as Provider) : d.wire;
  return {
    enabled: value.enabled !== false,
    baseUrl: typeof value.baseUrl === 'string' ? value.baseUrl.trim() : d.baseUrl,
    model: typeof value.model === 'string' ? value.model.trim() : d.model,
    wire,
    maxOutputTokens: int(value.maxOutputTokens, d.maxOutputTokens, 16, 32_768),
    requestTimeoutSecs: int(value.requestTimeoutSecs, d.requestTimeoutSecs, 1, 600),
    compression: {
      enabled: pruning === true || pruningObj.enabled === true,
      thresholdChars: int(pruningObj.thresholdChars, d.compression.thresholdChars, MIN_COMPRESS_THRESHOLD_CHARS, 1_000_000),
    },
  };
}

/** What reading jev.json found: settings, the raw object (for rewrites), and a problem when it could not be used. */
export interface JevRead {
  settings: JevSettings;
  raw: Json;
  /** The file exists but is not a JSON object (it is then never overwritten). */
  problem: string | null;
  exists: boolean;
}

/** Reads `{dataDir}/jev.json`; missing or empty = defaults. */
export async function readJevSettings(file: string): Promise<JevRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { settings: DEFAULT_JEV_SETTINGS, raw: {}, problem: null, exists: false };
    return { settings: DEFAULT_JEV_SETTINGS, raw: {}, problem: `cannot read the file (${code ?? 'error'})`, exists: true };
  }
  if (text.trim() === '') return { settings: DEFAULT_JEV_SETTINGS, raw: {}, problem: null, exists: true };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { settings: DEFAULT_JEV_SETTINGS, raw: {}, problem: 'expected a JSON object', exists: true };
    }
    return { settings: parseJevSettings(value as Json), raw: value as Json, problem: null, exists: true };
  } catch {
    return { settings: DEFAULT_JEV_SETTINGS, raw: {}, problem: 'not valid JSON', exists: true };
  }
}

/** The jev.json object for `settings`, on top of `raw` so keys this build does not know survive. */
export function jevFileObject(raw: Json, settings: JevSettings): Json {
  const pruning = typeof raw.pruning === 'object' && raw.pruning !== null && !Array.isArray(raw.pruning) ? (raw.pruning as Json) : {};
  return {
    ...raw,
    enabled: settings.enabled,
    baseUrl: settings.baseUrl,
    model: settings.model,
    wire: settings.wire,
    maxOutputTokens: settings.maxOutputTokens,
    requestTimeoutSecs: settings.requestTimeoutSecs,
    pruning: { ...pruning, enabled: settings.compression.enabled, thresholdChars: settings.compression.thresholdChars },
  };
}

/** The helper's template id: its secret key, so the factory asks the store for `jev_api_token`. */
export const JEV_TEMPLATE_ID = JEV_TOKEN_KEY;

/**
 * The helper as a model template, so it goes through the same backend factory as every agent: credential
 * `keyring` under the id `jev_api_token` (the factory then asks the store for exactly that key).
 */
export function jevTemplate(settings: JevSettings): ModelTemplate {
  return {
    id: JEV_TEMPLATE_ID,
    name: 'Jev',
    baseUrl: settings.baseUrl,
    model: settings.model,
    contextLength: 128_000,
    temperature: null,
    maxOutputTokens: settings.maxOutputTokens,
    credential: settings.wire === 'echo' ? 'not_required' : 'keyring',
    provider: settings.wire,
    useTools: false,
    effort: null,
    // No provider-side search and no streaming: a helper call is one short answer read whole.
    googleSearch: false,
    xaiWebSearch: false,
    xaiXSearch: false,
    openaiWebSearch: false,
    openaiReasoningPro: false,
    metaWebSearch: false,
    stream: false,
    requestTimeoutSecs: settings.requestTimeoutSecs,
    maxRetries: 2,
    ...NO_PRICES,
  };
}
