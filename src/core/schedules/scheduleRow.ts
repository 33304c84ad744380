/**
 * One schedules.json row: read from plain JSON (with the original's defaults), validated field by field, and
 * written back in the original's key order with every unknown key kept (row, recurrence and probe level).
 * Defaults are left out on write (`probe`, `sessionMode: continue`, `summarizeAfter: false`), so a probeless row
 * made by the desktop app re-serialises unchanged. Errors name the field and never quote the message text.
 */
import { isAbsolute } from 'node:path';
import type { Recurrence, ScheduledTask, ScheduleProbe, Weekday } from './types.js';

/** A field that failed validation: `field` is a dotted path (`recurrence.hour`, `probe.timeoutSecs`). */
export interface RowProblem {
  field: string;
  message: string;
}

/** Result of reading one row: the task plus the raw object it came from (keeps unknown keys). */
export type RowResult =
  | { ok: true; task: ScheduledTask; raw: Record<string, unknown> }
  | { ok: false; problem: RowProblem; id: string | null };

/** Default probe timeout in seconds, and its allowed range (1..3600). */
export const PROBE_TIMEOUT_DEFAULT_SECS = 60;
export const PROBE_TIMEOUT_MAX_SECS = 3600;

const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ROW_KEYS = [
  'id', 'to', 'message', 'recurrence', 'createdAtMs', 'lastConsumedDueMs', 'enabled', 'probe', 'sessionMode',
  'summarizeAfter',
] as const;
const PROBE_KEYS = ['command', 'args', 'expect', 'timeoutSecs', 'cwd'] as const;

