/**
 * world.json text → parsed world + raw object, loading zod only when it is needed: a valid document goes through
 * the zod-free reader (fastWorld.ts); anything else — bad JSON, a wrong type, anything unusual — goes to the schema
 * parser (parseWorld.ts), which gives the same result or the CONFIG_PARSE error that names the file and the key.
 */
import { fastParseWorld } from './fastWorld.js';
import type { ParseWorldResult, RawObject } from './parseWorld.js';

/** As `parseWorldText`, without loading zod for a valid document. */
export async function readWorldText(text: string, file: string): Promise<ParseWorldResult> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    raw = undefined;
  }
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const parsed = fastParseWorld(raw as RawObject);
    if (parsed !== null) return { ok: true, parsed, raw: raw as RawObject };
  }
  const { parseWorldText } = await import('./parseWorld.js');
  return parseWorldText(text, file);
}

/** The schema's parse of `{}`: the world of a missing or unreadable file (loads zod; never on a valid ask). */
export async function emptyWorld(): Promise<import('./schema.js').ParsedWorld> {
  const { worldFileSchema } = await import('./schema.js');
  return worldFileSchema.parse({});
}
