/**
 * The JSON Schemas of fuseforks-cli's `--json` shapes and shelf status files (docs/schemas/), compiled once with
 * ajv, for tests that check a real output of the built CLI against its published schema.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { expect } from 'vitest';

export const SCHEMA_DIR = fileURLToPath(new URL('../../docs/schemas/', import.meta.url));

/** Every schema file's name without `.schema.json`. */
export function schemaNames(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => f.slice(0, -'.schema.json'.length))
    .sort();
}

/** A schema file as parsed JSON. */
export function readSchema(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(SCHEMA_DIR, `${name}.schema.json`), 'utf8')) as Record<string, unknown>;
}

const ajv = new Ajv({ allErrors: true, strict: true });
const compiled = new Map<string, ValidateFunction>();

/** The ajv errors of `value` against the schema `name` (empty = valid). */
export function schemaErrors(name: string, value: unknown): string[] {
  let validate = compiled.get(name);
  if (validate === undefined) {
    validate = ajv.compile(readSchema(name));
    compiled.set(name, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** Parses `stdout` as exactly one JSON line and checks it against the schema `name`; returns the object. */
export function expectJsonLine(name: string, stdout: string): Record<string, unknown> {
  const lines = stdout.split('\n');
  expect(lines, `stdout is one line: ${stdout}`).toHaveLength(2);
  expect(lines[1]).toBe('');
  const value = JSON.parse(lines[0]!) as Record<string, unknown>;
  expect(schemaErrors(name, value), `${name}: ${lines[0]}`).toEqual([]);
  return value;
}
