import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { villagePaths, type VillagePaths } from '../../../src/core/village/paths.js';
import { readAgentText, readOrdinance, readPromptMaterial } from '../../../src/core/village/promptFiles.js';
import { ensureVillageId, isVillageId, readVillageId } from '../../../src/core/village/villageId.js';

let dir: string;
let paths: VillagePaths;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ff-prompt-'));
  paths = villagePaths(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('prompt material', () => {
  it('missing files (and a missing workspace) read as ""', async () => {
    expect(await readOrdinance(paths)).toBe('');
    expect(await readPromptMaterial(paths, 'writer')).toEqual({ ordinance: '', construct: '', skill: '', memory: '' });
  });

  it('reads Ordinance.md and the agent files into their slots', async () => {
    mkdirSync(paths.agent('writer').dir, { recursive: true });
    writeFileSync(paths.ordinance, 'Be kind.');
    writeFileSync(paths.agent('writer').skill, 'Write well.');
    writeFileSync(paths.agent('writer').memory, 'Met Kana.');
    writeFileSync(paths.agent('writer').construct, 'You are a writer.');
    expect(await readPromptMaterial(paths, 'writer')).toEqual({
      ordinance: 'Be kind.', construct: 'You are a writer.', skill: 'Write well.', memory: 'Met Kana.',
    });
    expect(await readAgentText(paths, 'writer', 'skill')).toBe('Write well.');
  });

  it('refuses an unsafe id before touching the disk', async () => {
    await expect(readPromptMaterial(paths, '../../etc')).rejects.toMatchObject({ code: 'UNSAFE_IDENTIFIER' });
  });

  it('a folder where a file belongs is CONFIG_IO', async () => {
    mkdirSync(paths.ordinance, { recursive: true });
    await expect(readOrdinance(paths)).rejects.toMatchObject({ code: 'CONFIG_IO' });
  });
});

describe('village_id', () => {
  it('reading never writes', async () => {
    mkdirSync(paths.workspace, { recursive: true });
    expect(await readVillageId(paths)).toBeNull();
    expect(existsSync(paths.villageId)).toBe(false);
  });

  it('ensure creates a lowercase UUID once, then keeps it', async () => {
    mkdirSync(paths.workspace, { recursive: true });
    const first = await ensureVillageId(paths);
    expect(first.created).toBe(true);
    expect(isVillageId(first.id)).toBe(true);
    expect(readFileSync(paths.villageId, 'utf8')).toBe(first.id);
    expect(await ensureVillageId(paths)).toEqual({ id: first.id, created: false });
  });

  it.each([
    ['malformed', 'not-a-uuid', false],
    ['uppercase', '0F8FAD5B-D9CB-469F-A165-70867728950E', false],
    ['trailing newline is fine', '0f8fad5b-d9cb-469f-a165-70867728950e\n', true],
  ])('%s → kept: %s', async (_name, content, kept) => {
    mkdirSync(paths.workspace, { recursive: true });
    writeFileSync(paths.villageId, content);
    const result = await ensureVillageId(paths);
    expect(result.created).toBe(!kept);
    if (kept) expect(result.id).toBe(content.trim());
    else expect(readFileSync(paths.villageId, 'utf8')).toBe(result.id);
  });
});
