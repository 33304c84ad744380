/**
 * The door's checks before any MCP processing (and before its management routes, doorManage.ts), as pure
 * functions: path, Host and Origin against loopback
 * (DNS-rebinding protection), the bearer token (constant-time), and the body size. A failing check gets a
 * bare status: 401 never says whether the token was missing or wrong.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isManagePath } from './doorManage.js';
import { DOOR_PATH } from './doorSettings.js';

/** Largest accepted request body (bytes): `ask_fuseforks` carries one message, 1 MiB is plenty. */
export const DOOR_MAX_BODY_BYTES = 1024 * 1024;

/** The request facts the guard reads (header values as Node gives them). */
export interface DoorRequestFacts {
  url: string | undefined;
  host: string | undefined;
  origin: string | undefined;
  authorization: string | undefined;
  contentLength: string | undefined;
}

/** `ok`, or the status to answer with. */
export type DoorVerdict = { ok: true } | { ok: false; status: 401 | 403 | 404 | 413 };

/** Host values a loopback client sends for this port (case-insensitive). */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/** Origins accepted when a request carries one (browsers); requests without Origin (CLIs) pass. */
export function allowedOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

/** Constant-time comparison of an `Authorization` header with `Bearer <token>` (hashes first: equal lengths). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  const given = createHash('sha256').update(match?.[1] ?? '').digest();
  const want = createHash('sha256').update(token).digest();
  // Evaluate both so a missing header and a wrong token take the same path.
  const same = timingSafeEqual(given, want);
  return same && match !== null && token !== '';
}

/** Decides whether a request may reach the MCP layer. Order: path, Host/Origin, token, declared size. */
export function checkDoorRequest(facts: DoorRequestFacts, port: number, token: string): DoorVerdict {
  const path = (facts.url ?? '').split('?')[0];
  if (path !== DOOR_PATH && !isManagePath(path ?? '')) return { ok: false, status: 404 };
  const host = (facts.host ?? '').toLowerCase();
  if (!allowedHosts(port).includes(host)) return { ok: false, status: 403 };
  if (facts.origin !== undefined && !allowedOrigins(port).includes(facts.origin.toLowerCase())) return { ok: false, status: 403 };
  if (!bearerMatches(facts.authorization, token)) return { ok: false, status: 401 };
  const declared = Number(facts.contentLength);
  if (facts.contentLength !== undefined && Number.isFinite(declared) && declared > DOOR_MAX_BODY_BYTES) return { ok: false, status: 413 };
  return { ok: true };
}
