/**
 * JSON Schema → Gemini `Schema` (an OpenAPI 3.0 subset that answers 400 to any key it does not know, e.g.
 * `$schema` or `additionalProperties` that MCP servers write). An allow list, not a deny list: unknown keys from
 * servers we do not control must never break a turn. `const` becomes a one-value `enum`; a type array with
 * "null" becomes one type plus `nullable`. `$ref`/`$defs` are not resolved (guessing a type would lie to the model).
 */
import { asRecord } from './wireJson.js';

const SCHEMA_KEYS = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'items', 'properties', 'required', 'minItems',
  'maxItems', 'minProperties', 'maxProperties', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern',
  'example', 'default', 'anyOf', 'propertyOrdering',
]);

/** A JSON Schema trimmed to what Gemini accepts (pure). */
export function sanitizeSchema(schema: unknown): unknown {
  const object = asRecord(schema);
  if (object === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (!SCHEMA_KEYS.has(key)) continue;
    if (key === 'properties') {
      const props = asRecord(value);
      if (props === null) continue;
      out.properties = Object.fromEntries(Object.entries(props).map(([name, sub]) => [name, sanitizeSchema(sub)]));
    } else if (key === 'items') {
      out.items = sanitizeSchema(value);
    } else if (key === 'anyOf') {
      if (!Array.isArray(value)) continue;
      out.anyOf = value.map(sanitizeSchema);
    } else if (key === 'type' && Array.isArray(value)) {
      if (value.includes('null')) out.nullable = true;
      const first = value.find((t) => t !== 'null');
      if (first !== undefined) out.type = first;
    } else {
      out[key] = value;
    }
  }
  if ('const' in object && !('enum' in out)) out.enum = [object.const];
  return out;
}

/** The `parameters` of a function declaration, or undefined for a function without arguments (no empty object). */
export function geminiParameters(schema: unknown): unknown {
  const sanitized = sanitizeSchema(schema);
  const props = asRecord(asRecord(sanitized)?.properties);
  return props === null || Object.keys(props).length === 0 ? undefined : sanitized;
}
