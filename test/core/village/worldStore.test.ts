import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { villagePaths, type VillagePaths } from '../../../src/core/village/paths.js';
import { bootstrapWorld, loadWorld, saveWorld, saveWorldIfNormalized, type WorldDocument } from '../../../src/core/village/worldStore.js';

const FIXTURE = resolve(import.meta.dirname, '../../fixtures/world/original-app.json');
const en = { locale: 'en_US.UTF-8' };

let dir: string;
let paths: VillagePaths;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ff-world-'));
  paths = villagePaths(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
const readJson = (file: string): Record<string, any> => JSON.parse(readFileSync(file, 'utf8'));

function writeWorld(text: string): void {
  mkdirSync(paths.workspace, { recursive: true });
  writeFileSync(paths.world, text);
}

async function loaded(): Promise<WorldDocument> {
  const load = await loadWorld(paths, en);
  if (load.kind !== 'loaded') throw new Error(`expected loaded, got ${load.kind}`);
  return load.doc;
}

describe('missing world.json', () => {
  it('is a distinct result and creates nothing', async () => {
    expect(await loadWorld(paths, en)).toEqual({ kind: 'missing', path: paths.world });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('bootstrapWorld creates a fresh village explicitly: budget 1,000,000, language from the locale', async () => {
    const first = await bootstrapWorld(paths, { locale: 'ja_JP.UTF-8' });
    expect(first.created).toBe(true);
    expect(readJson(paths.world)).toEqual({ agents: [], modelTemplates: [], topologyPositions: {}, roles: [], tokenBudget: 1_000_000, language: 'ja' });
    const again = await bootstrapWorld(paths, en);
    expect(again.created).toBe(false);
    expect(again.load.kind === 'loaded' && again.load.doc.world.language).toBe('ja');
  });
});

describe('a world.json made by the original app', () => {
  beforeEach(() => {
    mkdirSync(paths.workspace, { recursive: true });
    copyFileSync(FIXTURE, paths.world);
  });

  it('loads with the original normalization notes and is not written by loading', async () => {
    const before = sha256(paths.world);
    const doc = await loaded();
    expect(sha256(paths.world)).toBe(before);
    expect(doc.changed).toBe(true);
    const notes = doc.notes.join('\n');
    expect(notes).toMatch(/agent "concierge": dropped 2 tie/);
    expect(notes).toMatch(/1 position/);
    expect(notes).toMatch(/tokenBudget: 0/);
    expect(notes).toMatch(/legacy credential "none"/);
    // The original's Gemini template is spoken by this build: nothing to note about it.
    expect(notes).not.toMatch(/gemini/);
    expect(notes).toMatch(/externalName: dropped/);
    expect(doc.world).toMatchObject({ tokenBudget: null, language: 'ja', userName: 'かな', externalName: null, reception: 'concierge' });
    expect(doc.world.agents[0]?.connectedAgents).toEqual(['analyst', 'scribe']);
  });

  it('a rewrite keeps every key it does not own and adds none of the product-only defaults', async () => {
    await saveWorldIfNormalized(await loaded());
    const file = readJson(paths.world);
    const templates = Object.fromEntries(file.modelTemplates.map((t: { id: string }) => [t.id, t]));
    expect(templates['legacy-openai']).toMatchObject({ apiKeyEnv: 'OPENAI_API_KEY', credential: 'unset' });
    expect(templates['gemini-flash']).toMatchObject({ provider: 'gemini', googleSearch: true });
    expect(templates['claude-main']).toMatchObject({ credential: 'keyring', provider: null, xaiXSearch: false });
    expect('unsupportedProvider' in templates['gemini-flash']).toBe(false);
    expect(Object.keys(file)).toEqual(['agents', 'modelTemplates', 'topologyPositions', 'language', 'userName', 'roles', 'reception']);
    expect(Object.keys(file.agents[0])).toHaveLength(13);
    expect(Object.keys(file.topologyPositions)).toEqual(['concierge', 'analyst', 'scribe']);
    // Rewritten once; the next load has nothing left to normalize.
    const reloaded = await loaded();
    expect(reloaded.changed).toBe(false);
    expect(reloaded.notes).toEqual([]);
    expect(reloaded.world.modelTemplates.find((t) => t.id === 'gemini-flash')).toMatchObject({ provider: 'gemini', googleSearch: true });
  });
});

describe('unknown keys survive a load/save round trip at every level', () => {
  const future = {
    schemaHint: 'v9',
    agents: [
      { id: 'a', name: 'A', modelTemplateId: 't', groupId: 'g', avatar: { shape: 'fox' } },
      { id: 'b', name: 'B', modelTemplateId: 't', mood: 'calm' },
    ],
    groups: [{ id: 'g', name: 'G', batchStart: false, order: 0, colour: 'sea' }],
    modelTemplates: [{ id: 't', name: 'T', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', provider: 'echo', credential: 'not_required', streaming: 'sse' }],
    roles: [{ id: 'r', name: 'R', color: 'blue', badge: '★', defaults: { construct: 'c', temperature: 0.2 } }],
    topologyPositions: { a: { x: 1, y: 2, pinned: true } },
    language: 'en',
    tokenBudget: 5000,
  };

  it('keeps them while applying in-memory edits', async () => {
    writeWorld(JSON.stringify(future, null, 2));
    const doc = await loaded();
    expect(doc.changed).toBe(false);
    const world = structuredClone(doc.world);
    world.agents[0]!.name = 'Alpha';
    world.agents.push({ ...world.agents[1]!, id: 'c', name: 'C' });
    world.groups[0]!.batchStart = true;
    world.roles[0]!.defaults.construct = 'changed';
    world.topologyPositions.a = { x: 10, y: 20 };
    const saved = await saveWorld(doc, world);

    const file = readJson(paths.world);
    expect(file.schemaHint).toBe('v9');
    expect(file.agents[0]).toMatchObject({ name: 'Alpha', avatar: { shape: 'fox' }, groupId: 'g' });
    expect(file.agents[1]).toMatchObject({ mood: 'calm' });
    expect(file.agents[2]).toMatchObject({ id: 'c', name: 'C' });
    expect('mood' in file.agents[2]).toBe(false);
    expect(file.groups[0]).toMatchObject({ batchStart: true, colour: 'sea' });
    expect(file.modelTemplates[0]).toMatchObject({ streaming: 'sse', provider: 'echo' });
    expect(file.roles[0]).toMatchObject({ badge: '★', defaults: { construct: 'changed', temperature: 0.2 } });
    expect(file.topologyPositions.a).toEqual({ x: 10, y: 20, pinned: true });

    // A second save from the returned document keeps them too.
    await saveWorld(saved, saved.world);
    expect(readJson(paths.world)).toEqual(file);
  });
});

describe('an unparseable world.json is read as default and never overwritten', () => {
  const truncated = '{\n  "agents": [\n    { "id": "a", "name": "A",\n';

  it('truncated JSON: error names the file and line:column; saves refuse; bytes unchanged', async () => {
    writeWorld(truncated);
    const before = sha256(paths.world);
    const load = await loadWorld(paths, en);
    expect(load.kind).toBe('unreadable');
    if (load.kind !== 'unreadable') return;
    expect(load.error.code).toBe('CONFIG_PARSE');
    expect(load.error.message).toContain(`${paths.world}:4:1`);
    expect(load.error.details).toMatchObject({ file: paths.world, line: 4, column: 1 });
    expect(load.error.fix).toMatch(/line 4, column 1/);
    expect(load.doc.world.agents).toEqual([]);
    expect(load.doc.readOnly).toBe(load.error);

    await expect(saveWorld(load.doc, load.doc.world)).rejects.toMatchObject({ code: 'CONFIG_PARSE' });
    await saveWorldIfNormalized({ ...load.doc, changed: true });
    const boot = await bootstrapWorld(paths, en);
    expect(boot.created).toBe(false);
    expect(sha256(paths.world)).toBe(before);
  });

  it('schema error: error names the key path; saves refuse; bytes unchanged', async () => {
    writeWorld(JSON.stringify({ agents: [{ id: 'a', name: 'A', modelTemplateId: 't', batchStart: 'yes' }] }));
    const before = sha256(paths.world);
    const load = await loadWorld(paths, en);
    if (load.kind !== 'unreadable') throw new Error('expected unreadable');
    expect(load.error.message).toContain(paths.world);
    expect(load.error.details?.path).toBe('agents[0] (id "a").batchStart');
    await expect(saveWorld(load.doc, load.doc.world)).rejects.toThrow(/is not overwritten/);
    expect(sha256(paths.world)).toBe(before);
  });

  it('a world.json that cannot be read at all is CONFIG_IO, not a missing village', async () => {
    mkdirSync(paths.world, { recursive: true });
    await expect(loadWorld(paths, en)).rejects.toMatchObject({ code: 'CONFIG_IO' });
  });
});
