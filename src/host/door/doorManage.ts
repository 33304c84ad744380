/**
 * The door's two management routes, for `fuseforks-cli` beside a running serve (the CLI cannot open a village
 * another process holds): the agents with their live status, and "run this schedule now". Plain JSON over the same
 * listener, behind the same checks as `/mcp` (loopback Host/Origin, the door's bearer token, the body cap): anyone
 * holding the token can already ask the village anything. MCP clients still see exactly one tool.
 *
 * Answers: 200 `{ok: true, value}`; a refusal with a code 422 `{ok: false, error: {code, message, fix}}`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isFuseforksError } from '../../core/errors.js';
import type { AgentStatus } from '../../core/events.js';
import type { ScheduleRunReport } from '../scheduleRunNow.js';

/** Paths of the management routes (beside DOOR_PATH). */
export const DOOR_MANAGE_PATHS = {
  agents: '/manage/agents',
  runScheduleNow: '/manage/schedules/run-now',
} as const;

const PATHS: readonly string[] = Object.values(DOOR_MANAGE_PATHS);

/** True for a path the management routes answer. */
export function isManagePath(path: string): boolean {
  return PATHS.includes(path);
}

/** What the routes call on the host that serves the door (HostApi methods). */
export interface DoorManagement {
  agents(): Array<{ agentId: string; status: AgentStatus }>;
  /** Starts the schedule's target (+ `also`) where stopped and fires it (fireScheduleNow.ts). */
  runScheduleNow(idOrPrefix: string, also: readonly string[]): Promise<ScheduleRunReport>;
}

/** The body `POST /manage/schedules/run-now` takes. */
export interface RunNowBody {
  id: string;
  also?: string[];
}

/** A refusal as the CLI prints it. */
export interface ManageError {
  code: string;
  message: string;
  fix: string | null;
}

export type ManageAnswer<T> = { ok: true; value: T } | { ok: false; error: ManageError };

/** Answers one request to a management path (already past the door's guard); `body` is the raw POST text. */
export async function serveManage(manage: DoorManagement, path: string, req: IncomingMessage, body: string, res: ServerResponse): Promise<void> {
  try {
    if (path === DOOR_MANAGE_PATHS.agents) {
      if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
      return send(res, 200, { ok: true, value: { agents: manage.agents() } });
    }
    if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
    const request = runNowBody(body);
    if (request === null) {
      return send(res, 400, { ok: false, error: { code: 'INVALID_REQUEST', message: 'The body must be JSON {"id": string, "also"?: [string]}.', fix: 'Send the schedule id (or an unambiguous start of it) as "id".' } });
    }
    return send(res, 200, { ok: true, value: await manage.runScheduleNow(request.id, request.also ?? []) });
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    return send(res, 422, { ok: false, error: { code: error.code, message: error.message, fix: error.fix ?? null } });
  }
}

function runNowBody(text: string): RunNowBody | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const { id, also } = (parsed ?? {}) as { id?: unknown; also?: unknown };
  if (typeof id !== 'string' || id === '') return null;
  if (also !== undefined && !(Array.isArray(also) && also.every((a) => typeof a === 'string'))) return null;
  return also === undefined ? { id } : { id, also: also as string[] };
}

function send(res: ServerResponse, status: number, answer: ManageAnswer<unknown>): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  res.writeHead(405, { Allow: allow }).end();
}
