/**
 * Safe identifiers: agent, template, role and group ids. An agent id becomes a folder name (`agents/{id}/`),
 * so the rule is what blocks path traversal (reference core.md §1.1). Types only + one error: worker-safe.
 */
import { unsafeIdentifier } from '../errors/configErrors.js';

/** Longest safe identifier, in characters. */
export const MAX_IDENTIFIER_LENGTH = 64;

const SAFE = /^[A-Za-z0-9_-]{1,64}$/;

/** True for 1–64 characters of `[A-Za-z0-9_-]` (ASCII only: no dots, slashes, spaces or look-alikes). */
export function isSafeIdentifier(value: unknown): value is string {
  return typeof value === 'string' && SAFE.test(value);
}

/**
 * `value` quoted for a message: JSON escaping, every character outside printable ASCII as \uXXXX (so NUL, newlines
 * and right-to-left marks can neither forge a log line nor reorder the text around them), cut after 80 characters.
 */
export function quoteIdentifier(value: string): string {
  const cut = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return JSON.stringify(cut).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Throws `UNSAFE_IDENTIFIER` unless `value` is safe. `what` names the field in the message (e.g. "agent id").
 * The value is quoted with JSON escaping so control characters cannot forge log lines.
 */
export function assertSafeIdentifier(value: unknown, what = 'identifier'): asserts value is string {
  if (isSafeIdentifier(value)) return;
  const shown = typeof value === 'string' ? quoteIdentifier(value) : typeof value;
  throw unsafeIdentifier(what, shown, MAX_IDENTIFIER_LENGTH);
}
