/**
 * Enum values of world.json as runtime lists (zod-free, so the normalizer and workers can use them).
 * Each list is checked against its plain type in `types.ts` at compile time.
 */
import type { CredentialSource, Effort, Language, Provider, RoleColor } from './types.js';

/** Provider wire values this build speaks (SPEC §3.1); any other string reads as unsupported. */
export const KNOWN_PROVIDERS = [
  'open_ai_compat',
  'anthropic',
  'gemini',
  'xai_responses',
  'open_ai_responses',
  'meta_responses',
  'echo',
] as const satisfies readonly Provider[];
/** Where a template's secret comes from; `unset` also covers the legacy `none`. */
export const CREDENTIAL_SOURCES = ['unset', 'not_required', 'keyring'] as const satisfies readonly CredentialSource[];
/** Reasoning effort levels a template may request. */
export const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const satisfies readonly Effort[];
/** Role label colors. */
export const ROLE_COLORS = [
  'red', 'orange', 'amber', 'green', 'teal', 'blue', 'violet', 'pink',
] as const satisfies readonly RoleColor[];
/** Village languages (prompts, notices, preflight text). */
export const LANGUAGES = ['ja', 'en'] as const satisfies readonly Language[];

/** True when `value` is one of `values` (narrows to the enum). */
export function isOneOf<const T extends readonly string[]>(values: T, value: unknown): value is T[number] {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}
