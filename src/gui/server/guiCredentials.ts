/**
 * The credentials of one GUI launch, all random and held only in this process's memory (and in the 0600 runtime
 * files, never in a process's arguments or environment):
 *
 * - the launch token: what a program that is not a browser sends in `x-fuseforks-token`; it is written only to the
 *   runtime folder's server file;
 * - tickets: single-use; the printed URL carries one, the browser's redirect file another. A page trades one for a
 *   session (`POST /api/session`); a used ticket is gone;
 * - sessions: an `HttpOnly`, `SameSite=Strict` cookie plus a key the page keeps and sends in `x-fuseforks-session`.
 *   Browsers send a loopback cookie to every port of 127.0.0.1, so a cookie alone (which another local account's
 *   server on another port could be sent) never opens the API; the key stays in this origin's storage.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** What a request presents, as far as the credentials can tell. */
export type Presented = 'token' | 'session' | 'cookie' | 'none';

/** Header of the launch token (programs). */
export const TOKEN_HEADER = 'x-fuseforks-token';
/** Header of a session's key (the page). */
export const SESSION_HEADER = 'x-fuseforks-session';

function secret(): string {
  return randomBytes(32).toString('base64url');
}

function same(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A session a ticket was traded for. */
export interface GuiSession {
  /** The cookie's value. */
  id: string;
  /** The key the page sends beside the cookie. */
  key: string;
}

/** One launch's token, live tickets and sessions. */
export class GuiCredentials {
  readonly token = secret();
  private readonly tickets = new Set<string>();
  /** Cookie value → key. */
  private readonly sessions = new Map<string, string>();

  constructor(readonly port: number) {}

  /** The session cookie's name: per port, since cookies do not tell ports apart. */
  get cookieName(): string {
    return `fuseforks_session_${this.port}`;
  }

  /** A new single-use ticket. */
  issueTicket(): string {
    const ticket = secret();
    this.tickets.add(ticket);
    return ticket;
  }

  /** Trades a live ticket for a new session (the ticket is spent); null for a used or unknown one. */
  redeem(ticket: unknown): GuiSession | null {
    if (typeof ticket !== 'string' || !this.tickets.has(ticket)) return null;
    this.tickets.delete(ticket);
    const session = { id: secret(), key: secret() };
    this.sessions.set(session.id, session.key);
    return session;
  }

  /** Whether a ticket is still live (the redirect file is rewritten once its ticket is spent). */
  isLive(ticket: string): boolean {
    return this.tickets.has(ticket);
  }

  /** What a request carries: the token header, a cookie with its key, a cookie alone, or nothing that counts. */
  judge(request: { token: string | undefined; cookie: string | undefined; key: string | undefined }): Presented {
    if (request.token !== undefined && same(request.token, this.token)) return 'token';
    const expectedKey = request.cookie === undefined ? undefined : this.sessions.get(request.cookie);
    if (expectedKey === undefined) return 'none';
    return request.key !== undefined && same(request.key, expectedKey) ? 'session' : 'cookie';
  }

  /** The `Set-Cookie` value of a session (no Max-Age: it ends with the browser session; the server forgets it at exit). */
  setCookie(session: GuiSession): string {
    return `${this.cookieName}=${session.id}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** This launch's cookie value from a `Cookie` header, if any. */
  cookieOf(header: string | undefined): string | undefined {
    if (header === undefined) return undefined;
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === this.cookieName) return part.slice(eq + 1).trim();
    }
    return undefined;
  }
}
