/**
 * One work folder for several servants on a real temp village: the folder is checked first (relative, missing, a
 * file — each refused naming the folder, the reason and the fix, world.json byte-identical), then every chosen
 * servant gets it in one write that keeps keys this build does not know; blank clears it; unknown ids are refused.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isFuseforksError } from '../../src/core/errors.js';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { villagePaths, type VillagePaths } from '../../src/core/village/paths.js';
import { checkWorkDir } from '../../src/host/commands/workDirBatch.js';
import type { VillageCommands } from '../../src/host/villageCommands.js';
import { codeOf, openCommands } from './support/openCommands.js';

let dir: string;
let paths: VillagePaths;
let vc: VillageCommands;
let rec: { events: unknown[]; worlds: unknown[]; stopped: string[]; running: Set<string> };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ff-workdirs-'));
  paths = villagePaths(dir);
  mkdirSync(paths.workspace, { recursive: true });
  mkdirSync(join(dir, 'project'));
  writeFileSync(join(dir, 'file.txt'), '');
  writeFileSync(
    paths.world,
    JSON.stringify({
      language: 'en',
      futureKey: { kept: true },
      modelTemplates: [{ id: 't', name: 't', model: 'm', credential: 'not_required', provider: 'echo' }],
      agents: [
        { id: 'alice', name: 'Alice', modelTemplateId: 't', workDir: '/old', laterField: 'alice-extra' },
        { id: 'bob', name: 'Bob', modelTemplateId: 't' },
        { id: 'carol', name: 'Carol', modelTemplateId: 't', workDir: '/carol' },
      ],
    }),
  );
  rec = { events: [], worlds: [], stopped: [], running: new Set() };
  vc = await openCommands(paths, new MemorySecretStore(), rec as Parameters<typeof openCommands>[2]);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const onDisk = () => JSON.parse(readFileSync(paths.world, 'utf8')) as { futureKey?: unknown; agents: Array<Record<string, unknown>> };

describe('setWorkDirs', () => {
  it('sets the folder on the chosen servants only, in one write, keeping unknown keys; blank clears', async () => {
    const folder = join(dir, 'project');
    const state = await vc.setWorkDirs(['alice', 'bob'], `${folder}/`);
    expect(state.world.agents.map((a) => [a.id, a.workDir])).toEqual([['alice', folder], ['bob', folder], ['carol', '/carol']]);
    const file = onDisk();
    expect(file.futureKey).toEqual({ kept: true });
    expect(file.agents[0]).toMatchObject({ id: 'alice', workDir: folder, laterField: 'alice-extra' });
    expect(file.agents[2]).toMatchObject({ workDir: '/carol' });
    expect(rec.events.filter((e) => (e as { type: string }).type === 'topologyChanged')).toHaveLength(1);

    await vc.setWorkDirs(['alice'], '  ');
    expect(onDisk().agents[0]).toMatchObject({ workDir: null, laterField: 'alice-extra' });
  });

  it.each([
    ['a relative path', 'project', 'is not an absolute path', 'full path'],
    ['a missing folder', '/no/such/folder', 'does not exist', 'Create the folder'],
    ['a file', 'FILE', 'is a file, not a folder', 'folder that contains it'],
  ])('refuses %s naming the folder, the reason and the fix; nothing is written', async (_name, given, reason, fix) => {
    const folder = given === 'FILE' ? join(dir, 'file.txt') : given;
    const before = readFileSync(paths.world, 'utf8');
    let error: unknown = null;
    await vc.setWorkDirs(['alice', 'bob'], folder).catch((e: unknown) => (error = e));
    expect(isFuseforksError(error)).toBe(true);
    if (!isFuseforksError(error)) return;
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.message).toContain(JSON.stringify(folder));
    expect(error.message).toContain(reason);
    expect(error.fix).toContain(fix);
    expect(readFileSync(paths.world, 'utf8')).toBe(before);
    await expect(checkWorkDir(folder)).resolves.toMatchObject({ ok: false, reason });
  });

  it('refuses an unknown servant or an empty list, writing nothing', async () => {
    const before = readFileSync(paths.world, 'utf8');
    await expect(codeOf(vc.setWorkDirs(['alice', 'nobody'], join(dir, 'project')))).resolves.toBe('AGENT_NOT_FOUND');
    await expect(codeOf(vc.setWorkDirs([], join(dir, 'project')))).resolves.toBe('INVALID_REQUEST');
    expect(readFileSync(paths.world, 'utf8')).toBe(before);
  });
});
