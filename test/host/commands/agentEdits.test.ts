import { beforeAll, describe, expect, it } from 'vitest';
import { isFuseforksError } from '../../../src/core/errors.js';
import type { World } from '../../../src/core/world/types.js';
import { agentSpecSchema, modelTemplateSchema } from '../../../src/core/world/schema.js';
import { loadWorldSchemas } from '../../../src/core/world/worldSchemas.js';
import {
  createAgent,
  deriveAgentId,
  removeAgent,
  reorderAgents,
  setPosition,
  setTies,
  updateAgent,
} from '../../../src/host/commands/agentEdits.js';
import { removeTemplate, setExternalName, setReception, upsertGroup, removeGroup, upsertTemplate } from '../../../src/host/commands/villageEdits.js';

// The edit functions take the schemas from the holder a running village fills on its first edit.
beforeAll(() => loadWorldSchemas());

function world(): World {
  const agent = (id: string, order: number, ties: string[] = []) => ({ ...agentSpecSchema.parse({ id, name: id.toUpperCase(), modelTemplateId: 't' }), order, connectedAgents: ties });
  return {
    agents: [agent('a', 0, ['b']), agent('b', 1), agent('c', 2)],
    groups: [{ id: 'g', name: 'G', batchStart: true, order: 0 }],
    modelTemplates: [modelTemplateSchema.parse({ id: 't', name: 'T', model: 'm' })],
    roles: [],
    topologyPositions: { a: { x: 1, y: 2 } },
    tokenBudget: 1000,
    language: 'en',
    userName: null,
    reception: 'a',
    externalName: null,
    askTimeoutSecs: 600,
    maxHops: 8,
  };
}

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return isFuseforksError(error) ? error.code : String(error);
  }
  return 'ok';
}

describe('deriveAgentId', () => {
  it.each([
    ['Alice', [], 'alice'],
    ['Alice Smith!', [], 'alice_smith'],
    ['受付', [], 'agent'],
    ['alice', ['alice'], 'alice_2'],
    ['alice', ['alice', 'alice_2'], 'alice_3'],
    ['x'.repeat(80), [], 'x'.repeat(64)],
  ])('%s with %j taken → %s', (name, taken, id) => {
    expect(deriveAgentId(name, new Set(taken))).toBe(id);
  });
});

describe('agent edits refuse what the core refuses', () => {
  const w = world();
  it.each<[string, () => unknown, string]>([
    ['create with a taken name', () => createAgent(w, { name: ' A ' }), 'DUPLICATE_AGENT_NAME'],
    ['create with a blank name', () => createAgent(w, { name: '  ' }), 'DUPLICATE_AGENT_NAME'],
    ['create with an unknown template', () => createAgent(w, { name: 'n', modelTemplateId: 'zz' }), 'MODEL_TEMPLATE_NOT_FOUND'],
    ['create without any template', () => createAgent({ ...w, modelTemplates: [] }, { name: 'n' }), 'MODEL_TEMPLATE_NOT_FOUND'],
    ['create with an unknown role', () => createAgent(w, { name: 'n', roleId: 'r' }), 'ROLE_NOT_FOUND'],
    ['tie to itself', () => setTies(w, 'a', ['a']), 'INVALID_TOPOLOGY'],
    ['tie to an unknown servant', () => setTies(w, 'a', ['zz']), 'INVALID_TOPOLOGY'],
    ['tie twice', () => setTies(w, 'a', ['b', 'b']), 'INVALID_TOPOLOGY'],
    ['ties of an unknown servant', () => setTies(w, 'zz', []), 'AGENT_NOT_FOUND'],
    ['update to a taken name', () => updateAgent(w, 'b', { ...w.agents[1], name: 'C' }), 'DUPLICATE_AGENT_NAME'],
    ['update with a bad field', () => updateAgent(w, 'b', { ...w.agents[1], maxToolIterations: 'x' }), 'INVALID_REQUEST'],
    ['update with a self tie', () => updateAgent(w, 'b', { ...w.agents[1], connectedAgents: ['b'] }), 'INVALID_TOPOLOGY'],
    ['position of an unsafe id', () => setPosition(w, '../x', { x: 1, y: 1 }), 'UNSAFE_IDENTIFIER'],
    ['position not finite', () => setPosition(w, 'a', { x: Number.NaN, y: 1 }), 'INVALID_TOPOLOGY'],
    ['remove a used template', () => removeTemplate(w, 't'), 'INVALID_TOPOLOGY'],
    ['template with an unsafe id', () => upsertTemplate(w, { id: 'a/b', name: 'x', model: 'm' }, () => false), 'UNSAFE_IDENTIFIER'],
    ['template claiming a missing key', () => upsertTemplate(w, { id: 'u', name: 'x', model: 'm', credential: 'keyring' }, () => false), 'CREDENTIAL_MISSING'],
    ['reception to an unknown servant', () => setReception(w, 'zz'), 'AGENT_NOT_FOUND'],
    ['external name with brackets', () => setExternalName(w, '【x】'), 'INVALID_USER_NAME'],
    ['a valid create', () => createAgent(w, { name: 'Dora' }), 'ok'],
  ])('%s → %s', (_label, run, code) => {
    expect(codeOf(run)).toBe(code);
  });
});

describe('agent edits produce the expected world', () => {
  it('create takes the first template, order = count, defaults on', () => {
    const { world: next, id } = createAgent(world(), { name: 'Dora Explorer' });
    const spec = next.agents.find((a) => a.id === id);
    expect(spec).toMatchObject({ id: 'dora_explorer', modelTemplateId: 't', order: 3, batchStart: true, hearsRoomLog: true, connectedAgents: [] });
  });

  it('remove strips inbound ties, the position and the reception', () => {
    const next = removeAgent(world(), 'a');
    expect(next.agents.map((a) => a.id)).toEqual(['b', 'c']);
    expect(next.topologyPositions).toEqual({});
    expect(next.reception).toBeNull();
    expect(removeAgent(world(), 'b').agents[0]?.connectedAgents).toEqual([]);
  });

  it('reorder puts listed ids first and keeps the rest after them', () => {
    const next = reorderAgents(world(), ['c', 'a']);
    expect(Object.fromEntries(next.agents.map((a) => [a.id, a.order]))).toEqual({ c: 0, a: 1, b: 2 });
  });

  it('a stored key keeps keyring even when the form says unset', () => {
    const next = upsertTemplate(world(), { id: 't', name: 'T2', model: 'm2', credential: 'unset' }, () => true);
    expect(next.modelTemplates[0]).toMatchObject({ name: 'T2', model: 'm2', credential: 'keyring' });
  });

  it('removing a group ungroups its servants', () => {
    const w = world();
    w.agents[0] = { ...w.agents[0]!, groupId: 'g' };
    const next = removeGroup(w, 'g');
    expect(next.groups).toEqual([]);
    expect(next.agents[0]?.groupId).toBeNull();
    expect(upsertGroup(next, { name: 'Night shift' }).id).toBe('night_shift');
  });
});