class Invalid extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function int(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new Invalid(field, `${field} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

function text(value: unknown, field: string, nonBlank: boolean): string {
  if (typeof value !== 'string') throw new Invalid(field, `${field} must be a string`);
  if (nonBlank && value.trim() === '') throw new Invalid(field, `${field} must not be empty`);
  return value;
}

function readRecurrence(value: unknown): Recurrence {
  if (!isObject(value)) throw new Invalid('recurrence', 'recurrence must be an object with a "kind"');
  switch (value.kind) {
    case 'interval':
      return { kind: 'interval', everyMinutes: int(value.everyMinutes, 'recurrence.everyMinutes', 1, 10_000_000) };
    case 'daily':
      return {
        kind: 'daily',
        hour: int(value.hour, 'recurrence.hour', 0, 23),
        minute: int(value.minute, 'recurrence.minute', 0, 59),
      };
    case 'weekly': {
      const weekday = value.weekday;
      if (typeof weekday !== 'string' || !WEEKDAYS.includes(weekday as Weekday)) {
        throw new Invalid('recurrence.weekday', `recurrence.weekday must be one of ${WEEKDAYS.join(', ')}`);
      }
      return {
        kind: 'weekly',
        weekday: weekday as Weekday,
        hour: int(value.hour, 'recurrence.hour', 0, 23),
        minute: int(value.minute, 'recurrence.minute', 0, 59),
      };
    }
    default:
      throw new Invalid('recurrence.kind', 'recurrence.kind must be "interval", "daily" or "weekly"');
  }
}

function readProbe(value: unknown): ScheduleProbe {
  if (!isObject(value)) throw new Invalid('probe', 'probe must be an object');
  const args = value.args ?? [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) {
    throw new Invalid('probe.args', 'probe.args must be a list of strings');
  }
  const cwd = value.cwd ?? null;
  if (cwd !== null && (typeof cwd !== 'string' || !isAbsolute(cwd))) {
    throw new Invalid('probe.cwd', 'probe.cwd must be an absolute path or null (null = the workspace)');
  }
  return {
    command: text(value.command, 'probe.command', true),
    args: args as string[],
    expect: text(value.expect, 'probe.expect', true),
    timeoutSecs:
      value.timeoutSecs === undefined
        ? PROBE_TIMEOUT_DEFAULT_SECS
        : int(value.timeoutSecs, 'probe.timeoutSecs', 1, PROBE_TIMEOUT_MAX_SECS),
    cwd: cwd as string | null,
  };
}

function readTask(raw: Record<string, unknown>): ScheduledTask {
  const id = text(raw.id, 'id', true);
  if (!UUID.test(id)) throw new Invalid('id', 'id must be a uuid (8-4-4-4-12 hex digits)');
  const task: ScheduledTask = {
    id,
    to: text(raw.to, 'to', true),
    message: text(raw.message, 'message', false),
    recurrence: readRecurrence(raw.recurrence),
    createdAtMs: int(raw.createdAtMs, 'createdAtMs', 0, Number.MAX_SAFE_INTEGER),
    lastConsumedDueMs:
      raw.lastConsumedDueMs === undefined || raw.lastConsumedDueMs === null
        ? null
        : int(raw.lastConsumedDueMs, 'lastConsumedDueMs', 0, Number.MAX_SAFE_INTEGER),
    enabled: raw.enabled === undefined ? true : readBool(raw.enabled, 'enabled'),
  };
  if (raw.probe !== undefined && raw.probe !== null) task.probe = readProbe(raw.probe);
  if (raw.sessionMode !== undefined) {
    if (raw.sessionMode !== 'continue' && raw.sessionMode !== 'fresh') {
      throw new Invalid('sessionMode', 'sessionMode must be "continue" or "fresh"');
    }
    task.sessionMode = raw.sessionMode;
  }
  if (raw.summarizeAfter !== undefined) task.summarizeAfter = readBool(raw.summarizeAfter, 'summarizeAfter');
  return task;
}

function readBool(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw new Invalid(field, `${field} must be true or false`);
  return value;
}

/** Reads one row of the file; a bad row is reported with the field and (when readable) its id. */
export function parseScheduleRow(value: unknown): RowResult {
  if (!isObject(value)) return { ok: false, id: null, problem: { field: '(row)', message: 'a row must be an object' } };
  try {
    return { ok: true, task: readTask(value), raw: value };
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    const id = typeof value.id === 'string' ? value.id : null;
    return { ok: false, id, problem: { field: error.field, message: error.message } };
  }
}

/** Validates a whole task (CRUD input); null when valid. Also requires a non-blank message. */
export function validateSchedule(task: ScheduledTask): RowProblem | null {
  const result = parseScheduleRow(serializeRow(task));
  if (!result.ok) return result.problem;
  if (task.message.trim() === '') return { field: 'message', message: 'message must not be empty' };
  return null;
}

function withExtras(known: Record<string, unknown>, raw: unknown, knownKeys: readonly string[]): Record<string, unknown> {
  if (!isObject(raw)) return known;
  const out = { ...known };
  for (const [key, value] of Object.entries(raw)) {
    if (!knownKeys.includes(key) && !(key in out)) out[key] = value;
  }
  return out;
}

/** The row as written to the file: original key order, defaults left out, unknown keys of `raw` appended. */
export function serializeRow(task: ScheduledTask, raw?: Record<string, unknown>): Record<string, unknown> {
  const r = task.recurrence;
  const recurrence: Record<string, unknown> =
    r.kind === 'interval'
      ? { kind: r.kind, everyMinutes: r.everyMinutes }
      : r.kind === 'daily'
        ? { kind: r.kind, hour: r.hour, minute: r.minute }
        : { kind: r.kind, weekday: r.weekday, hour: r.hour, minute: r.minute };
  const rawRecurrence = isObject(raw?.recurrence) && raw.recurrence.kind === r.kind ? raw.recurrence : undefined;
  const row: Record<string, unknown> = {
    id: task.id,
    to: task.to,
    message: task.message,
    recurrence: withExtras(recurrence, rawRecurrence, ['kind', 'everyMinutes', 'hour', 'minute', 'weekday']),
    createdAtMs: task.createdAtMs,
    lastConsumedDueMs: task.lastConsumedDueMs,
    enabled: task.enabled,
  };
  if (task.probe !== undefined) {
    const p = task.probe;
    const probe = { command: p.command, args: p.args, expect: p.expect, timeoutSecs: p.timeoutSecs, cwd: p.cwd };
    row.probe = withExtras(probe, raw?.probe, PROBE_KEYS);
  }
  if (task.sessionMode !== undefined && task.sessionMode !== 'continue') row.sessionMode = task.sessionMode;
  if (task.summarizeAfter === true) row.summarizeAfter = true;
  return withExtras(row, raw, ROW_KEYS);
}
