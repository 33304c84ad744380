/**
 * Pure edits of the village-level parts of a world: model templates, groups, reception and external name.
 * Each returns a new World or throws a FuseforksError naming the field and the fix. Secrets are never seen
 * here — the caller passes only whether a key is stored (`hasKey`).
 */
import { assertSafeIdentifier } from '../../core/world/identifiers.js';
import { normalizeUserName } from '../../core/world/normalize.js';
import { worldSchemas } from '../../core/world/worldSchemas.js';
import type { Group, ModelTemplate, World } from '../../core/world/types.js';
import { deriveAgentId, requireAgent } from './agentEdits.js';
import { fieldInvalid } from '../../core/errors/requestErrors.js';
import { credentialMissing, externalNameInvalid, templateInUse, templateNotInWorld } from '../../core/errors/worldErrors.js';

/**
 * Adds or replaces a model template (matched by id; the id is the key's account, so it never changes).
 * A stored key keeps `credential: keyring` (only clearing the key leaves it); claiming `keyring` without a stored
 * key is refused (CREDENTIAL_MISSING).
 */
export function upsertTemplate(world: World, input: unknown, hasKey: (templateId: string) => boolean): World {
  const parsed = worldSchemas().modelTemplateSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || '?';
    throw fieldInvalid('Model template', field, `is invalid (${issue?.message ?? 'bad value'})`, `Correct ${field} and save again.`);
  }
  const template: ModelTemplate = parsed.data;
  assertSafeIdentifier(template.id, 'model template id');
  if (template.name.trim() === '') template.name = template.id;
  if (template.model.trim() === '') throw fieldInvalid('Model template', 'model', 'is empty', 'Type the model name the provider expects.');
  const stored = hasKey(template.id);
  if (stored) template.credential = 'keyring';
  else if (template.credential === 'keyring') {
    throw credentialMissing(template.id);
  }
  const exists = world.modelTemplates.some((t) => t.id === template.id);
  const modelTemplates = exists
    ? world.modelTemplates.map((t) => (t.id === template.id ? template : t))
    : [...world.modelTemplates, template];
  return { ...world, modelTemplates };
}

/** Removes a template; refused while a servant uses it (INVALID_TOPOLOGY names the servants). */
export function removeTemplate(world: World, templateId: string): World {
  if (!world.modelTemplates.some((t) => t.id === templateId)) {
    throw templateNotInWorld(templateId, 'remove');
  }
  const users = world.agents.filter((a) => a.modelTemplateId === templateId).map((a) => a.id);
  if (users.length > 0) {
    throw templateInUse(templateId, users);
  }
  return { ...world, modelTemplates: world.modelTemplates.filter((t) => t.id !== templateId) };
}

/** Sets a template's credential source after its key was stored or cleared. */
export function setCredential(world: World, templateId: string, credential: ModelTemplate['credential']): World {
  if (!world.modelTemplates.some((t) => t.id === templateId)) {
    throw templateNotInWorld(templateId, 'key');
  }
  return { ...world, modelTemplates: world.modelTemplates.map((t) => (t.id === templateId ? { ...t, credential } : t)) };
}

/** Input of a group upsert: no id = a new group (id derived from the name). */
export interface GroupInput {
  id?: string;
  name: string;
  batchStart?: boolean;
}

/** Adds or renames a group; returns the world and the group's id. */
export function upsertGroup(world: World, input: GroupInput): { world: World; id: string } {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (name === '') throw fieldInvalid('Group', 'name', 'is empty', 'Type a name for the group.');
  const existing = input.id === undefined ? undefined : world.groups.find((g) => g.id === input.id);
  if (input.id !== undefined && existing === undefined) {
    throw fieldInvalid('Group', 'id', `"${input.id}" does not exist`, 'Reload the village and edit an existing group.');
  }
  const id = existing?.id ?? deriveAgentId(name, new Set(world.groups.map((g) => g.id)));
  const group: Group = {
    id,
    name,
    batchStart: input.batchStart ?? existing?.batchStart ?? true,
    order: existing?.order ?? world.groups.length,
  };
  const groups = existing === undefined ? [...world.groups, group] : world.groups.map((g) => (g.id === id ? group : g));
  return { world: { ...world, groups }, id };
}

/** Removes a group; its servants become ungrouped. */
export function removeGroup(world: World, groupId: string): World {
  if (!world.groups.some((g) => g.id === groupId)) {
    throw fieldInvalid('Group', 'id', `"${groupId}" does not exist`, 'Reload the village.');
  }
  return {
    ...world,
    groups: world.groups.filter((g) => g.id !== groupId),
    agents: world.agents.map((a) => (a.groupId === groupId ? { ...a, groupId: null } : a)),
  };
}

/** Chooses the reception (an existing servant) or clears it (null). */
export function setReception(world: World, agentId: string | null): World {
  if (agentId !== null) requireAgent(world, agentId);
  return { ...world, reception: agentId };
}

/** Sets the name external clients are shown as (userName rules) or clears it with null / blank. */
export function setExternalName(world: World, name: string | null): World {
  if (name === null || name.trim() === '') return { ...world, externalName: null };
  const normalized = normalizeUserName(name);
  if (normalized === null) {
    throw externalNameInvalid();
  }
  return { ...world, externalName: normalized };
}
