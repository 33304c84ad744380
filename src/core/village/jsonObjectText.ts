/**
 * A small settings file's text read as one JSON object (pure): the object, or why not, with the line:column of a
 * syntax error — the shared first step of every shelf file reader, each of which then checks its own keys.
 */
import { findJsonError } from './jsonErrorPosition.js';

/** The parsed object, or the reason it is not one (for the caller's error naming the file). */
export type JsonObjectRead = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

/** Parses `text` (not empty) as a JSON object. */
export function readJsonObject(text: string): JsonObjectRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const at = findJsonError(text);
    return { ok: false, reason: at === null ? 'not valid JSON' : `not valid JSON at line ${at.line}, column ${at.column} (${at.reason})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'expected a JSON object' };
  return { ok: true, value: value as Record<string, unknown> };
}
