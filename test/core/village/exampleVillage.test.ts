import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { villagePaths } from '../../../src/core/village/paths.js';
import { readPromptMaterial } from '../../../src/core/village/promptFiles.js';
import { loadWorld } from '../../../src/core/village/worldStore.js';
import { resolveStartSet } from '../../../src/core/world/startSet.js';
import { toWorldFile } from '../../../src/core/world/toWorldFile.js';

const paths = villagePaths(resolve(import.meta.dirname, '../../../examples/village'));

async function exampleDoc() {
  const load = await loadWorld(paths, { locale: 'ja_JP.UTF-8' });
  if (load.kind !== 'loaded') throw new Error(`examples/village did not load: ${load.kind === 'unreadable' ? load.error.message : 'missing'}`);
  return load.doc;
}

describe('the bundled example village (examples/village)', () => {
  it('loads cleanly: no notes, nothing to rewrite, and a rewrite would reproduce the file', async () => {
    const doc = await exampleDoc();
    expect(doc.notes).toEqual([]);
    expect(doc.changed).toBe(false);
    expect(toWorldFile(doc.world, doc.raw)).toEqual(doc.raw);
  });

  it('is a five-agent team on the offline demo template, reception tied to everyone', async () => {
    const { world } = await exampleDoc();
    expect(world.agents.map((a) => a.id)).toEqual(['front', 'researcher', 'writer', 'reviewer', 'archivist']);
    expect(world.modelTemplates).toHaveLength(1);
    expect(world.modelTemplates[0]).toMatchObject({ id: 'demo', provider: 'echo', model: 'demo', credential: 'not_required' });
    expect(world.agents.every((a) => a.modelTemplateId === 'demo' && a.batchStart && !a.planReview)).toBe(true);
    expect(world).toMatchObject({ reception: 'front', language: 'en', tokenBudget: 1_000_000 });
    expect(world.groups).toEqual([{ id: 'studio', name: 'Studio', batchStart: true, order: 0 }]);
    expect(world.agents[0]?.connectedAgents.sort()).toEqual(['archivist', 'researcher', 'reviewer', 'writer']);
    expect(Object.keys(world.topologyPositions).sort()).toEqual(world.agents.map((a) => a.id).sort());
  });

  it('--start batch starts all five in order; ask with a single id adds the reception', async () => {
    const { world } = await exampleDoc();
    expect(resolveStartSet(world, 'batch', 'ask')).toEqual({ ok: true, ids: ['front', 'researcher', 'writer', 'reviewer', 'archivist'] });
    expect(resolveStartSet(world, 'writer', 'ask')).toEqual({ ok: true, ids: ['writer', 'front'] });
  });

  it('has an Ordinance and a SKILL.md for every agent', async () => {
    const { world } = await exampleDoc();
    for (const agent of world.agents) {
      const material = await readPromptMaterial(paths, agent.id);
      expect(material.ordinance).toMatch(/ordinance/i);
      expect(material.skill.length, `${agent.id}/SKILL.md`).toBeGreaterThan(50);
    }
  });
});
