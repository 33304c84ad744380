/**
 * World → the JSON object written to world.json. The normalized known keys are merged over the raw object that
 * was read, at every level (top, each agent / template / role (+ its defaults) / group / position, matched by id),
 * so keys written by a newer build or by hand survive a rewrite (SPEC §3 "unknown keys survive"; the original
 * lost them, reference ops.md #112). Key order of existing keys is kept; new keys are appended. Pure.
 *
 * Omitted when null, as in the original: tokenBudget, language, userName, reception, externalName. Keys this
 * product added (groups, askTimeoutSecs, maxHops, agent groupId/hidden/planReview) are written only when they
 * differ from their default or were already present, so an original-app village stays as it was.
 */
import type { RawObject } from './parseWorld.js';
import type { AgentRole, AgentSpec, Group, ModelTemplate, World } from './types.js';
import { DEFAULT_ASK_TIMEOUT_SECS, DEFAULT_MAX_HOPS } from './worldDefaults.js';

/** Builds the world.json object; `raw` is the object last read from (or written to) the file, or null. */
export function toWorldFile(world: World, raw: RawObject | null): RawObject {
  const base: RawObject = { ...(raw ?? {}) };
  const out = merge(base, {
    agents: world.agents.map((agent) => agentObject(agent, rawById(raw?.agents, agent.id))),
    modelTemplates: world.modelTemplates.map((t) => templateObject(t, rawById(raw?.modelTemplates, t.id))),
    topologyPositions: Object.fromEntries(
      Object.entries(world.topologyPositions).map(([id, p]) => [id, merge(recordOr(recordOr(raw?.topologyPositions)[id]), { x: p.x, y: p.y })]),
    ),
    roles: world.roles.map((role) => roleObject(role, rawById(raw?.roles, role.id))),
  });
  setOrOmit(out, 'tokenBudget', world.tokenBudget);
  setOrOmit(out, 'language', world.language);
  setOrOmit(out, 'userName', world.userName);
  setOrOmit(out, 'reception', world.reception);
  setOrOmit(out, 'externalName', world.externalName);
  const groups = world.groups.map((group) => merge(rawById(raw?.groups, group.id), groupKeys(group)));
  addedKey(out, 'groups', groups, groups.length === 0);
  addedKey(out, 'askTimeoutSecs', world.askTimeoutSecs, world.askTimeoutSecs === DEFAULT_ASK_TIMEOUT_SECS);
  addedKey(out, 'maxHops', world.maxHops, world.maxHops === DEFAULT_MAX_HOPS);
  return out;
}

function agentObject(agent: AgentSpec, raw: RawObject): RawObject {
  const keys: RawObject = {
    id: agent.id,
    name: agent.name,
    modelTemplateId: agent.modelTemplateId,
    ragSources: [...agent.ragSources],
    connectedAgents: [...agent.connectedAgents],
    order: agent.order,
    workDir: agent.workDir,
    maxToolIterations: agent.maxToolIterations,
    enabledTools: agent.enabledTools === null ? null : [...agent.enabledTools],
    hearsRoomLog: agent.hearsRoomLog,
    allowHandoff: agent.allowHandoff,
    batchStart: agent.batchStart,
    roleId: agent.roleId,
  };
  const withRaw = merge(raw, keys);
  addedKey(withRaw, 'groupId', agent.groupId, agent.groupId === null);
  addedKey(withRaw, 'hidden', agent.hidden, !agent.hidden);
  addedKey(withRaw, 'planReview', agent.planReview, !agent.planReview);
  return withRaw;
}

/** The original's search flags: written when the file had them or when on (off and absent stays absent). */
const SEARCH_FLAGS = ['googleSearch', 'xaiWebSearch', 'xaiXSearch', 'openaiWebSearch', 'openaiReasoningPro', 'metaWebSearch'] as const;

function templateObject(t: ModelTemplate, raw: RawObject): RawObject {
  const out = merge(raw, templateKeys(t));
  for (const flag of SEARCH_FLAGS) addedKey(out, flag, t[flag], !t[flag]);
  addedKey(out, 'stream', t.stream, t.stream);
  return out;
}

function templateKeys(t: ModelTemplate): RawObject {
  return {
    id: t.id,
    name: t.name,
    baseUrl: t.baseUrl,
    model: t.model,
    contextLength: t.contextLength,
    temperature: t.temperature,
    maxOutputTokens: t.maxOutputTokens,
    credential: t.credential,
    // An unsupported provider is written back as read, never replaced by null (auto-detect).
    provider: t.unsupportedProvider ?? t.provider,
    useTools: t.useTools,
    effort: t.effort,
    requestTimeoutSecs: t.requestTimeoutSecs,
    ...(t.maxResponseBytes === undefined ? {} : { maxResponseBytes: t.maxResponseBytes }),
    maxRetries: t.maxRetries,
    inputPerMtok: t.inputPerMtok,
    outputPerMtok: t.outputPerMtok,
    cacheReadPerMtok: t.cacheReadPerMtok,
    cacheWritePerMtok: t.cacheWritePerMtok,
    cacheWrite1hPerMtok: t.cacheWrite1hPerMtok,
    pricingAsOf: t.pricingAsOf,
  };
}

function roleObject(role: AgentRole, raw: RawObject): RawObject {
  const defaults = merge(recordOr(raw.defaults), {
    construct: role.defaults.construct,
    modelTemplateId: role.defaults.modelTemplateId,
    enabledTools: role.defaults.enabledTools === null ? null : [...role.defaults.enabledTools],
    maxToolIterations: role.defaults.maxToolIterations,
  });
  return merge(raw, { id: role.id, name: role.name, description: role.description, color: role.color, defaults });
}

function groupKeys(group: Group): RawObject {
  return { id: group.id, name: group.name, batchStart: group.batchStart, order: group.order };
}

/** Known keys over raw keys; raw key order first. */
function merge(raw: RawObject, known: RawObject): RawObject {
  return { ...raw, ...known };
}

/** The raw entry with this id in a raw array (first match), or {}. */
function rawById(list: unknown, id: string): RawObject {
  if (!Array.isArray(list)) return {};
  for (const entry of list) {
    const record = recordOr(entry);
    if (record.id === id) return record;
  }
  return {};
}

function recordOr(value: unknown): RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as RawObject) : {};
}

function setOrOmit(out: RawObject, key: string, value: unknown): void {
  if (value === null) delete out[key];
  else out[key] = value;
}

/** Writes a product-added key unless it is at its default and the file never had it. */
function addedKey(out: RawObject, key: string, value: unknown, isDefault: boolean): void {
  if (isDefault && !(key in out)) return;
  out[key] = value;
}
