/**
 * Who may talk to the GUI server: a page of this launch or a program holding the launch token, on loopback. Pure
 * decision over the request's method, Host, Origin, what it presents (guiCredentials.ts) and what the route needs,
 * so the table test covers every branch (DNS rebinding: a foreign Host; cross-site requests: a foreign Origin; another
 * local account: nothing that counts).
 */
import type { Presented } from './guiCredentials.js';

/**
 * What a route needs: `public` (the client's files: nothing secret), `ticket` (trading a ticket: a same-origin
 * page), `cookie` (an `<img>` of a sent file: the browser adds only the cookie; the id is unguessable), `session`
 * (every other API route, the event stream, MCP reload and the run policy included).
 */
export type RouteAccess = 'public' | 'ticket' | 'cookie' | 'session';

/** What the guard looks at. */
export interface GuardInput {
  method: string;
  /** The Host header (undefined when absent). */
  host: string | undefined;
  /** The Origin header (absent on same-origin GETs and on top-level navigation). */
  origin: string | undefined;
  /** This launch's port. */
  port: number;
  presented: Presented;
  access: RouteAccess;
}

/** Allowed, or the HTTP status and a reason naming what was wrong. */
export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/** The loopback authorities this launch answers to. */
export function loopbackAuthorities(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

const READS = ['GET', 'HEAD'];

/**
 * Decides one request: Host first (403), then Origin (403: a foreign one, or none on a change made with a cookie,
 * which a browser always sends an Origin with), then the credential the route needs (401).
 */
export function guardRequest(input: GuardInput): GuardVerdict {
  const allowed = loopbackAuthorities(input.port);
  if (input.host === undefined || !allowed.includes(input.host.toLowerCase())) {
    return { ok: false, status: 403, reason: `Host ${JSON.stringify(input.host ?? '')} is not this loopback server` };
  }
  if (input.origin !== undefined && !allowed.map((a) => `http://${a}`).includes(input.origin.toLowerCase())) {
    return { ok: false, status: 403, reason: `Origin ${JSON.stringify(input.origin)} is not this loopback server` };
  }
  if (input.access === 'public') return { ok: true };
  const change = !READS.includes(input.method.toUpperCase());
  const byBrowser = input.presented !== 'token';
  if (input.origin === undefined && (input.access === 'ticket' || (change && byBrowser))) {
    return { ok: false, status: 403, reason: 'a change from a page must carry its Origin' };
  }
  if (input.access === 'ticket') return { ok: true };
  if (input.presented === 'token' || input.presented === 'session') return { ok: true };
  if (input.presented === 'cookie' && input.access === 'cookie') return { ok: true };
  return { ok: false, status: 401, reason: input.presented === 'cookie' ? 'the session cookie came without its key' : 'no session of this launch' };
}
