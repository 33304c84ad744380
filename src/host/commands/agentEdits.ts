/**
 * Pure edits of a world's agents and ties (the GUI's create / update / delete / reorder / tie / position
 * commands). Each takes a World and returns a new one, or throws a FuseforksError naming the field and the fix;
 * nothing here touches the disk. Rules follow reference core.md §1.2 and gui.md §2.2/§3.2.
 */
import { worldSchemas } from '../../core/world/worldSchemas.js';
import { assertSafeIdentifier, MAX_IDENTIFIER_LENGTH } from '../../core/world/identifiers.js';
import type { AgentSpec, Position, World } from '../../core/world/types.js';
import { servantFieldInvalid } from '../../core/errors/requestErrors.js';
import { groupNotFound, noTemplateYet, positionInvalid, roleNotFound, servantNameEmpty, servantNameTaken, servantNotFound, templateNotInWorld, tieRefused } from '../../core/errors/worldErrors.js';

/** What a person chooses when adding a servant: a name, optionally a template and a role. */
export interface NewAgentInput {
  name: string;
  /** Default: the first model template. */
  modelTemplateId?: string;
  roleId?: string | null;
  groupId?: string | null;
}

/**
 * Agent id from a display name: lowercase, every char outside `[a-z0-9_-]` → `_`, trimmed of `_`, cut to 64,
 * `agent` when nothing is left; `_2`, `_3`… on collision with `taken`.
 */
