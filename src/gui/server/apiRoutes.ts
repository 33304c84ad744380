/**
 * The GUI's JSON API: one table of routes over a booted village. Every mutation answers the re-read
 * `GuiState` (reference gui.md §1.3: the client never patches its view with an assumed value). Bodies are
 * checked here only for shape; the village commands do the domain validation. Every change of a file passes the
 * request's base (`If-Match`) to its command, which refuses a stale one (EDIT_CONFLICT, 409).
 */
import type { NewSchedule, SchedulePatch } from '../../core/schedules/scheduleStore.js';
import type { AttachmentUpload } from '../../host/attachmentUploads.js';
import type { EditBase } from '../../core/village/revision.js';
import { DESIGN_ROUTES } from './designRoutes.js';
import { TOOL_ROUTES } from './toolRoutes.js';
import type { GuiVillage } from './guiVillage.js';
import { badField, ID, num, optStr, SID, str, strList, UUID, type Body, type Route } from './routeFields.js';

export type { Body } from './routeFields.js';

/** Body cap of POST /api/messages (bytes): the largest attachment (12 MiB video) in base64, plus the text. */
export const MAX_MESSAGE_BODY_BYTES = 17 * 1024 * 1024;

/** `attachments: [{fileName, data}]` of a message (absent = none); the host checks the files themselves. */
function uploads(body: Body): AttachmentUpload[] {
  const value = body.attachments;
  if (value === undefined || value === null) return [];
  const ok = Array.isArray(value) && value.every((a) => typeof a === 'object' && a !== null && typeof (a as Body).fileName === 'string' && typeof (a as Body).data === 'string');
  if (!ok) throw badField('attachments', 'a list of {fileName, data} objects');
  return (value as Body[]).map((a) => ({ fileName: a.fileName as string, data: a.data as string }));
}

const ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/api\/state$/, handle: (v) => v.state() },
  // agents and ties
  {
    method: 'POST',
    pattern: /^\/api\/agents$/,
    handle: async (v, _p, b, base) => {
      const made = await v.commands.createAgent(
        {
          name: str(b, 'name'),
          ...(typeof b.modelTemplateId === 'string' ? { modelTemplateId: b.modelTemplateId } : {}),
          roleId: optStr(b, 'roleId'),
          groupId: optStr(b, 'groupId'),
        },
        base,
      );
      return { ...v.state(), createdId: made.id };
    },
  },
  { method: 'POST', pattern: /^\/api\/agents\/reorder$/, handle: async (v, _p, b, base) => (await v.commands.reorderAgents(strList(b, 'ids'), base), v.state()) },
  { method: 'POST', pattern: /^\/api\/agents\/batch$/, handle: (v, _p, b) => v.batch(str(b, 'action') === 'stop' ? 'stop' : 'start') },
  { method: 'PUT', pattern: new RegExp(`^/api/agents/${ID}$`), handle: async (v, p, b, base) => (await v.commands.updateAgent(p.id!, b.spec, base), v.state()) },
  { method: 'DELETE', pattern: new RegExp(`^/api/agents/${ID}$`), handle: async (v, p, _b, base) => (await v.commands.deleteAgent(p.id!, base), v.state()) },
  { method: 'PUT', pattern: new RegExp(`^/api/agents/${ID}/ties$`), handle: async (v, p, b, base) => (await v.commands.setTies(p.id!, strList(b, 'targets'), base), v.state()) },
  {
    method: 'PUT',
    pattern: new RegExp(`^/api/agents/${ID}/position$`),
    handle: async (v, p, b, base) => (await v.commands.setPosition(p.id!, num(b, 'x'), num(b, 'y'), base), v.state()),
  },
  { method: 'POST', pattern: new RegExp(`^/api/agents/${ID}/start$`), handle: (v, p) => v.start(p.id!) },
  { method: 'POST', pattern: new RegExp(`^/api/agents/${ID}/stop$`), handle: (v, p) => v.stop(p.id!) },
  { method: 'POST', pattern: new RegExp(`^/api/agents/${ID}/interrupt$`), handle: (v, p) => v.interrupt(p.id!) },
  { method: 'POST', pattern: /^\/api\/interrupt-all$/, handle: (v) => v.interruptAll() },
  // Up to one attached file as base64: the one route that takes a large body.
  { method: 'POST', pattern: /^\/api\/messages$/, maxBody: MAX_MESSAGE_BODY_BYTES, handle: (v, _p, b) => v.send(str(b, 'to'), str(b, 'text'), uploads(b)) },
  // village
  { method: 'PUT', pattern: /^\/api\/reception$/, handle: async (v, _p, b, base) => (await v.commands.setReception(optStr(b, 'agentId'), base), v.state()) },
  { method: 'PUT', pattern: /^\/api\/external-name$/, handle: async (v, _p, b, base) => (await v.commands.setExternalName(optStr(b, 'name'), base), v.state()) },
  {
    method: 'POST',
    pattern: /^\/api\/groups$/,
    handle: async (v, _p, b, base) => {
      const id = optStr(b, 'id');
      await v.commands.upsertGroup({ name: str(b, 'name'), ...(id === null ? {} : { id }), ...(typeof b.batchStart === 'boolean' ? { batchStart: b.batchStart } : {}) }, base);
      return v.state();
    },
  },
  { method: 'DELETE', pattern: new RegExp(`^/api/groups/${ID}$`), handle: async (v, p, _b, base) => (await v.commands.removeGroup(p.id!, base), v.state()) },
  // templates and keys (write-only)
  { method: 'PUT', pattern: /^\/api\/templates$/, handle: async (v, _p, b, base) => (await v.commands.upsertTemplate(b.template, base), v.state()) },
  { method: 'DELETE', pattern: new RegExp(`^/api/templates/${ID}$`), handle: async (v, p, _b, base) => (await v.commands.removeTemplate(p.id!, base), v.state()) },
  { method: 'PUT', pattern: new RegExp(`^/api/templates/${ID}/key$`), handle: async (v, p, b, base) => (await v.commands.setApiKey(p.id!, str(b, 'key'), base), v.state()) },
  { method: 'DELETE', pattern: new RegExp(`^/api/templates/${ID}/key$`), handle: async (v, p, _b, base) => (await v.commands.clearApiKey(p.id!, base), v.state()) },
  // schedules
  { method: 'POST', pattern: /^\/api\/schedules$/, handle: async (v, _p, b, base) => (await v.commands.addSchedule(b as unknown as NewSchedule, base), v.state()) },
  {
    method: 'PATCH',
    pattern: new RegExp(`^/api/schedules/${UUID}$`),
    handle: async (v, p, b, base) => (await v.commands.updateSchedule(p.id!, b as SchedulePatch, base), v.state()),
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^/api/schedules/${UUID}/enabled$`),
    handle: async (v, p, b, base) => {
      if (typeof b.enabled !== 'boolean') throw badField('enabled', 'true or false');
      await v.commands.setScheduleEnabled(p.id!, b.enabled, base);
      return v.state();
    },
  },
  { method: 'DELETE', pattern: new RegExp(`^/api/schedules/${UUID}$`), handle: async (v, p, _b, base) => (await v.commands.removeSchedule(p.id!, base), v.state()) },
  // schedule pre-check: body {probe: {command, args[], cwd?, expect, timeoutSecs?} | null}; approval is a separate step
  {
    method: 'PUT',
    pattern: new RegExp(`^/api/schedules/${UUID}/probe$`),
    handle: async (v, p, b, base) => {
      if (!('probe' in b)) throw badField('probe', 'an object or null');
      await v.commands.setScheduleProbe(p.id!, b.probe, base);
      return v.state();
    },
  },
  { method: 'POST', pattern: new RegExp(`^/api/schedules/${UUID}/probe/approve$`), handle: async (v, p, _b, base) => (await v.commands.approveProbe(p.id!, base), v.state()) },
  { method: 'POST', pattern: new RegExp(`^/api/schedules/${UUID}/probe/revoke$`), handle: async (v, p, _b, base) => (await v.commands.revokeProbe(p.id!, base), v.state()) },
  // shared MCP
  { method: 'GET', pattern: /^\/api\/mcp$/, handle: (v) => v.commands.readSharedMcp() },
  { method: 'PUT', pattern: /^\/api\/mcp$/, handle: (v, _p, b, base) => v.commands.writeSharedMcp(str(b, 'text'), base) },
  // conversations
  { method: 'POST', pattern: /^\/api\/sessions\/new$/, handle: (v) => v.newSession() },
  // files that exist but cannot be used (read-only; what check reports as CONFIG_BROKEN)
  { method: 'GET', pattern: /^\/api\/problems$/, handle: (v) => v.fileProblems() },
  // stats (read-only): one conversation, every one, or every one in a half-open period of epoch ms
  { method: 'GET', pattern: new RegExp(`^/api/stats/session/${SID}$`), handle: (v, p) => v.stats({ kind: 'session', sessionId: p.id! }) },
  { method: 'GET', pattern: /^\/api\/stats\/all$/, handle: (v) => v.stats({ kind: 'all' }) },
  {
    method: 'GET',
    pattern: /^\/api\/stats\/all\/(?<since>[0-9]{1,16})\/(?<until>[0-9]{1,16})$/,
    handle: (v, p) => v.stats({ kind: 'all', sinceMs: Number(p.since), untilMs: Number(p.until) }),
  },
  // body {agentIds?: string[]}: summarize and continue (costs tokens; the client confirms first)
  { method: 'POST', pattern: /^\/api\/sessions\/summarize$/, handle: (v, _p, b) => v.summarize(b.agentIds === undefined ? undefined : strList(b, 'agentIds')) },
  { method: 'POST', pattern: new RegExp(`^/api/sessions/${SID}/open$`), handle: (v, p) => v.openSession(p.id!) },
  // plan review (issue 8): a held wave of a planReview servant
  {
    method: 'POST',
    pattern: /^\/api\/plan-reviews\/(?<id>[0-9]{1,15})$/,
    handle: (v, p, b) => {
      if (typeof b.approved !== 'boolean') throw badField('approved', 'true or false');
      return v.resolvePlanReview(Number(p.id), b.approved, optStr(b, 'note'));
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/api/sessions/${SID}/fork$`),
    handle: async (v, p, b) => ({ ...v.state(), createdId: (await v.commands.forkSession(p.id!, num(b, 'atSeq'))).id }),
  },
  { method: 'POST', pattern: new RegExp(`^/api/sessions/${SID}/export$`), handle: (v, p) => v.commands.exportSession(p.id!) },
  // agent files, approvals, roles, Ordinance, settings, MCP status, connection test (designRoutes.ts)
  ...DESIGN_ROUTES,
  // blackboards and Jev (toolRoutes.ts)
  ...TOOL_ROUTES,
];

/** The route for a method and path, with its params; null when none matches. */
export function matchRoute(method: string, path: string): { handle: (v: GuiVillage, body: Body, base: EditBase | undefined) => unknown; maxBody?: number } | null {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const m = route.pattern.exec(path);
    if (m === null) continue;
    const params = { ...(m.groups ?? {}) };
    return { handle: (v, body, base) => route.handle(v, params, body, base), ...(route.maxBody === undefined ? {} : { maxBody: route.maxBody }) };
  }
  return null;
}

/** HTTP status of a refused command: 404 for unknown things, 409 for state conflicts, 400 otherwise, 500 for bugs. */
export function statusForCode(code: string): number {
  if (code.endsWith('_NOT_FOUND')) return 404;
  if (['ALREADY_RUNNING', 'NOT_RUNNING', 'MAILBOX_FULL', 'SESSION_SWITCH_BLOCKED', 'SCHEDULE_STORE_BLOCKED', 'CONFIG_PARSE', 'LOCK_HELD', 'EDIT_CONFLICT'].includes(code)) return 409;
  if (code === 'BUG' || code === 'CONFIG_IO' || code === 'SECRET_STORE_FAILED' || code === 'SESSION_STORE_FAILED') return 500;
  return 400;
}
