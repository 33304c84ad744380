/**
 * The toolbox screens' routes: the blackboards (read, delete, clear — never write) and Jev (settings, the write-only
 * token, a test call, each servant's judge). They answer the re-read view of what they changed; saving the settings
 * and switching a judge pass the request's base.
 */
import { badField, ID, optStr, str, type Route } from './routeFields.js';

/** Blackboard and Jev routes. */
export const TOOL_ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/api\/blackboards$/, handle: (v) => v.blackboard.list() },
  { method: 'POST', pattern: /^\/api\/blackboards\/delete$/, handle: (v, _p, b) => v.blackboard.deleteNote(str(b, 'dir'), str(b, 'name')) },
  { method: 'POST', pattern: /^\/api\/blackboards\/clear$/, handle: (v, _p, b) => v.blackboard.clear(str(b, 'dir')) },
  { method: 'GET', pattern: /^\/api\/jev$/, handle: (v) => v.jev.view() },
  { method: 'PUT', pattern: /^\/api\/jev$/, handle: (v, _p, b, base) => v.jev.save(b.settings, base) },
  { method: 'PUT', pattern: /^\/api\/jev\/token$/, handle: (v, _p, b) => v.jev.setToken(str(b, 'token')) },
  { method: 'DELETE', pattern: /^\/api\/jev\/token$/, handle: (v) => v.jev.clearToken() },
  { method: 'POST', pattern: /^\/api\/jev\/test$/, handle: (v) => v.jev.test() },
  {
    method: 'PUT',
    pattern: new RegExp(`^/api/agents/${ID}/judge$`),
    handle: (v, p, b, base) => {
      if (typeof b.enabled !== 'boolean') throw badField('enabled', 'true or false');
      return v.jev.setJudge(p.id!, b.enabled, optStr(b, 'to'), base);
    },
  },
];
