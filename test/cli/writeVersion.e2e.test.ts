/**
 * The build step `scripts/writeVersion.mjs` against real temporary git repositories: last tag + short commit,
 * no tag, no repository, and no git at all. It must always write a version and exit 0.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/writeVersion.mjs', import.meta.url));
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ff-ver-'));
  temps.push(dir);
  return dir;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' }).trim();
}

function writeVersion(root: string, env: NodeJS.ProcessEnv = process.env): { status: number | null; info: { version: string } } {
  const out = join(root, 'out', 'buildInfo.json');
  const result = spawnSync(process.execPath, [SCRIPT, '--root', root, '--out', out], { env, encoding: 'utf8' });
  return { status: result.status, info: JSON.parse(readFileSync(out, 'utf8')) as { version: string } };
}

describe('scripts/writeVersion.mjs', () => {
  const repo = temp();
  git(repo, 'init', '-q');
  writeFileSync(join(repo, 'a.txt'), 'a');
  git(repo, 'add', 'a.txt');
  git(repo, 'commit', '-q', '-m', 'first');

  it('without a tag: 0.0.0+g<sha>', () => {
    const sha = git(repo, 'rev-parse', '--short', 'HEAD');
    expect(writeVersion(repo)).toEqual({ status: 0, info: expect.objectContaining({ version: `0.0.0+g${sha}` }) });
  });

  it('with a tag: <tag without v>+g<sha> of HEAD, also after a later commit', () => {
    git(repo, 'tag', 'v0.4.0');
    writeFileSync(join(repo, 'b.txt'), 'b');
    git(repo, 'add', 'b.txt');
    git(repo, 'commit', '-q', '-m', 'second');
    const sha = git(repo, 'rev-parse', '--short', 'HEAD');
    expect(writeVersion(repo).info.version).toBe(`0.4.0+g${sha}`);
  });

  it('outside a repository: 0.0.0', () => {
    expect(writeVersion(temp())).toEqual({ status: 0, info: expect.objectContaining({ version: '0.0.0' }) });
  });

  it('without git on PATH: 0.0.0, exit 0', () => {
    expect(writeVersion(repo, { ...process.env, PATH: temp() })).toEqual({ status: 0, info: expect.objectContaining({ version: '0.0.0' }) });
  });
});
