import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { villagePaths } from '../../../src/core/village/paths.js';

describe('villagePaths', () => {
  const p = villagePaths('/data/v');

  it('puts shelf files beside the workspace, never inside it', () => {
    expect(p.shelf).toEqual({
      mcpServer: '/data/v/mcp_server.json',
      probeApprovals: '/data/v/probe_approvals.json',
      jev: '/data/v/jev.json',
      pricing: '/data/v/pricing.json',
    });
    for (const file of Object.values(p.shelf)) expect(file.startsWith(p.workspace)).toBe(false);
  });

  it.each([
    ['world', 'world.json'],
    ['schedules', 'schedules.json'],
    ['villageId', 'village_id'],
    ['ordinance', 'Ordinance.md'],
    ['mcp', 'mcp.json'],
    ['sessions', 'sessions.mdb'],
    ['log', 'fuseforks.log'],
    ['lock', '.fuseforks.lock'],
    ['exports', 'exports'],
    ['agentsDir', 'agents'],
  ] as const)('workspace %s → %s', (key, name) => {
    expect(p[key]).toBe(join('/data/v/workspace', name));
  });

  it('builds agent files under agents/{id}', () => {
    expect(p.agent('writer')).toEqual({
      dir: '/data/v/workspace/agents/writer',
      skill: '/data/v/workspace/agents/writer/SKILL.md',
      memory: '/data/v/workspace/agents/writer/Memory.md',
      construct: '/data/v/workspace/agents/writer/Construct.md',
      mcp: '/data/v/workspace/agents/writer/mcp.json',
      run: '/data/v/workspace/agents/writer/run.json',
      judge: '/data/v/workspace/agents/writer/judge.json',
    });
    expect(p.agentFile('writer', 'memory')).toBe('/data/v/workspace/agents/writer/Memory.md');
    expect(p.exportFile('0b1c-2d')).toBe('/data/v/workspace/exports/0b1c-2d.jsonl');
  });

  it.each(['..', '../x', 'a/b', '', 'a b', 'x'.repeat(65)])('refuses unsafe agent id %j with UNSAFE_IDENTIFIER', (id) => {
    expect(() => p.agent(id)).toThrow(expect.objectContaining({ code: 'UNSAFE_IDENTIFIER' }));
    expect(() => p.agentFile(id, 'skill')).toThrow(expect.objectContaining({ code: 'UNSAFE_IDENTIFIER' }));
    expect(() => p.exportFile(id)).toThrow(expect.objectContaining({ code: 'UNSAFE_IDENTIFIER' }));
  });

  it('resolves a relative data dir', () => {
    expect(villagePaths('rel/dir').dataDir).toBe(resolve('rel/dir'));
  });
});
