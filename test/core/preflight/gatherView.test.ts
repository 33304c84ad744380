/**
 * gatherView on real files in a temp data dir: what it reads, what it asks the secret store, and that it writes
 * nothing (no village_id, no approvals file, no lock).
 */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { commandExists } from '../../../src/core/preflight/commandExists.js';
import { gatherView, type GatherOptions } from '../../../src/core/preflight/gatherView.js';
import { headlessPreflight } from '../../../src/core/preflight/headlessPreflight.js';
import { probeKey } from '../../../src/core/schedules/probeApprovals.js';
import { MemorySecretStore } from '../../../src/core/secrets/secretStore.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/cli/village-basic', import.meta.url));
const VILLAGE_ID = '3f1c2b7e-8a4d-4c2e-9b1f-0a2b3c4d5e6f';
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ff-gather-'));
  temps.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

/** A store that records which keys were asked about. */
class SpyStore extends MemorySecretStore {
  readonly asked: string[] = [];
  override has(key: string): boolean {
    this.asked.push(key);
    return super.has(key);
  }
}

function options(dir: string, extra: Partial<GatherOptions> = {}): GatherOptions {
  return { dataDir: dir, mode: 'serve', start: 'batch', secrets: 'keyring', bypassPlanReview: false, runApproval: 'auto-approve', store: new SpyStore(), ...extra };
}

const probe = { command: 'check-feed', args: ['--quick'], expect: 'go', timeoutSecs: 60, cwd: null };
/** A schedules.json row; ids must be uuids (the store drops other rows). */
const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const row = (id: number, to: string, withProbe: boolean) => ({
  id: uuid(id), to, message: 'hello', recurrence: { kind: 'interval', everyMinutes: 10 }, createdAtMs: 0, lastConsumedDueMs: null, enabled: true,
  ...(withProbe ? { probe } : {}),
});

describe('gatherView', () => {
  it('asks the store only about keys preflight needs, and writes nothing', async () => {
    const dir = dataDir();
    const store = new SpyStore();
    const before = readdirSync(join(dir, 'workspace')).sort();
    const gathered = await gatherView(options(dir, { store }));
    expect(gathered.ok).toBe(true);
    // luna uses the keyring template; zari uses echo (no key); luna declares a judge → the Jev token.
    expect(store.asked.sort()).toEqual(['gpt-sol', 'jev_api_token']);
    expect(readdirSync(join(dir, 'workspace')).sort()).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(['workspace']);
  });

  it('collects judge targets (all agents) and judges of started agents', async () => {
    const gathered = await gatherView(options(dataDir(), { mode: 'ask', start: 'reception' }));
    if (!gathered.ok) throw new Error('expected ok');
    expect([...gathered.view.judgeTargets]).toEqual(['judge']);
    expect(gathered.view.judgeAgents).toEqual(['luna']);
    expect(gathered.view.jevNeeded).toBe(true);
  });

  it('jev.json "enabled": false turns the Jev need off; "pruning": true alone turns it on', async () => {
    const off = dataDir();
    writeFileSync(join(off, 'jev.json'), '{"enabled": false, "pruning": true}');
    const a = await gatherView(options(off));
    expect(a.ok && a.view.jevNeeded).toBe(false);
    const on = dataDir();
    rmSync(join(on, 'workspace/agents/luna/judge.json'));
    writeFileSync(join(on, 'jev.json'), '{"pruning": {"enabled": true}}');
    const b = await gatherView(options(on));
    expect(b.ok && [b.view.jevNeeded, b.view.compressionOn]).toEqual([true, true]);
  });

  it('reads shared and started agents\' mcp.json, and approvals bound to village_id', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'workspace/mcp.json'), JSON.stringify({ mcpServers: { files: { command: '/no/such/bin' }, web: { url: 'http://x', enabled: false } } }));
    mkdirSync(join(dir, 'workspace/agents/zari'), { recursive: true });
    writeFileSync(join(dir, 'workspace/agents/zari/mcp.json'), JSON.stringify({ mcpServers: { own: { command: 'node', enabled: true } } }));
    writeFileSync(join(dir, 'workspace/village_id'), VILLAGE_ID);
    writeFileSync(join(dir, 'workspace/schedules.json'), JSON.stringify([row(1, 'zari', true), row(2, 'zari', true)]));
    writeFileSync(join(dir, 'probe_approvals.json'), JSON.stringify({ hashes: [probeKey(probe, VILLAGE_ID)] }));
    const gathered = await gatherView(options(dir));
    if (!gathered.ok) throw new Error('expected ok');
    expect(gathered.view.mcpServers.map((s) => [s.name, s.agentId, s.transport, s.enabled])).toEqual([
      ['files', null, 'stdio', true],
      ['web', null, 'http', false],
      ['own', 'zari', 'stdio', true],
    ]);
    const [first] = gathered.schedules;
    expect(gathered.view.probeApproved(first!)).toBe(true);
    const codes = headlessPreflight(gathered.world, gathered.schedules, gathered.view).map((f) => f.code);
    expect(codes).toContain('MCP_COMMAND_NOT_FOUND');
    expect(codes).not.toContain('PROBE_UNAPPROVED');
  });

  it('without village_id every probe is unapproved (and the id is not created)', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'workspace/schedules.json'), JSON.stringify([row(3, 'zari', true)]));
    writeFileSync(join(dir, 'probe_approvals.json'), JSON.stringify({ hashes: [probeKey(probe, VILLAGE_ID)] }));
    const gathered = await gatherView(options(dir));
    if (!gathered.ok) throw new Error('expected ok');
    expect(gathered.view.probeApproved(gathered.schedules[0]!)).toBe(false);
    expect(readdirSync(join(dir, 'workspace'))).not.toContain('village_id');
  });

  it('reports an unreadable schedules.json as a problem with its position, and reads no schedules', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'workspace/schedules.json'), '[\n  {"id": }\n]');
    const gathered = await gatherView(options(dir));
    if (!gathered.ok) throw new Error('expected ok');
    expect(gathered.schedules).toEqual([]);
    expect(gathered.problems).toHaveLength(1);
    expect(gathered.problems[0]?.reason).toMatch(/line 2/);
  });

  it('returns a bad --start as an argument error naming the flag', async () => {
    const gathered = await gatherView(options(dataDir(), { start: 'ghost' }));
    expect(gathered.ok).toBe(false);
    expect(!gathered.ok && gathered.argument.flag).toBe('--start');
  });

  it('names the env variable for fixes under --secrets env', async () => {
    const gathered = await gatherView(options(dataDir(), { secrets: 'env', env: {}, store: undefined }));
    expect(gathered.ok && gathered.view.secretEnvName?.('gpt-sol')).toBe('FUSEFORKS_SECRET_GPT_SOL');
  });
});

describe('commandExists', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ff-cmd-'));
  temps.push(dir);
  const tool = join(dir, 'my-tool');
  writeFileSync(tool, '#!/bin/sh\n');
  chmodSync(tool, 0o755);
  const plain = join(dir, 'not-exec');
  writeFileSync(plain, 'x');

  it.each([
    [tool, {}, true],
    [join(dir, 'absent'), {}, false],
    [dir, {}, false],
    ['my-tool', { PATH: dir }, true],
    ['my-tool', { PATH: '/nonexistent' }, false],
    ['not-exec', { PATH: dir }, false],
    ['', { PATH: dir }, false],
  ])('%s with %j → %s', (command, env, expected) => {
    expect(commandExists(command, env, 'linux')).toBe(expected);
  });
});
