/**
 * The village settings a person changes in one form: your name, language, the token budget per request, how long
 * an external ask waits, the delegation depth limit, and the name external clients are shown as. Pure: checks
 * every field (naming it and the fix) and returns the new world; unknown world.json keys are the store's job.
 */
import { FuseforksError } from '../../core/errors.js';
import { LANGUAGES } from '../../core/world/enums.js';
import { normalizeUserName } from '../../core/world/normalize.js';
import type { Language, World } from '../../core/world/types.js';
import { setExternalName } from './villageEdits.js';
import { fieldInvalid } from '../../core/errors/requestErrors.js';
import { tokenBudgetInvalid, userNameInvalid } from '../../core/errors/worldErrors.js';

/** Fields of the settings form; a missing field keeps its value. */
export interface VillageSettingsInput {
  userName?: string | null;
  language?: Language;
  /** Effective tokens per request; null = no ceiling. */
  tokenBudget?: number | null;
  askTimeoutSecs?: number;
  maxHops?: number;
  externalName?: string | null;
}

/** The settings as they are now. */
export function villageSettings(world: World): Required<VillageSettingsInput> {
  const { userName, language, tokenBudget, askTimeoutSecs, maxHops, externalName } = world;
  return { userName, language, tokenBudget, askTimeoutSecs, maxHops, externalName };
}

/** Longest external wait a person may set (a day), in seconds. */
export const MAX_ASK_TIMEOUT_SECS = 86_400;
/** Deepest delegation chain a person may allow. */
export const MAX_HOPS_LIMIT = 64;

const invalid = (field: string, problem: string, fix: string): FuseforksError => fieldInvalid('Village settings', field, problem, fix);

function wholeIn(value: unknown, field: string, min: number, max: number, fix: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw invalid(field, `must be a whole number from ${min} to ${max}`, fix);
  return value;
}

/** Applies the given fields; throws naming the first bad one. */
export function applyVillageSettings(world: World, input: unknown): World {
  const s = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  let next: World = { ...world };
  if ('userName' in s) {
    const raw = s.userName;
    if (raw === null || (typeof raw === 'string' && raw.trim() === '')) next.userName = null;
    else {
      const name = typeof raw === 'string' ? normalizeUserName(raw) : null;
      if (name === null) throw userNameInvalid('userName', 'must be 1–32 characters without 【】［］ or control characters', 'Shorten the name or remove the brackets.');
      next.userName = name;
    }
  }
  if ('language' in s) {
    if (!(LANGUAGES as readonly unknown[]).includes(s.language)) throw invalid('language', `must be one of ${LANGUAGES.join(', ')}`, 'Pick 日本語 or English.');
    next.language = s.language as Language;
  }
  if ('tokenBudget' in s) {
    const budget = s.tokenBudget;
    if (budget === null) next.tokenBudget = null;
    else if (typeof budget === 'number' && Number.isSafeInteger(budget) && budget > 0) next.tokenBudget = budget;
    else throw tokenBudgetInvalid('tokenBudget', 'must be a positive whole number of effective tokens, or no limit', 'Enter e.g. 1000000, or choose no limit.');
  }
  if ('askTimeoutSecs' in s) next.askTimeoutSecs = wholeIn(s.askTimeoutSecs, 'askTimeoutSecs', 1, MAX_ASK_TIMEOUT_SECS, 'Enter the seconds an external request may wait, e.g. 600.');
  if ('maxHops' in s) next.maxHops = wholeIn(s.maxHops, 'maxHops', 1, MAX_HOPS_LIMIT, 'Enter how deep delegation may go, e.g. 8.');
  if ('externalName' in s) {
    const raw = s.externalName;
    if (raw !== null && typeof raw !== 'string') throw invalid('externalName', 'must be text or empty', 'Type a name or leave it empty.');
    next = setExternalName(next, raw);
  }
  return next;
}
