/** Shared by the ship tests: a village that has RUN (sessions, log, exports, lock, status) and carries every shelf file. */
import { chownSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { exampleVillage, runCli, type Temps } from '../cli/support/cliProcess.js';

/** Every file under `dir`, as sorted POSIX paths relative to it. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(relative(dir, full).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Hands a tree to the image's user (uid/gid 1000), as a bake made on a desktop by that user is: the runtime writes a
 * bake private to its maker (0700/0600), and these tests make it as root.
 */
export function chownTree(dir: string, uid = 1000, gid = 1000): void {
  chownSync(dir, uid, gid);
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) chownTree(full, uid, gid);
    else chownSync(full, uid, gid);
  }
}

/**
 * The example village after a real `ask` (sessions.mdb, fuseforks.log, the lock file, village_id), plus an export,
 * a serve status, every shelf file, every kind of agent file for `front`, and a stray non-design file.
 */
export async function villageThatRan(temps: Temps): Promise<string> {
  const dir = exampleVillage(temps);
  const asked = await runCli(['ask', '--data-dir', dir, '--start', 'reception', 'hello']);
  if (asked.code !== 0) throw new Error(`setup ask failed (${asked.code}): ${asked.stderr}`);
  const ws = join(dir, 'workspace');
  writeFileSync(join(ws, 'village_id'), '0b7c2d2e-4c47-4d52-9a1c-5a8f0e4a9d11\n');
  mkdirSync(join(ws, 'exports'), { recursive: true });
  writeFileSync(join(ws, 'exports/s1.jsonl'), '{"session":{"id":"s1"}}\n');
  writeFileSync(join(ws, 'schedules.json'), '[]\n');
  writeFileSync(join(ws, 'mcp.json'), JSON.stringify({ mcpServers: { files: { command: 'mcp-files', args: ['--root', '/data'] } } }));
  for (const [name, body] of [
    ['Memory.md', '- likes tea\n'],
    ['Construct.md', 'construct\n'],
    ['run.json', '{"version":1,"allow":[],"deny":[],"pending":[]}\n'],
    ['mcp.json', '{"mcpServers":{}}\n'],
    ['judge.json', '{"to":null}\n'],
    ['notes.txt', 'scratch the agent left behind\n'],
  ] as const) {
    writeFileSync(join(ws, 'agents/front', name), body);
  }
  writeFileSync(join(dir, 'mcp_server.json'), JSON.stringify({ enabled: true, port: 39641, token: '0123456789abcdef0123456789abcdef' }), { mode: 0o600 });
  writeFileSync(join(dir, 'probe_approvals.json'), '{"approved":[]}\n');
  writeFileSync(join(dir, 'jev.json'), '{"enabled":false}\n');
  writeFileSync(join(dir, 'pricing.json'), '{}\n');
  writeFileSync(join(dir, 'serve.status.json'), '{"format":1}\n');
  // Eval results are run state on this machine; a fixture beside the cases is not a case file.
  mkdirSync(join(dir, 'eval-results'), { recursive: true });
  writeFileSync(join(dir, 'eval-results/20261204T000000000Z-aaaaaa.json'), '{"format":1}\n');
  writeFileSync(join(ws, 'evals/notes-fixture.txt'), 'fixture\n');
  return dir;
}
