/**
 * `--json` kept (built binary): every command prints exactly one object on stdout for every exit code — argument
 * errors (`--timeout 0`, an unknown flag, an extra argument, an unknown command), a missing village, a change
 * refused while another process holds the village — and each object validates against its published JSON Schema
 * in docs/schemas/ (ajv, strict). Schemas whose enums mirror a code list are kept equal to it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_FAULT_KINDS } from '../../src/core/errorFaults.js';
import { AGENT_STATUSES, PLAN_TASK_STATES } from '../../src/core/events.js';
import { CREDENTIAL_SOURCES } from '../../src/core/world/enums.js';
import { JSON_FORMAT } from '../../src/cli/jsonFormat.js';
import { expectJsonLine, readSchema, schemaErrors, schemaNames } from '../support/jsonSchemas.js';
import { cliBudget, describeRun, exampleVillage, holdVillage, runCli, useCliSuite } from './support/cliProcess.js';

const { temps } = useCliSuite();

/** Runs the built CLI with `--json` and checks its one stdout line against `schema`; returns the object and exit code. */
async function jsonRun(schema: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; value: Record<string, unknown> }> {
  const run = await runCli([...args, '--json'], env);
  const value = expectJsonLine(schema, run.stdout);
  expect(value.format, describeRun(run)).toBe(JSON_FORMAT);
  return { code: run.code, value };
}

/** A property's enum deep inside a schema, by a path of property names (items are stepped through). */
function enumAt(schema: Record<string, unknown>, path: string[]): unknown {
  let node: Record<string, unknown> = schema;
  for (const key of path) {
    if (node.type === 'array') node = node.items as Record<string, unknown>;
    if (Array.isArray(node.anyOf)) node = (node.anyOf as Array<Record<string, unknown>>)[0]!;
    node = (node.properties as Record<string, Record<string, unknown>>)[key]!;
  }
  if (Array.isArray(node.anyOf)) node = (node.anyOf as Array<Record<string, unknown>>)[0]!;
  return node.enum;
}

