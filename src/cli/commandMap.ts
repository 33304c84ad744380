/**
 * The explicit command map oclif loads (`oclif.commands.strategy = explicit`): no folder scan at start-up.
 * Command files are thin; everything heavy (host, actors, lmdb) is imported lazily inside `run()`.
 * `gui` joins here when the GUI server lands.
 */
import { AgentsList } from './commands/agents.js';
import { AgentsAdd, AgentsEdit, AgentsRemove, AgentsTie, AgentsUntie } from './commands/agentsEdit.js';
import { ApprovalsApprove, ApprovalsList, ApprovalsReject } from './commands/approvals.js';
import Ask from './commands/ask.js';
import Bake from './commands/bake.js';
import Check from './commands/check.js';
import Eval from './commands/eval.js';
import { DoorDisable, DoorEnable, DoorStatus, DoorToken } from './commands/door.js';
import Gui from './commands/gui.js';
import Init from './commands/init.js';
import { McpLogin, McpLogout, McpStatus } from './commands/mcp.js';
import Pricing from './commands/pricing.js';
import Seed from './commands/seed.js';
import { SchedulesAdd, SchedulesDisable, SchedulesEnable, SchedulesList, SchedulesRemove, SchedulesRunNow } from './commands/schedules.js';
import { SecretsDelete, SecretsList, SecretsSet } from './commands/secrets.js';
import Serve from './commands/serve.js';
import { SessionsExport, SessionsFork, SessionsList, SessionsShow, SessionsSummarize } from './commands/sessions.js';
import Stats from './commands/stats.js';
import Status from './commands/status.js';
import { TemplatesAdd, TemplatesEdit, TemplatesList, TemplatesRemove } from './commands/templates.js';
import { VillageSetReception } from './commands/village.js';
import Version from './commands/version.js';

/** Command id → command class. */
export const COMMANDS = {
  'agents:list': AgentsList,
  'approvals:list': ApprovalsList,
  'approvals:approve': ApprovalsApprove,
  'approvals:reject': ApprovalsReject,
  'door:status': DoorStatus,
  'door:enable': DoorEnable,
  'door:disable': DoorDisable,
  'door:token': DoorToken,
  'sessions:list': SessionsList,
  'sessions:show': SessionsShow,
  'sessions:export': SessionsExport,
  'sessions:fork': SessionsFork,
  'sessions:summarize': SessionsSummarize,
  'schedules:list': SchedulesList,
  'schedules:add': SchedulesAdd,
  'schedules:remove': SchedulesRemove,
  'schedules:enable': SchedulesEnable,
  'schedules:disable': SchedulesDisable,
  'schedules:run-now': SchedulesRunNow,
  'mcp:login': McpLogin,
  'mcp:logout': McpLogout,
  'mcp:status': McpStatus,
  'secrets:list': SecretsList,
  'secrets:set': SecretsSet,
  'secrets:delete': SecretsDelete,
  ask: Ask,
  bake: Bake,
  check: Check,
  eval: Eval,
  gui: Gui,
  init: Init,
  pricing: Pricing,
  seed: Seed,
  serve: Serve,
  stats: Stats,
  status: Status,
  'agents:add': AgentsAdd,
  'agents:edit': AgentsEdit,
  'agents:remove': AgentsRemove,
  'agents:tie': AgentsTie,
  'agents:untie': AgentsUntie,
  'templates:list': TemplatesList,
  'templates:add': TemplatesAdd,
  'templates:edit': TemplatesEdit,
  'templates:remove': TemplatesRemove,
  'village:set:reception': VillageSetReception,
  version: Version,
};
