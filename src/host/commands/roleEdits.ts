/**
 * Pure edits of a world's roles (reference gui.md §2.6): add or change a role (id fixed once made, 1–64 of
 * [A-Za-z0-9_-]), delete it (its servants keep working; only the badge goes), and point a servant at a role. The
 * role's Construct text is copied into the servant's Construct.md by the caller (a file, not world.json).
 */
import { FuseforksError } from '../../core/errors.js';
import { ROLE_COLORS } from '../../core/world/enums.js';
import { worldSchemas } from '../../core/world/worldSchemas.js';
import type { AgentRole, World } from '../../core/world/types.js';
import { requireAgent } from './agentEdits.js';
import { fieldInvalid } from '../../core/errors/requestErrors.js';
import { roleNotFound } from '../../core/errors/worldErrors.js';

const ROLE_ID = /^[A-Za-z0-9_-]{1,64}$/;

const invalid = (field: string, problem: string, fix: string): FuseforksError => fieldInvalid('Role', field, problem, fix);

/** The role with this id, or ROLE_NOT_FOUND. */
export function requireRole(world: World, id: string): AgentRole {
  const role = world.roles.find((r) => r.id === id);
  if (role !== undefined) return role;
  throw roleNotFound(id, false);
}

/** Adds a role or replaces the one with the same id (checked against the world.json schema). */
export function upsertRole(world: World, input: unknown): World {
  const parsed = worldSchemas().roleSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || '?';
    throw invalid(field, `is invalid (${issue?.message ?? 'bad value'})`, `Correct ${field} and save again.`);
  }
  const role: AgentRole = { ...parsed.data, name: parsed.data.name.trim() };
  if (!ROLE_ID.test(role.id)) throw invalid('id', `"${role.id}" must be 1–64 letters, digits, _ or -`, 'Choose an id such as writer or code-review.');
  if (role.name === '') throw invalid('name', 'is empty', 'Type a name for the role.');
  const raw = (input as { color?: unknown }).color;
  if (raw !== undefined && raw !== null && !(ROLE_COLORS as readonly unknown[]).includes(raw)) {
    throw invalid('color', `"${String(raw)}" is not one of ${ROLE_COLORS.join(', ')}`, 'Pick a badge colour from the list, or none.');
  }
  const template = role.defaults.modelTemplateId;
  if (template !== null && !world.modelTemplates.some((t) => t.id === template)) {
    throw invalid('defaults.modelTemplateId', `"${template}" is not a model template of this village`, 'Pick a registered model template, or none.');
  }
  const exists = world.roles.some((r) => r.id === role.id);
  return { ...world, roles: exists ? world.roles.map((r) => (r.id === role.id ? role : r)) : [...world.roles, role] };
}

/** Deletes a role; servants that had it keep working without a role (the badge goes). */
export function removeRole(world: World, id: string): World {
  requireRole(world, id);
  return {
    ...world,
    roles: world.roles.filter((r) => r.id !== id),
    agents: world.agents.map((a) => (a.roleId === id ? { ...a, roleId: null } : a)),
  };
}

/** Marks a servant as having `roleId` (or none). */
export function setAgentRole(world: World, agentId: string, roleId: string | null): World {
  requireAgent(world, agentId);
  if (roleId !== null) requireRole(world, roleId);
  return { ...world, agents: world.agents.map((a) => (a.id === agentId ? { ...a, roleId } : a)) };
}
