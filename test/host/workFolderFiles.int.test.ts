/**
 * The chat's `@` completion on a real temp village and a real work folder: matches by path, folders marked with a
 * trailing slash, the name-prefix match first; confined as the file tools are — a folder part that leaves the work
 * folder (`..`, an absolute path, a symlink pointing out) is refused with the tools' reason, a link is never
 * listed or walked into, dot-entries are skipped; a servant without a work folder answers nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isFuseforksError } from '../../src/core/errors.js';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { villagePaths } from '../../src/core/village/paths.js';
import { rankWorkPaths } from '../../src/host/commands/workFolderFiles.js';
import type { VillageCommands } from '../../src/host/villageCommands.js';
import { codeOf, openCommands } from './support/openCommands.js';

let dir: string;
let work: string;
let outside: string;
let vc: VillageCommands;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ff-workfiles-'));
  work = join(dir, 'work');
  outside = join(dir, 'outside');
  mkdirSync(join(work, 'src/lib'), { recursive: true });
  mkdirSync(join(work, '.git'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(work, 'README.md'), '#');
  writeFileSync(join(work, 'src/main.ts'), '');
  writeFileSync(join(work, 'src/lib/readme-notes.txt'), '');
  writeFileSync(join(work, '.git/config'), '');
  writeFileSync(join(outside, 'secret.txt'), 'nope');
  symlinkSync(outside, join(work, 'out'));
  symlinkSync(join(outside, 'secret.txt'), join(work, 'src/leak.txt'));
  const paths = villagePaths(dir);
  mkdirSync(paths.workspace, { recursive: true });
  writeFileSync(
    paths.world,
    JSON.stringify({
      language: 'en',
      modelTemplates: [{ id: 't', name: 't', model: 'm', credential: 'not_required', provider: 'echo' }],
      agents: [
        { id: 'alice', name: 'Alice', modelTemplateId: 't', workDir: work },
        { id: 'bob', name: 'Bob', modelTemplateId: 't' },
      ],
    }),
  );
  vc = await openCommands(paths, new MemorySecretStore(), { events: [], worlds: [], stopped: [], running: new Set() });
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(query: string): Promise<string> {
  try {
    await vc.files.listWorkFiles('alice', query);
    return 'not refused';
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    expect(error.code).toBe('INVALID_REQUEST');
    return error.message;
  }
}

describe('listWorkFiles', () => {
  it('lists the whole folder for an empty query, shallow first, folders with a slash, no links, no dot-entries', async () => {
    const list = await vc.files.listWorkFiles('alice', '');
    expect(list.workDir).toBe(work);
    expect(list.paths).toEqual(['README.md', 'src/', 'src/lib/', 'src/main.ts', 'src/lib/readme-notes.txt']);
    expect(list.truncated).toBe(false);
  });

  it('matches case-insensitively anywhere in the path, the name-prefix match first', async () => {
    await expect(vc.files.listWorkFiles('alice', 'READ')).resolves.toMatchObject({ paths: ['README.md', 'src/lib/readme-notes.txt'] });
    await expect(vc.files.listWorkFiles('alice', 'src/ma')).resolves.toMatchObject({ paths: ['src/main.ts'] });
    await expect(vc.files.listWorkFiles('alice', 'src/lib/')).resolves.toMatchObject({ paths: ['src/lib/readme-notes.txt'] });
  });

  it.each([
    ['a symlink that points out', 'out/', 'points outside the work folder'],
    ['a parent folder', '../', 'points outside the work folder'],
    ['an absolute path', `${'/etc'}/`, 'Absolute path'],
    ['a missing folder', 'nothing/here', 'was not found'],
  ])('refuses %s with the tools\' reason', async (_name, query, reason) => {
    await expect(refusal(query)).resolves.toContain(reason);
  });

  it('never shows what a link points at', async () => {
    const all = await vc.files.listWorkFiles('alice', 'secret');
    expect(all.paths).toEqual([]);
    const leak = await vc.files.listWorkFiles('alice', 'leak');
    expect(leak.paths).toEqual([]);
  });

  it('a servant without a work folder answers nothing; an unknown servant is AGENT_NOT_FOUND; a bad query is named', async () => {
    await expect(vc.files.listWorkFiles('bob', '')).resolves.toEqual({ agentId: 'bob', workDir: null, query: '', paths: [], truncated: false });
    await expect(codeOf(vc.files.listWorkFiles('nobody', ''))).resolves.toBe('AGENT_NOT_FOUND');
    await expect(codeOf(vc.files.listWorkFiles('alice', 'x'.repeat(600)))).resolves.toBe('INVALID_REQUEST');
  });
});

describe('rankWorkPaths', () => {
  it('puts name-prefix matches first, then shallower paths, then by path', () => {
    expect(rankWorkPaths(['a/b/xmain.ts', 'z/main.ts', 'main.go', 'b/amain/'], 'main')).toEqual(['main.go', 'z/main.ts', 'b/amain/', 'a/b/xmain.ts']);
  });
});
