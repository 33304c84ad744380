/**
 * The last net before a diagnostic note reaches the log: field values must be numbers, booleans or short
 * markers (ids, codes, labels, model names). Anything that looks like prose (whitespace), a long blob, or a
 * credential is replaced by a marker saying only its size — so a caller that mistakenly passes a message body
 * or a key leaks a length, never the text. Sentences are kept only where the code said they are reasons, not
 * bodies: the `error` field, and values made with `diagText` (a file's path, what is wrong in it, how to fix it).
 * Those are flattened to one line, capped, and still redacted whole when they contain a key.
 */
import type { DiagFields, DiagText, DiagValue } from './diag.js';

/** Longest marker string kept as is (characters). */
export const MARKER_MAX_CHARS = 120;
/** Longest `error` text kept (characters). */
export const ERROR_MAX_CHARS = 300;
/** The one field allowed to carry a sentence. */
export const FREE_TEXT_FIELD = 'error';

// Common API-key / token shapes. Matching anywhere in a value redacts the whole value.
const SECRET_LIKE = /(?:\bsk-[A-Za-z0-9_-]{8,}|\bsk_[A-Za-z0-9]{8,}|\bxai-[A-Za-z0-9]{8,}|\bAIza[0-9A-Za-z_-]{20,}|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_\w{20,}|\bBearer\s+\S+|\bxox[abp]-[A-Za-z0-9-]{8,})/;
// Whitespace or control characters: a marker never has them.
const NOT_A_MARKER = /[\s\u0000-\u001f\u007f]/;

/** Keys pino or the log record itself own; a field with one of these names gets a trailing `_`. */
export const RESERVED_LOG_KEYS: ReadonlySet<string> = new Set(['level', 'time', 'msg', 'line']);

function isDiagText(value: DiagValue): value is DiagText {
  return typeof value === 'object' && value !== null && typeof (value as { diagText?: unknown }).diagText === 'string';
}

function keptText(text: string): string {
  if (SECRET_LIKE.test(text)) return '‹redacted›';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ERROR_MAX_CHARS ? `${flat.slice(0, ERROR_MAX_CHARS)}…` : flat;
}

/** Guards one value (pure). The result is always a primitive: a `diagText` value becomes its guarded text. */
export function guardDiagValue(key: string, value: DiagValue): string | number | boolean | null {
  if (isDiagText(value)) return keptText(value.diagText);
  if (typeof value === 'object') return null; // not a DiagText: an object never reaches the log
  if (typeof value !== 'string') return typeof value === 'number' && !Number.isFinite(value) ? null : value;
  if (SECRET_LIKE.test(value)) return '‹redacted›';
  if (key === FREE_TEXT_FIELD) return keptText(value);
  if (value.length > MARKER_MAX_CHARS || NOT_A_MARKER.test(value)) return `‹${value.length} chars›`;
  return value;
}

/** Guards every field and renames reserved keys; order is kept (the rendered line depends on it). */
export function guardDiagFields(fields: DiagFields): DiagFields {
  const out: DiagFields = {};
  for (const [key, value] of Object.entries(fields)) {
    out[RESERVED_LOG_KEYS.has(key) ? `${key}_` : key] = guardDiagValue(key, value);
  }
  return out;
}
