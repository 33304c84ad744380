import { describe, expect, it } from 'vitest';
import { resolveStartSet, type StartMode } from '../../../src/core/world/startSet.js';
import type { AgentSpec, Group, World } from '../../../src/core/world/types.js';

function agent(id: string, over: Partial<AgentSpec> = {}): AgentSpec {
  return {
    id, name: id, modelTemplateId: 't', ragSources: [], connectedAgents: [], order: 0, workDir: null,
    maxToolIterations: null, enabledTools: null, hearsRoomLog: true, allowHandoff: true, batchStart: true,
    roleId: null, groupId: null, hidden: false, planReview: false, ...over,
  };
}

const groups: Group[] = [
  { id: 'on', name: 'On', batchStart: true, order: 0 },
  { id: 'off', name: 'Off', batchStart: false, order: 1 },
];

const world: World = {
  agents: [
    agent('front', { order: 5 }),
    agent('c', { order: 2 }),
    agent('a', { order: 0 }),
    agent('b', { order: 2, hidden: true }), // same order as c, later in the file; hidden is ignored
    agent('lazy', { batchStart: false }),
    agent('ingroup', { order: 1, groupId: 'on' }),
    agent('offgroup', { order: 1, groupId: 'off' }),
    agent('orphan', { order: 9, groupId: 'deleted-group' }),
  ],
  groups, modelTemplates: [], roles: [], topologyPositions: {}, tokenBudget: null, language: 'en',
  userName: null, reception: 'front', externalName: null, askTimeoutSecs: 600, maxHops: 8,
};

const batch = ['a', 'ingroup', 'c', 'b', 'front', 'orphan'];

describe('resolveStartSet: unsafe ids (UNSAFE_IDENTIFIER)', () => {
  const unsafe: World = { ...world, agents: [agent('ok', { order: 0 }), agent('../up', { order: 1 }), agent('a/b', { order: 2 }), agent('', { order: 3 })], reception: 'a/b' };
  it.each<[string, StartMode, string[]]>([
    ['batch', 'serve', ['ok']],
    ['batch', 'ask', ['ok']], // the unsafe reception is not appended (preflight refuses the ask)
    ['reception', 'ask', []],
    ['ok', 'ask', ['ok']],
  ])('%j for %s → %j: never an unsafe id', (spec, mode, ids) => {
    expect(resolveStartSet(unsafe, spec, mode)).toEqual({ ok: true, ids });
  });
  it('listing an unsafe id is an argument error naming it', () => {
    const r = resolveStartSet(unsafe, 'ok,../up', 'serve');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain('"../up"');
  });
});

describe('resolveStartSet', () => {
  it.each<[string, StartMode, string[]]>([
    ['batch', 'serve', batch],
    ['batch', 'ask', batch], // reception already in the batch set
    [' batch ', 'serve', batch],
    ['reception', 'ask', ['front']],
    ['a', 'ask', ['a', 'front']],
    ['a', 'serve', ['a']],
    ['lazy,a, c', 'serve', ['lazy', 'a', 'c']],
    ['a,a,front', 'ask', ['a', 'front']],
    ['offgroup', 'serve', ['offgroup']],
  ])('%j for %s → %j', (spec, mode, ids) => {
    expect(resolveStartSet(world, spec, mode)).toEqual({ ok: true, ids });
  });

  it.each<[string, StartMode, RegExp]>([
    ['reception', 'serve', /only for ask/],
    ['a,nobody', 'serve', /unknown agent "nobody"/],
    ['', 'ask', /empty/],
    ['a,,b', 'serve', /empty item/],
    ['none', 'ask', /unknown agent "none"/],
  ])('%j for %s → argument error %s', (spec, mode, message) => {
    const result = resolveStartSet(world, spec, mode);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.flag).toBe('--start');
    expect(result.error.message).toMatch(message);
    expect(result.error.fix.length).toBeGreaterThan(0);
  });

  it('batch without a reception among batch agents still adds it for ask, appended', () => {
    const w: World = { ...world, reception: 'lazy' };
    expect(resolveStartSet(w, 'batch', 'ask')).toEqual({ ok: true, ids: [...batch, 'lazy'] });
    expect(resolveStartSet(w, 'batch', 'serve')).toEqual({ ok: true, ids: batch });
  });

  it('leaves an unset or deleted reception to preflight (no argument error, nothing added)', () => {
    expect(resolveStartSet({ ...world, reception: null }, 'reception', 'ask')).toEqual({ ok: true, ids: [] });
    expect(resolveStartSet({ ...world, reception: 'gone' }, 'a', 'ask')).toEqual({ ok: true, ids: ['a'] });
  });

  it('an agent literally named batch is reachable with a trailing comma', () => {
    const w: World = { ...world, agents: [...world.agents, agent('batch', { batchStart: false })] };
    expect(resolveStartSet(w, 'batch,', 'serve')).toEqual({ ok: true, ids: ['batch'] });
  });
});
