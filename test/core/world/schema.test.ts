import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentSpecSchema, modelTemplateSchema, roleSchema, worldFileSchema } from '../../../src/core/world/schema.js';
import { parseWorldText } from '../../../src/core/world/parseWorld.js';

const minimalTemplate = { id: 't', name: 'T', baseUrl: 'http://127.0.0.1/v1', model: 'm' };

describe('agent defaults (the original 13 keys + groupId/hidden/planReview)', () => {
  it('fills every default from id/name/modelTemplateId alone', () => {
    expect(agentSpecSchema.parse({ id: 'a', name: 'A', modelTemplateId: 't' })).toEqual({
      id: 'a', name: 'A', modelTemplateId: 't', ragSources: [], connectedAgents: [], order: 0, workDir: null,
      maxToolIterations: null, enabledTools: null, hearsRoomLog: true, allowHandoff: true, batchStart: true,
      roleId: null, groupId: null, hidden: false, planReview: false,
    });
  });
});

describe('model template readings', () => {
  it.each([
    ['defaults', {}, { credential: 'unset', provider: null, contextLength: 128000, maxOutputTokens: 8192, useTools: true, effort: null, requestTimeoutSecs: 120, maxRetries: 3, temperature: null, inputPerMtok: null, pricingAsOf: null }],
    ['legacy credential none → unset', { credential: 'none' }, { credential: 'unset' }],
    ['unknown credential → unset', { credential: 'vault' }, { credential: 'unset' }],
    ['keyring kept', { credential: 'keyring' }, { credential: 'keyring' }],
    ['known provider kept', { provider: 'anthropic' }, { provider: 'anthropic' }],
    ['echo provider kept', { provider: 'echo' }, { provider: 'echo' }],
    ['unknown provider → null + unsupportedProvider', { provider: 'mistral_native' }, { provider: null, unsupportedProvider: 'mistral_native' }],
    ['every wire of the original is known', { provider: 'meta_responses' }, { provider: 'meta_responses' }],
    ['stream defaults to on', {}, { stream: true }],
    ['unknown effort → null', { effort: 'ultra' }, { effort: null }],
    ['known effort kept', { effort: 'xhigh' }, { effort: 'xhigh' }],
    ['search flag validated and kept', { googleSearch: true }, { googleSearch: true }],
  ])('%s', (_name, extra, expected) => {
    expect(modelTemplateSchema.parse({ ...minimalTemplate, ...extra })).toMatchObject(expected);
  });

  it('baseUrl defaults to the OpenAI URL of a new template', () => {
    expect(modelTemplateSchema.parse({ id: 't', name: 'T', model: 'm' }).baseUrl).toBe('https://api.openai.com/v1');
  });

  it('no unsupportedProvider key when the provider is known or null', () => {
    expect('unsupportedProvider' in modelTemplateSchema.parse(minimalTemplate)).toBe(false);
  });
});

describe('roles', () => {
  it.each([
    ['defaults object filled', { id: 'r', name: 'R' }, { description: '', color: null, defaults: { construct: '', modelTemplateId: null, enabledTools: null, maxToolIterations: null } }],
    ['unknown color → null', { id: 'r', name: 'R', color: 'mauve' }, { color: null }],
    ['known color kept', { id: 'r', name: 'R', color: 'violet' }, { color: 'violet' }],
  ])('%s', (_name, input, expected) => {
    expect(roleSchema.parse(input)).toMatchObject(expected);
  });
});

describe('top-level defaults', () => {
  it('an empty object is a valid empty world', () => {
    expect(worldFileSchema.parse({})).toEqual({
      agents: [], groups: [], modelTemplates: [], roles: [], topologyPositions: {}, tokenBudget: null,
      language: null, userName: null, reception: null, externalName: null, askTimeoutSecs: 600, maxHops: 8,
    });
  });

  it.each([['fr', null], ['ja', 'ja'], ['en', 'en']])('language %j → %j', (language, expected) => {
    expect(worldFileSchema.parse({ language }).language).toBe(expected);
  });
});

describe('schema errors name the key path', () => {
  it.each([
    ['wrong type in an agent', { agents: [{ id: 'a', name: 'A', modelTemplateId: 't' }, { id: 'w', name: 'W', modelTemplateId: 't', order: 'first' }] }, 'agents[1] (id "w").order'],
    ['missing required key', { modelTemplates: [{ id: 't', name: 'T' }] }, 'modelTemplates[0] (id "t").model'],
    ['negative budget', { tokenBudget: -5 }, 'tokenBudget'],
    ['position not a number', { topologyPositions: { a: { x: 'left', y: 0 } } }, 'topologyPositions.a.x'],
    ['role defaults', { roles: [{ id: 'r', name: 'R', defaults: { maxToolIterations: 300 } }] }, 'roles[0] (id "r").defaults.maxToolIterations'],
    ['odd key name quoted', { topologyPositions: { 'a b': { x: 1 } } }, 'topologyPositions["a b"].y'],
  ])('%s → %s', (_name, input, path) => {
    const result = parseWorldText(JSON.stringify(input), '/v/workspace/world.json');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('CONFIG_PARSE');
    expect(result.error.message).toContain('/v/workspace/world.json');
    expect(result.error.message).toContain(path);
    expect(result.error.details?.path).toBe(path);
    expect(result.error.fix).toContain(path);
  });

  it('a top level that is not an object is refused', () => {
    const result = parseWorldText('[]', 'world.json');
    expect(result.ok ? null : result.error.details?.path).toBe('(root)');
  });
});

describe('a world.json written by the original app', () => {
  const text = readFileSync(resolve(import.meta.dirname, '../../fixtures/world/original-app.json'), 'utf8');

  it('parses, with camelCase keys and lenient legacy values', () => {
    const result = parseWorldText(text, 'world.json');
    if (!result.ok) throw result.error;
    const { parsed } = result;
    expect(parsed.agents.map((a) => a.id)).toEqual(['concierge', 'analyst', 'scribe']);
    expect(parsed.agents[1]).toMatchObject({ maxToolIterations: 20, enabledTools: ['grep', 'fd', 'rag'], hearsRoomLog: false, groupId: null, hidden: false, planReview: false });
    const byId = new Map(parsed.modelTemplates.map((t) => [t.id, t]));
    expect(byId.get('claude-main')).toMatchObject({ credential: 'keyring', provider: null, effort: 'medium', cacheWrite1hPerMtok: 6 });
    expect(byId.get('legacy-openai')).toMatchObject({ credential: 'unset', provider: null });
    expect(byId.get('gemini-flash')).toMatchObject({ provider: 'gemini', googleSearch: true });
    expect(byId.get('gemini-flash')).not.toHaveProperty('unsupportedProvider');
    expect(parsed.roles[0]?.defaults.modelTemplateId).toBe('claude-main');
    expect(parsed.topologyPositions.analyst).toEqual({ x: 340, y: 60.25 });
    expect(parsed.groups).toEqual([]);
  });

  it('tolerates a UTF-8 BOM', () => {
    expect(parseWorldText(`\ufeff${text}`, 'world.json').ok).toBe(true);
  });
});
