import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src/core/village/atomicWrite.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ff-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('creates, then replaces, leaving no temp file behind', async () => {
    const file = join(dir, 'world.json');
    await writeFileAtomic(file, 'one');
    expect(readFileSync(file, 'utf8')).toBe('one');
    writeFileSync(join(dir, 'other.txt'), 'keep');
    await writeFileAtomic(file, new TextEncoder().encode('two'));
    expect(readFileSync(file, 'utf8')).toBe('two');
    expect(readdirSync(dir).sort()).toEqual(['other.txt', 'world.json']);
  });

  it('concurrent writers never tear the file (last rename wins, whole content)', async () => {
    const file = join(dir, 'f.txt');
    const bodies = Array.from({ length: 8 }, (_, i) => String(i).repeat(10_000));
    await Promise.all(bodies.map((body) => writeFileAtomic(file, body)));
    expect(bodies).toContain(readFileSync(file, 'utf8'));
    expect(readdirSync(dir)).toEqual(['f.txt']);
  });

  it('fails with CONFIG_IO naming the file when the folder is missing, and leaves nothing', async () => {
    const file = join(dir, 'nope', 'world.json');
    await expect(writeFileAtomic(file, 'x')).rejects.toMatchObject({ code: 'CONFIG_IO', details: { file } });
    expect(readdirSync(dir)).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')('applies the mode to a new file', async () => {
    const file = join(dir, 'secret.json');
    await writeFileAtomic(file, '{}', { mode: 0o600 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
