/**
 * Tolerant readers for provider JSON: every wire decoder reads untrusted bodies through these, so a missing or
 * oddly typed field reads as empty instead of throwing somewhere deep in a decoder.
 */

/** The value as a plain object, or null. */
export function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The value as a plain object, or {} (for chained reads). */
export function recordOr(value: unknown): Record<string, unknown> {
  return asRecord(value) ?? {};
}

/** The value as an array, or []. */
export function arrayOr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The value as a string, or ''. */
export function stringOr(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Parses a JSON string; undefined when it is not JSON (the caller names the failure). */
export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A server-sent event's JSON body and its type (the `type` field, else the `event:` name). */
export function typedEvent(event: { event?: string | undefined; data: string }): { data: Record<string, unknown>; type: string } {
  const data = recordOr(tryJson(event.data));
  return { data, type: stringOr(data.type) || stringOr(event.event) };
}
