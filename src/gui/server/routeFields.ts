/**
 * What every GUI API route table shares: the route shape, the path-parameter patterns, and the body field
 * readers that refuse a wrongly shaped request (INVALID_REQUEST naming the field). Shape only: the village
 * commands do the domain validation.
 */
import type { EditBase } from '../../core/village/revision.js';
import type { GuiVillage } from './guiVillage.js';
import { requestFieldInvalid } from '../../core/errors/requestErrors.js';

/** A JSON body, already parsed (an object; anything else is refused before the handler). */
export type Body = Record<string, unknown>;

/**
 * One API route: method, path pattern (named groups = params), handler. `base` is what the request's `If-Match`
 * lists (editBaseHeader.ts): every change of a file hands it to the host command, which refuses a stale one.
 */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  pattern: RegExp;
  handle(v: GuiVillage, params: Record<string, string>, body: Body, base: EditBase | undefined): unknown;
  /** Largest body this route accepts (bytes); default MAX_BODY_BYTES of the server. */
  maxBody?: number;
}

/** An agent, template, group or role id. */
export const ID = '(?<id>[A-Za-z0-9_-]{1,64})';
/** A session id. */
export const SID = '(?<id>[A-Za-z0-9_-]{1,80})';
/** A schedule id. */
export const UUID = '(?<id>[0-9a-fA-F-]{36})';

export function str(body: Body, key: string): string {
  const value = body[key];
  if (typeof value !== 'string') throw badField(key, 'a string');
  return value;
}

export function num(body: Body, key: string): number {
  const value = body[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badField(key, 'a number');
  return value;
}

export function strList(body: Body, key: string): string[] {
  const value = body[key];
  if (!Array.isArray(value) || !value.every((x): x is string => typeof x === 'string')) throw badField(key, 'a list of strings');
  return value;
}

export function optStr(body: Body, key: string): string | null {
  const value = body[key];
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw badField(key, 'a string or null');
  return value;
}

export const badField = requestFieldInvalid;
