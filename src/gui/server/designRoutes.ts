/**
 * The design screens' routes (agent inspector files, command approvals, roles, Ordinance, village settings, MCP
 * status, the door, template connection test). Mutations of world.json answer the re-read `GuiState`; file editors answer
 * the re-read file; nothing is answered with an assumed value.
 */
import { COMMAND_DECISIONS, type CommandDecision } from '../../core/tools/runApprovals.js';
import type { EditableAgentFile } from '../../host/hostApi.js';
import { badField, ID, num, optStr, str, strList, type Body, type Route } from './routeFields.js';

const KIND = '(?<kind>skill|memory|construct|mcp|run)';

function decision(body: Body): CommandDecision {
  const value = body['decision'];
  if (typeof value === 'string' && (COMMAND_DECISIONS as readonly string[]).includes(value)) return value as CommandDecision;
  throw badField('decision', `one of ${COMMAND_DECISIONS.join(', ')}`);
}

/** Routes of the design screens. */
export const DESIGN_ROUTES: Route[] = [
  // agent files (inspector editors)
  { method: 'GET', pattern: new RegExp(`^/api/agents/${ID}/files/${KIND}$`), handle: (v, p) => v.files.readAgentFile(p.id!, p.kind as EditableAgentFile) },
  {
    method: 'PUT',
    pattern: new RegExp(`^/api/agents/${ID}/files/${KIND}$`),
    handle: (v, p, b, base) => v.files.writeAgentFile(p.id!, p.kind as EditableAgentFile, str(b, 'text'), base),
  },
  // batch work folder: a check without writing (preview), then one write for every listed servant
  { method: 'POST', pattern: /^\/api\/work-dir\/check$/, handle: (v, _p, b) => v.commands.checkWorkDir(str(b, 'workDir')) },
  { method: 'PUT', pattern: /^\/api\/work-dir$/, handle: async (v, _p, b, base) => (await v.commands.setWorkDirs(strList(b, 'ids'), str(b, 'workDir'), base), v.state()) },
  // the chat's @ completion: read-only, a POST only so the query travels in the body
  { method: 'POST', pattern: new RegExp(`^/api/agents/${ID}/work-files$`), handle: (v, p, b) => v.files.listWorkFiles(p.id!, str(b, 'query')) },
  // command approvals: the list is part of every state; a decision answers the outcome with the re-read state
  {
    method: 'POST',
    pattern: new RegExp(`^/api/approvals/${ID}$`),
    handle: async (v, p, b) => {
      const outcome = await v.approvals.decide(p.id!, { command: str(b, 'command'), args: strList(b, 'args') }, decision(b));
      return { ...v.state(), outcome };
    },
  },
  { method: 'GET', pattern: new RegExp(`^/api/agents/${ID}/run-policy$`), handle: (v, p) => v.approvals.readPolicy(p.id!) },
  {
    method: 'PUT',
    pattern: new RegExp(`^/api/agents/${ID}/run-policy$`),
    handle: (v, p, b, base) => {
      if (typeof b['timeoutSecs'] !== 'number') throw badField('timeoutSecs', 'a number of seconds');
      return v.approvals.writePolicy(p.id!, { allow: strList(b, 'allow'), deny: strList(b, 'deny'), timeoutSecs: b['timeoutSecs'] }, base);
    },
  },
  // roles: create / edit / delete; apply to a servant (copies the role's Construct text)
  { method: 'PUT', pattern: /^\/api\/roles$/, handle: async (v, _p, b, base) => (await v.commands.upsertRole(b['role'], base), v.state()) },
  { method: 'DELETE', pattern: new RegExp(`^/api/roles/${ID}$`), handle: async (v, p, _b, base) => (await v.commands.removeRole(p.id!, base), v.state()) },
  { method: 'PUT', pattern: new RegExp(`^/api/agents/${ID}/role$`), handle: async (v, p, b, base) => (await v.commands.applyRole(p.id!, optStr(b, 'roleId'), base), v.state()) },
  // village
  { method: 'GET', pattern: /^\/api\/ordinance$/, handle: (v) => v.files.readOrdinance() },
  {
    method: 'PUT',
    pattern: /^\/api\/ordinance$/,
    handle: (v, _p, b, base) => v.files.writeOrdinance(str(b, 'text'), base),
  },
  { method: 'PUT', pattern: /^\/api\/settings$/, handle: async (v, _p, b, base) => (await v.commands.updateSettings(b, base), v.state()) },
  // MCP: live status (shared, plus one servant's own) and reconnecting the shared servers after a save
  { method: 'GET', pattern: /^\/api\/mcp\/status$/, handle: (v) => v.mcpStatus() },
  { method: 'GET', pattern: new RegExp(`^/api/agents/${ID}/mcp-status$`), handle: (v, p) => v.mcpStatus(p.id!) },
  { method: 'POST', pattern: /^\/api\/mcp\/reload$/, handle: (v) => v.reloadSharedMcp() },
  // the door (MCP server on 127.0.0.1): state, on/off and port, the token (shown only when asked), rotation
  { method: 'GET', pattern: /^\/api\/door$/, handle: (v) => v.door.status() },
  {
    method: 'PUT',
    pattern: /^\/api\/door$/,
    handle: async (v, _p, b, base) => {
      // One request, one check: a switch sent with a port was made from the view the port change just checked.
      let unchecked = base;
      if (b['port'] !== undefined) {
        await v.door.setPort(num(b, 'port'), unchecked);
        unchecked = undefined;
      }
      if (b['enabled'] !== undefined) {
        if (typeof b['enabled'] !== 'boolean') throw badField('enabled', 'true or false');
        await v.door.setEnabled(b['enabled'], unchecked);
      }
      return v.door.status();
    },
  },
  { method: 'GET', pattern: /^\/api\/door\/token$/, handle: async (v) => ({ token: await v.door.token() }) },
  { method: 'POST', pattern: /^\/api\/door\/token\/rotate$/, handle: async (v) => ({ token: await v.door.rotateToken() }) },
  // the price table: its source on the shelf, and the one fetch a person asks for (answers the table; the form saves)
  { method: 'GET', pattern: /^\/api\/pricing$/, handle: (v) => v.pricing.source() },
  { method: 'PUT', pattern: /^\/api\/pricing$/, handle: (v, _p, b, base) => v.pricing.setSource(optStr(b, 'url'), base) },
  { method: 'POST', pattern: /^\/api\/pricing\/fetch$/, handle: (v, _p, _b, base) => v.pricing.fetch({}, base) },
  // model templates: one tiny request through the real backend
  { method: 'POST', pattern: /^\/api\/templates\/test$/, handle: (v, _p, b) => v.commands.testConnection(b['template']) },
];
