/**
 * Edits and lookups that break the rules of world.json (AGENT_NOT_FOUND, DUPLICATE_AGENT_NAME,
 * MODEL_TEMPLATE_NOT_FOUND, ROLE_NOT_FOUND, INVALID_TOPOLOGY, INVALID_TOKEN_BUDGET, INVALID_USER_NAME,
 * CREDENTIAL_MISSING). The GUI's wording says "servant"; the runtime's (supervisor, schedules) says "agent".
 */
import { errorFactory, type ErrorSpec } from './errorFactory.js';

/** A GUI edit names a servant that is not in world.json (deleted meanwhile). */
export const servantNotFound = errorFactory('AGENT_NOT_FOUND', (id: string) => ({
  message: `Servant "${id}" is not in world.json.`,
  agentId: id,
  fix: 'Reload the village; the servant may have been deleted.',
}));

/** The runtime is asked to start or reach an agent id that world.json does not have. */
export const agentNotInWorld = errorFactory('AGENT_NOT_FOUND', (id: string) => ({
  message: `agent "${id}" is not in world.json`,
  agentId: id,
  fix: 'use an agent id listed in world.json (agents[].id); ids are case-sensitive',
}));

/** world.json's reception names an agent that is not there. */
export const receptionNotInWorld = errorFactory('AGENT_NOT_FOUND', (reception: string) => ({
  message: `reception "${reception}" is not in world.json`,
  agentId: reception,
  fix: 'choose an existing agent as the reception (GUI: Village → Reception, or "reception" in world.json)',
}));

/** A schedule whose target (field "to") is not an agent of this village. */
export const scheduleTargetNotFound = errorFactory('AGENT_NOT_FOUND', (to: string) => ({
  message: `The schedule's target agent "${to}" does not exist`,
  fix: 'Pick an agent of this village as the target (field "to").',
  details: { field: 'to', agentId: to },
  agentId: to,
}));

/** A servant saved with a blank name. */
export const servantNameEmpty = errorFactory('DUPLICATE_AGENT_NAME', () => ({
  message: 'A servant needs a name: the name field is empty.',
  fix: 'Type a name for the servant.',
  details: { field: 'name' },
}));

/** A servant saved with the (trimmed) name of another. */
export const servantNameTaken = errorFactory('DUPLICATE_AGENT_NAME', (name: string, otherId: string) => ({
  message: `Another servant (${otherId}) is already named "${name}".`,
  fix: 'Choose a name no other servant in this village uses.',
  details: { field: 'name', agentId: otherId },
}));

/** Why a template id was looked up: a servant's field, a template removal, or a key being stored. */
export type TemplateLookup = 'servant' | 'remove' | 'key';

const TEMPLATE_FIX: Record<TemplateLookup, string | undefined> = {
  servant: 'Pick one of the registered model templates, or register one first.',
  remove: undefined,
  key: 'Save the template before entering its key.',
};

/** A GUI edit names a model template that is not in world.json. */
export const templateNotInWorld = errorFactory('MODEL_TEMPLATE_NOT_FOUND', (templateId: string, lookup: TemplateLookup): ErrorSpec => ({
  message: `Model template "${templateId}" does not exist in world.json.`,
  fix: TEMPLATE_FIX[lookup],
  details: lookup === 'servant' ? { field: 'modelTemplateId', modelTemplateId: templateId } : { modelTemplateId: templateId },
}));

/** A servant added before any model template exists. */
export const noTemplateYet = errorFactory('MODEL_TEMPLATE_NOT_FOUND', () => ({
  message: 'There is no model template yet, so a servant cannot be added.',
  fix: 'Register a model template first (Register model).',
  details: { field: 'modelTemplateId' },
}));

/** An agent started on a template that does not exist. */
export const agentTemplateMissing = errorFactory('MODEL_TEMPLATE_NOT_FOUND', (agentId: string, templateId: string) => ({
  message: `agent "${agentId}" uses template "${templateId}", which does not exist`,
  agentId,
  fix: 'pick an existing model template for this agent in world.json',
}));

/** A role id that is not in world.json; `adding` = a new servant picks it (field roleId), else an edit of the role. */
export const roleNotFound = errorFactory('ROLE_NOT_FOUND', (roleId: string, adding: boolean): ErrorSpec => ({
  message: `Role "${roleId}" does not exist in world.json.`,
  fix: adding ? 'Pick an existing role or none.' : 'Reload the village; the role may have been deleted.',
  details: adding ? { field: 'roleId' } : { roleId },
}));

/** A tie to self, to an unknown servant, or listed twice (`why` says which). */
export const tieRefused = errorFactory('INVALID_TOPOLOGY', (source: string, target: string, why: string) => ({
  message: `Tie ${source} → ${target} is refused: ${why}.`,
  fix: 'Tie only to other, existing servants, each once.',
  details: { field: 'connectedAgents', source, target },
}));

/** A servant put in a group that does not exist. */
export const groupNotFound = errorFactory('INVALID_TOPOLOGY', (groupId: string) => ({
  message: `Group "${groupId}" does not exist in world.json.`,
  fix: 'Pick an existing group or none.',
  details: { field: 'groupId', groupId },
}));

/** A node position that is not two finite numbers. */
export const positionInvalid = errorFactory('INVALID_TOPOLOGY', (id: string) => ({
  message: `Position of "${id}" must be two finite numbers x and y.`,
  fix: 'Send {"x": number, "y": number}.',
  details: { field: 'topologyPositions' },
}));

/** A template removed while servants still use it. */
export const templateInUse = errorFactory('INVALID_TOPOLOGY', (templateId: string, users: readonly string[]) => ({
  message: `Model template "${templateId}" is used by ${users.join(', ')}; it cannot be removed.`,
  fix: 'Move those servants to another template first.',
  details: { modelTemplateId: templateId, usedBy: users.join(',') },
}));

/** A village setting that breaks its rule (`problem` = what is wrong); INVALID_TOKEN_BUDGET for tokenBudget. */
export const tokenBudgetInvalid = errorFactory('INVALID_TOKEN_BUDGET', (field: string, problem: string, fix: string) => ({
  message: `Village settings: ${field} ${problem}.`,
  fix,
  details: { field },
}));

/** userName broken in the settings form (INVALID_USER_NAME, same sentence shape as the other settings). */
export const userNameInvalid = errorFactory('INVALID_USER_NAME', (field: string, problem: string, fix: string) => ({
  message: `Village settings: ${field} ${problem}.`,
  fix,
  details: { field },
}));

/** The external name breaks the name rules. */
export const externalNameInvalid = errorFactory('INVALID_USER_NAME', () => ({
  message: 'The external name must be 1-32 characters without 【】［］ or control characters.',
  fix: 'Shorten the name or remove the brackets.',
  details: { field: 'externalName' },
}));

/** A template claims a keyring key that is not stored. */
export const credentialMissing = errorFactory('CREDENTIAL_MISSING', (templateId: string) => ({
  message: `Model template "${templateId}" claims a stored API key, but none is stored.`,
  fix: 'Enter the API key with "Register", or choose "no authentication required".',
  details: { field: 'credential', modelTemplateId: templateId },
}));
