import { beforeAll, describe, expect, it } from 'vitest';
import { isFuseforksError } from '../../../src/core/errors.js';
import { agentSpecSchema, modelTemplateSchema } from '../../../src/core/world/schema.js';
import type { World } from '../../../src/core/world/types.js';
import { removeRole, setAgentRole, upsertRole } from '../../../src/host/commands/roleEdits.js';
import { applyVillageSettings, villageSettings } from '../../../src/host/commands/villageSettings.js';
import { loadWorldSchemas } from '../../../src/core/world/worldSchemas.js';

// The edit functions take the schemas from the holder a running village fills on its first edit.
beforeAll(() => loadWorldSchemas());

function world(): World {
  const agent = (id: string, roleId: string | null = null) => ({ ...agentSpecSchema.parse({ id, name: id.toUpperCase(), modelTemplateId: 't' }), roleId });
  return {
    agents: [agent('a', 'critic'), agent('b')],
    groups: [],
    modelTemplates: [modelTemplateSchema.parse({ id: 't', name: 'T', model: 'm' })],
    roles: [{ id: 'critic', name: 'Critic', description: '', color: 'blue', defaults: { construct: 'Be gentle.', modelTemplateId: null, enabledTools: null, maxToolIterations: null } }],
    topologyPositions: {},
    tokenBudget: 1000,
    language: 'en',
    userName: null,
    reception: null,
    externalName: null,
    askTimeoutSecs: 600,
    maxHops: 8,
  };
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return isFuseforksError(error) ? `${error.code}${error.details?.field ? `:${String(error.details.field)}` : ''}` : String(error);
  }
}

describe('roles', () => {
  it('adds a role with defaults and replaces one by id', () => {
    const w = upsertRole(world(), { id: 'writer', name: ' Writer ', color: 'green', defaults: { construct: 'Write.', modelTemplateId: 't' } });
    expect(w.roles.map((r) => [r.id, r.name, r.color])).toEqual([['critic', 'Critic', 'blue'], ['writer', 'Writer', 'green']]);
    const renamed = upsertRole(w, { id: 'critic', name: 'Reviewer', color: null });
    expect(renamed.roles[0]).toMatchObject({ id: 'critic', name: 'Reviewer', color: null, defaults: { construct: '' } });
  });

  it.each<[string, unknown, string]>([
    ['a bad id', { id: 'no spaces', name: 'X' }, 'INVALID_REQUEST:id'],
    ['an empty name', { id: 'x', name: '  ' }, 'INVALID_REQUEST:name'],
    ['an unknown colour', { id: 'x', name: 'X', color: 'black' }, 'INVALID_REQUEST:color'],
    ['an unknown template', { id: 'x', name: 'X', defaults: { modelTemplateId: 'nope' } }, 'INVALID_REQUEST:defaults.modelTemplateId'],
    ['a wrong type', { id: 'x', name: 'X', defaults: { maxToolIterations: 'many' } }, 'INVALID_REQUEST:defaults.maxToolIterations'],
  ])('refuses %s', (_why, input, code) => expect(codeOf(() => upsertRole(world(), input))).toBe(code));

  it('deleting a role leaves its servants without one; setting a role checks both ids', () => {
    const w = removeRole(world(), 'critic');
    expect(w.roles).toEqual([]);
    expect(w.agents.map((a) => a.roleId)).toEqual([null, null]);
    expect(setAgentRole(world(), 'b', 'critic').agents[1]?.roleId).toBe('critic');
    expect(codeOf(() => setAgentRole(world(), 'b', 'nope'))).toBe('ROLE_NOT_FOUND');
    expect(codeOf(() => setAgentRole(world(), 'zz', null))).toBe('AGENT_NOT_FOUND');
    expect(codeOf(() => removeRole(world(), 'nope'))).toBe('ROLE_NOT_FOUND');
  });
});

describe('village settings', () => {
  it('changes only the fields given', () => {
    const w = applyVillageSettings(world(), { userName: ' Ann ', maxHops: 4 });
    expect(villageSettings(w)).toEqual({ userName: 'Ann', language: 'en', tokenBudget: 1000, askTimeoutSecs: 600, maxHops: 4, externalName: null });
    expect(villageSettings(applyVillageSettings(w, { tokenBudget: null, userName: '', externalName: 'CI', language: 'ja', askTimeoutSecs: 30 }))).toEqual({
      userName: null,
      language: 'ja',
      tokenBudget: null,
      askTimeoutSecs: 30,
      maxHops: 4,
      externalName: 'CI',
    });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a bracket in the name', { userName: '【x】' }, 'INVALID_USER_NAME:userName'],
    ['a long name', { userName: 'x'.repeat(33) }, 'INVALID_USER_NAME:userName'],
    ['another language', { language: 'de' }, 'INVALID_REQUEST:language'],
    ['a zero budget', { tokenBudget: 0 }, 'INVALID_TOKEN_BUDGET:tokenBudget'],
    ['a fractional budget', { tokenBudget: 1.5 }, 'INVALID_TOKEN_BUDGET:tokenBudget'],
    ['no wait at all', { askTimeoutSecs: 0 }, 'INVALID_REQUEST:askTimeoutSecs'],
    ['a wait over a day', { askTimeoutSecs: 86_401 }, 'INVALID_REQUEST:askTimeoutSecs'],
    ['depth 0', { maxHops: 0 }, 'INVALID_REQUEST:maxHops'],
    ['depth as text', { maxHops: '8' }, 'INVALID_REQUEST:maxHops'],
    ['an external name that is not text', { externalName: 5 }, 'INVALID_REQUEST:externalName'],
  ])('refuses %s', (_why, input, code) => expect(codeOf(() => applyVillageSettings(world(), input))).toBe(code));
});