export function deriveAgentId(name: string, taken: ReadonlySet<string>): string {
  const base = name.toLowerCase().replace(/[^a-z0-9_-]/g, '_').replace(/^_+|_+$/g, '').slice(0, MAX_IDENTIFIER_LENGTH) || 'agent';
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `_${n}`;
    const candidate = `${base.slice(0, MAX_IDENTIFIER_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Trimmed name, refusing a blank one and one another agent already has (`DUPLICATE_AGENT_NAME`). */
export function checkAgentName(world: World, name: unknown, selfId: string | null): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed === '') {
    throw servantNameEmpty();
  }
  const clash = world.agents.find((a) => a.id !== selfId && a.name.trim() === trimmed);
  if (clash !== undefined) {
    throw servantNameTaken(trimmed, clash.id);
  }
  return trimmed;
}

/** Refuses a template id that is not in the world (`MODEL_TEMPLATE_NOT_FOUND`). */
export function checkTemplate(world: World, templateId: string): void {
  if (world.modelTemplates.some((t) => t.id === templateId)) return;
  throw templateNotInWorld(templateId, 'servant');
}

/** The agent with this id, or AGENT_NOT_FOUND. */
export function requireAgent(world: World, id: string): AgentSpec {
  const agent = world.agents.find((a) => a.id === id);
  if (agent !== undefined) return agent;
  throw servantNotFound(id);
}

/** Refuses a tie list with self, unknown ids or repeats (`INVALID_TOPOLOGY`); the order is kept. */
export function checkTies(world: World, sourceId: string, targets: readonly string[]): string[] {
  const ids = new Set(world.agents.map((a) => a.id));
  const seen = new Set<string>();
  for (const target of targets) {
    const why = target === sourceId ? 'a servant cannot be tied to itself' : !ids.has(target) ? 'no such servant' : seen.has(target) ? 'listed twice' : null;
    if (why !== null) {
      throw tieRefused(sourceId, target, why);
    }
    seen.add(target);
  }
  return [...targets];
}

function checkGroup(world: World, groupId: string | null): void {
  if (groupId === null || world.groups.some((g) => g.id === groupId)) return;
  throw groupNotFound(groupId);
}

/** Adds an agent (id derived from the name, first template by default, role defaults copied). */
export function createAgent(world: World, input: NewAgentInput): { world: World; id: string } {
  const name = checkAgentName(world, input.name, null);
  const role = input.roleId == null ? undefined : world.roles.find((r) => r.id === input.roleId);
  if (input.roleId != null && role === undefined) {
    throw roleNotFound(input.roleId, true);
  }
  const templateId = input.modelTemplateId ?? role?.defaults.modelTemplateId ?? world.modelTemplates[0]?.id;
  if (templateId === undefined) {
    throw noTemplateYet();
  }
  checkTemplate(world, templateId);
  checkGroup(world, input.groupId ?? null);
  const id = deriveAgentId(name, new Set(world.agents.map((a) => a.id)));
  const spec: AgentSpec = {
    ...worldSchemas().agentSpecSchema.parse({ id, name, modelTemplateId: templateId }),
    order: world.agents.length,
    roleId: role?.id ?? null,
    groupId: input.groupId ?? null,
    enabledTools: role?.defaults.enabledTools ?? null,
    maxToolIterations: role?.defaults.maxToolIterations ?? null,
  };
  return { world: { ...world, agents: [...world.agents, spec] }, id };
}

/**
 * Replaces one agent's spec with `input` (parsed against the world.json schema; id fixed by the path).
 * Validates name, template, ties and group.
 */
export function updateAgent(world: World, id: string, input: unknown): World {
  const old = requireAgent(world, id);
  const parsed = worldSchemas().agentSpecSchema.safeParse({ ...(typeof input === 'object' && input !== null ? input : {}), id });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '?';
    throw servantFieldInvalid(id, field, issue?.message ?? 'bad value');
  }
  const spec: AgentSpec = { ...parsed.data, order: old.order };
  spec.name = checkAgentName(world, spec.name, id);
  checkTemplate(world, spec.modelTemplateId);
  spec.connectedAgents = checkTies(world, id, spec.connectedAgents);
  checkGroup(world, spec.groupId);
  if (spec.workDir !== null && spec.workDir.trim() === '') spec.workDir = null;
  return { ...world, agents: world.agents.map((a) => (a.id === id ? spec : a)) };
}

/** Removes an agent, its inbound ties, its position and a reception that named it. */
export function removeAgent(world: World, id: string): World {
  requireAgent(world, id);
  const agents = world.agents
    .filter((a) => a.id !== id)
    .map((a) => (a.connectedAgents.includes(id) ? { ...a, connectedAgents: a.connectedAgents.filter((t) => t !== id) } : a));
  const { [id]: _gone, ...topologyPositions } = world.topologyPositions;
  return { ...world, agents, topologyPositions, reception: world.reception === id ? null : world.reception };
}

/** `order` = index in `ids`; agents not listed keep their relative order after them. Unknown ids → AGENT_NOT_FOUND. */
export function reorderAgents(world: World, ids: readonly string[]): World {
  for (const id of ids) requireAgent(world, id);
  const rank = new Map(ids.map((id, i) => [id, i]));
  const rest = [...world.agents].filter((a) => !rank.has(a.id)).sort((a, b) => a.order - b.order);
  const sorted = [...ids.map((id) => requireAgent(world, id)), ...rest];
  const order = new Map(sorted.map((a, i) => [a.id, i]));
  return { ...world, agents: world.agents.map((a) => ({ ...a, order: order.get(a.id) ?? a.order })) };
}

/** Replaces one agent's outgoing ties. */
export function setTies(world: World, id: string, targets: readonly string[]): World {
  requireAgent(world, id);
  const connectedAgents = checkTies(world, id, targets);
  return { ...world, agents: world.agents.map((a) => (a.id === id ? { ...a, connectedAgents } : a)) };
}

/** Stores one node position (canvas pixels; must be finite numbers). */
export function setPosition(world: World, id: string, position: Position): World {
  assertSafeIdentifier(id, 'agent id');
  requireAgent(world, id);
  if (!Number.isFinite(position.x) || !Number.isFinite(position.y)) {
    throw positionInvalid(id);
  }
  return { ...world, topologyPositions: { ...world.topologyPositions, [id]: { x: position.x, y: position.y } } };
}