describe('--json: one object for every exit code, each valid against docs/schemas (built binary)', () => {
  it('argument errors print the error object (ask: its report with the error), exit 2', { timeout: cliBudget(5) }, async () => {
    const dir = exampleVillage(temps);
    for (const bad of [['--timeout', '0', 'hi'], ['--no-such-flag', 'hi'], ['hi', 'extra']]) {
      const { code, value } = await jsonRun('ask', ['ask', '-d', dir, '--start', 'reception', ...bad]);
      expect(code).toBe(2);
      expect(value).toMatchObject({ answer: null, outcome: null, exitCode: 2, error: { code: 'ARGUMENT', exitCode: 2, fault: 'user' } });
    }
    const unknown = await jsonRun('error', ['agents', 'lsit', '-d', dir]);
    expect(unknown.code).toBe(2);
    expect(unknown.value).toMatchObject({ error: { code: 'ARGUMENT', exitCode: 2 } });
    const missingFlag = await jsonRun('error', ['door', 'status']);
    expect(missingFlag.value).toMatchObject({ error: { code: 'ARGUMENT', message: expect.stringContaining('data-dir') } });
  });

  it('a missing village and a refused change print the error object (5, 4); read-only commands still answer', { timeout: cliBudget(4) }, async () => {
    const missing = await jsonRun('error', ['agents', 'list', '-d', join(temps.make(), 'nowhere')]);
    expect(missing.code).toBe(5);
    expect(missing.value).toMatchObject({ error: { code: 'VILLAGE_MISSING', exitCode: 5 } });
    const dir = exampleVillage(temps);
    const holder = await holdVillage(dir);
    try {
      const refused = await jsonRun('error', ['door', 'enable', '-d', dir]);
      expect(refused.code).toBe(4);
      expect(refused.value).toMatchObject({ error: { code: 'LOCK_HELD', exitCode: 4, fix: expect.any(String) } });
      const listed = await jsonRun('agents-list', ['agents', 'list', '-d', dir]);
      expect(listed.value).toMatchObject({ held: true, statusFrom: 'none' });
    } finally {
      await holder.release();
    }
  });

  it('every management command\'s success object validates against its schema', { timeout: cliBudget(20) }, async () => {
    const dir = exampleVillage(temps);
    expect((await jsonRun('check', ['check', '--for', 'ask', '-d', dir, '--start', 'reception'])).code).toBe(0);
    expect((await jsonRun('agents-list', ['agents', 'list', '-d', dir])).value.statusFrom).toBe('host');
    await jsonRun('door-view', ['door', 'status', '-d', dir]);
    await jsonRun('door-view', ['door', 'enable', '-d', dir]);
    await jsonRun('door-token', ['door', 'token', '-d', dir]);
    await jsonRun('door-view', ['door', 'disable', '-d', dir]);
    const added = await jsonRun('schedules-change', ['schedules', 'add', '-d', dir, '--to', 'front', '-m', 'hello', '--daily', '09:30']);
    const id = (added.value.schedule as { id: string }).id;
    await jsonRun('schedules-list', ['schedules', 'list', '-d', dir]);
    await jsonRun('schedules-change', ['schedules', 'disable', id, '-d', dir]);
    await jsonRun('schedules-change', ['schedules', 'remove', id, '-d', dir]);
    await jsonRun('secrets-list', ['secrets', 'list', '-d', dir, '--secrets', 'env']);
    await jsonRun('approvals-list', ['approvals', 'list', '-d', dir]);
    await jsonRun('pricing', ['pricing', '-d', dir]);
    await jsonRun('stats', ['stats', '-d', dir]);
    const sessions = await jsonRun('sessions-list', ['sessions', 'list', '-d', dir]);
    const sessionId = (sessions.value.sessions as Array<{ id: string }>)[0]!.id;
    await jsonRun('sessions-show', ['sessions', 'show', sessionId, '-d', dir]);
    await jsonRun('sessions-export', ['sessions', 'export', sessionId, '-d', dir]);
    // No serve ran here: unhealthy (exit 1), still one object.
    const status = await jsonRun('status', ['status', '-d', dir]);
    expect(status).toMatchObject({ code: 1, value: { healthy: false, status: null } });
    const bake = await jsonRun('bake', ['bake', '-d', dir, '--start', 'batch', '--out', join(temps.make(), 'bake')]);
    expect(bake.code).toBe(0);
  });

  it('serve.status.json validates against serve-status.schema.json; a broken one is caught', () => {
    const doc = { format: 1, pid: 42, state: 'serving', since: '2026-12-04T00:00:00.000Z', updatedAt: '2026-12-04T00:00:10.000Z', agentsRunning: ['front'], door: null, lastScheduleTick: null, lastError: null };
    expect(schemaErrors('serve-status', doc)).toEqual([]);
    expect(schemaErrors('serve-status', { ...doc, state: 'sleeping' })).not.toEqual([]);
    expect(schemaErrors('status', { format: 1, healthy: true, reason: 'ok', status: doc })).toEqual([]);
  });

  it('every schema is strict JSON Schema and its code enums equal the code lists', () => {
    for (const name of schemaNames()) expect(() => schemaErrors(name, {}), name).not.toThrow();
    expect(enumAt(readSchema('agents-list'), ['agents', 'status'])).toEqual([...AGENT_STATUSES]);
    expect(enumAt(readSchema('error'), ['error', 'fault'])).toEqual([...ERROR_FAULT_KINDS]);
    expect(enumAt(readSchema('secrets-list'), ['secrets', 'credential'])).toEqual([...CREDENTIAL_SOURCES]);
    expect(enumAt(readSchema('eval'), ['cases', 'repeats', 'outcome'])).toEqual([...PLAN_TASK_STATES]);
  });
});
