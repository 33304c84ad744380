/**
 * Who may talk to the GUI server: only a page served by this launch, on loopback. Pure decision over the
 * request's Host, Origin and token, so the table test covers every branch (DNS rebinding: a foreign Host;
 * cross-site requests: a foreign Origin; another local program: no token).
 */
import { timingSafeEqual } from 'node:crypto';

/** Header the client sends the launch token in (EventSource cannot set headers, so `?t=` works too). */
export const TOKEN_HEADER = 'x-fuseforks-token';

/** What the guard looks at. */
export interface GuardInput {
  /** The Host header (undefined when absent). */
  host: string | undefined;
  /** The Origin header (absent on same-origin GETs and on top-level navigation). */
  origin: string | undefined;
  /** Token from the header or the `t` query parameter. */
  token: string | null;
  /** This launch's port and token. */
  port: number;
  expected: string;
}

/** Allowed, or the HTTP status and a reason naming what was wrong. */
export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/** The loopback authorities this launch answers to. */
export function loopbackAuthorities(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** Decides one request: Host first (403), then Origin (403), then token (401). */
export function guardRequest(input: GuardInput): GuardVerdict {
  const allowed = loopbackAuthorities(input.port);
  if (input.host === undefined || !allowed.includes(input.host.toLowerCase())) {
    return { ok: false, status: 403, reason: `Host ${JSON.stringify(input.host ?? '')} is not this loopback server` };
  }
  if (input.origin !== undefined && !allowed.map((a) => `http://${a}`).includes(input.origin.toLowerCase())) {
    return { ok: false, status: 403, reason: `Origin ${JSON.stringify(input.origin)} is not this loopback server` };
  }
  if (input.token === null || !sameToken(input.token, input.expected)) {
    return { ok: false, status: 401, reason: 'missing or wrong launch token' };
  }
  return { ok: true };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
