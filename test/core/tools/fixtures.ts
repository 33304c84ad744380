/**
 * Real temp trees for the tool tests: a work folder next to an "outside" folder that every escape tries
 * to reach, plus a hash of the outside folder so a test can prove nothing there changed.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryDiagSink } from '../../../src/core/diag.js';
import type { ToolContext } from '../../../src/core/tools/contract.js';

export interface Sandbox {
  base: string;
  root: string;
  outside: string;
  workspace: string;
  cleanup(): void;
}

/**
 * Builds base/{work, outside, workspace}. work holds a.txt, sub/b.txt, inLink → a.txt, and every escape:
 * toOutside → ../outside/secret.txt, dirOut → ../outside, loop1 ⇄ loop2, dangling → ../outside/newdir, fifo.
 */
export function makeSandbox(): Sandbox {
  const base = mkdtempSync(join(tmpdir(), 'ff-tools-'));
  const root = join(base, 'work');
  const outside = join(base, 'outside');
  const workspace = join(base, 'workspace');
  for (const dir of [root, outside, workspace, join(root, 'sub')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), 'top secret\n');
  writeFileSync(join(root, 'a.txt'), 'alpha\nbeta\ngamma\n');
  writeFileSync(join(root, 'sub', 'b.txt'), 'one\ntwo\nthree\n');
  symlinkSync('a.txt', join(root, 'inLink'));
  symlinkSync('../outside/secret.txt', join(root, 'toOutside'));
  symlinkSync('../outside', join(root, 'dirOut'));
  symlinkSync('loop2', join(root, 'loop1'));
  symlinkSync('loop1', join(root, 'loop2'));
  symlinkSync('../outside/newdir', join(root, 'dangling'));
  execFileSync('mkfifo', [join(root, 'fifo')]);
  return { base, root, outside, workspace, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** A stable hash of every name, type, link target and file body under `dir`. */
export function hashTree(dir: string): string {
  const hash = createHash('sha256');
  const visit = (path: string, rel: string): void => {
    for (const name of readdirSync(path).sort()) {
      const abs = join(path, name);
      const info = lstatSync(abs);
      hash.update(`${rel}/${name}|${info.mode}|`);
      if (info.isSymbolicLink()) hash.update(readlinkSync(abs));
      else if (info.isDirectory()) visit(abs, `${rel}/${name}`);
      else if (info.isFile()) hash.update(readFileSync(abs));
    }
  };
  visit(dir, '');
  return hash.digest('hex');
}

/** A ToolContext on the sandbox. */
export function toolCtx(box: Pick<Sandbox, 'root' | 'workspace'>, over: Partial<ToolContext> = {}): ToolContext {
  return {
    agentId: 'agent_01',
    workDir: box.root,
    workspaceDir: box.workspace,
    language: 'en',
    runApproval: 'required',
    signal: new AbortController().signal,
    diag: new MemoryDiagSink(),
    round: 1,
    ...over,
  };
}

/** The body of a tool reply, whichever shape it came in. */
export function bodyOf(reply: string | { body: string; ok: boolean }): string {
  return typeof reply === 'string' ? reply : reply.body;
}

/** False only for an explicit refusal reply. */
export function okOf(reply: string | { body: string; ok: boolean }): boolean {
  return typeof reply === 'string' ? true : reply.ok;
}
