/**
 * world.json text → parsed world + the raw object (kept so unknown keys survive a rewrite). Pure; main thread
 * only (zod). A failure is a CONFIG_PARSE error naming the file and the place: line:column for JSON syntax,
 * the key path for schema errors.
 */
import type { z } from 'zod';
import { FuseforksError } from '../errors.js';
import { findJsonError } from '../village/jsonErrorPosition.js';
import { worldFileSchema, type ParsedWorld } from './schema.js';
import { worldJsonSyntax, worldNotObject, worldSchemaBroken } from '../errors/configErrors.js';

/** A JSON object as read from disk (unknown keys included). */
export type RawObject = Record<string, unknown>;

/** Parsed world + raw object, or the CONFIG_PARSE error. */
export type ParseWorldResult =
  | { ok: true; parsed: ParsedWorld; raw: RawObject }
  | { ok: false; error: FuseforksError };

/** How many schema problems one message lists (the rest are counted). */
const MAX_LISTED_ISSUES = 3;

/** Parses world.json text; `file` is the path shown in errors. A leading BOM is tolerated. */
export function parseWorldText(text: string, file: string): ParseWorldResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return { ok: false, error: syntaxError(body, file) };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      ok: false,
      error: worldNotObject(file),
    };
  }
  const result = worldFileSchema.safeParse(raw);
  if (!result.success) return { ok: false, error: schemaError(result.error, raw as RawObject, file) };
  return { ok: true, parsed: result.data, raw: raw as RawObject };
}

function syntaxError(text: string, file: string): FuseforksError {
  const where = findJsonError(text);
  // JSON.parse rejected it, so the scanner finds a position; the fallback only guards a scanner gap.
  const line = where?.line ?? 1;
  const column = where?.column ?? 1;
  const reason = where?.reason ?? 'invalid JSON';
  return worldJsonSyntax(file, line, column, reason);
}

function schemaError(error: z.ZodError, raw: RawObject, file: string): FuseforksError {
  const listed = error.issues.slice(0, MAX_LISTED_ISSUES).map((issue) => `${keyPath(issue.path, raw)}: ${issue.message}`);
  const more = error.issues.length - listed.length;
  const first = error.issues[0];
  const path = first === undefined ? '(root)' : keyPath(first.path, raw);
  return worldSchemaBroken(file, listed, more, path, error.issues.length);
}

/**
 * `agents[2].order`, with the entry's id when it has one: `agents[2] (id "writer").order`, so a person finds the
 * entry without counting.
 */
export function keyPath(path: readonly PropertyKey[], raw: unknown): string {
  let out = '';
  let node: unknown = raw;
  for (const key of path) {
    if (typeof key === 'number') {
      out += `[${key}]`;
      node = Array.isArray(node) ? node[key] : undefined;
      const id = typeof node === 'object' && node !== null ? (node as { id?: unknown }).id : undefined;
      if (typeof id === 'string') out += ` (id ${JSON.stringify(id)})`;
    } else {
      const name = String(key);
      out += out === '' ? name : /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
      node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[name] : undefined;
    }
  }
  return out === '' ? '(root)' : out;
}
