/**
 * Every edit carries its base, on a real host (buildHost over a temp village; the echo model, no agent started): for
 * each document a design screen or a command edits, a change made from an older view than the one on disk is refused
 * with EDIT_CONFLICT naming the document (the file byte for byte as it was), the current view's base is accepted,
 * and no base at all is an unchecked overwrite. What agents and the ticker write on their own (run.json's requests, a
 * consumed due) does not make a person's form stale; a hand edit of world.json does.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScheduleStore } from '../../src/core/schedules/scheduleStore.js';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { notePending } from '../../src/core/tools/runPolicy.js';
import { updateRunPolicy } from '../../src/core/tools/runPolicyFile.js';
import { villagePaths } from '../../src/core/village/paths.js';
import { baseOf, baseAccepts, canonicalJson, revisionOf, type EditBase } from '../../src/core/village/revision.js';
import { buildHost } from '../../src/host/buildHost.js';
import type { HostApi } from '../../src/host/hostApi.js';
import { HostPaths } from '../../src/host/hostPaths.js';
import { agent, template, world } from '../actors/support/villageFixture.js';
import { codeOf, openCommands } from './support/openCommands.js';

let dir = '';
let host: HostApi | null = null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ff-edit-bases-'));
  const w = world([agent('front'), agent('helper')], { reception: 'front' });
  w.modelTemplates = [template({ provider: 'echo', baseUrl: '', model: 'echo' })];
  mkdirSync(join(dir, 'workspace'), { recursive: true });
  writeFileSync(join(dir, 'workspace/world.json'), JSON.stringify({ ...w, handKept: 'unknown keys survive' }));
});

afterEach(async () => {
  await host?.close();
  host = null;
  rmSync(dir, { recursive: true, force: true });
});

async function boot(): Promise<HostApi> {
  host = await buildHost(new HostPaths(dir), {
    appVersion: 'test', secrets: 'env', secretStore: new MemorySecretStore(), runSchedules: false, openDoor: false, env: {}, closeGraceMs: 5_000,
  });
  return host;
}

const disk = (rel: string): string => {
  try {
    return readFileSync(join(dir, rel), 'utf8');
  } catch {
    return '<missing>';
  }
};

/** A refused stale edit: EDIT_CONFLICT naming the document, and the file exactly as it was. */
async function refusedStale(edit: Promise<unknown>, doc: string, rel: string): Promise<void> {
  const before = disk(rel);
  await expect(edit).rejects.toMatchObject({ code: 'EDIT_CONFLICT', details: { doc, file: join(dir, rel) } });
  expect(disk(rel)).toBe(before);
}

describe('revisions (pure)', () => {
  it('name the document and its content; a base is one revision or every one a caller knows', () => {
    expect(revisionOf('a', 'x')).toBe(revisionOf('a', 'x'));
    expect(revisionOf('a', 'x')).not.toBe(revisionOf('a', 'y'));
    // Equal texts of two documents never stand in for each other.
    expect(revisionOf('workspace/agents/a/Memory.md', '')).not.toBe(revisionOf('workspace/agents/b/Memory.md', ''));
    expect(revisionOf('a', 'x')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const cases: Array<[EditBase | undefined, boolean]> = [[undefined, true], ['r1', true], ['r2', false], [['r0', 'r1'], true], [['r0'], false], [[], false]];
    for (const [base, ok] of cases) expect(baseAccepts(base, 'r1'), JSON.stringify(base)).toBe(ok);
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(canonicalJson({ a: { c: null, d: [2, { e: 0, f: 1 }] }, b: 1 }));
  });
});

describe('every edit carries its base', () => {
  it('world.json: a stale settings, agent or template edit is refused; the current base and no base are applied', async () => {
    const h = await boot();
    const old = h.village.state();
    const doc = 'workspace/world.json';
    expect(Object.keys(old.revisions)).toEqual([doc, 'workspace/schedules.json']);
    const next = await h.village.updateSettings({ userName: 'Ann' }, baseOf(old));
    expect(next.revisions[doc]).not.toBe(old.revisions[doc]);
    await refusedStale(h.village.updateSettings({ userName: 'Stale' }, baseOf(old)), doc, 'workspace/world.json');
    const front = old.world.agents.find((a) => a.id === 'front')!;
    await refusedStale(h.village.updateAgent('front', { ...front, name: 'Stale' }, baseOf(old)), doc, 'workspace/world.json');
    await refusedStale(h.village.upsertTemplate({ ...old.world.modelTemplates[0], name: 'Stale' }, baseOf(old)), doc, 'workspace/world.json');
    await refusedStale(h.village.setTies('front', [], baseOf(old)), doc, 'workspace/world.json');
    await refusedStale(h.village.setReception(null, baseOf(old)), doc, 'workspace/world.json');
    await refusedStale(h.village.upsertRole({ id: 'r', name: 'R' }, baseOf(old)), doc, 'workspace/world.json');
    // "Overwrite": the current revision (the refusal's details.current) is accepted.
    const current = await h.village.updateSettings({ userName: 'Stale' }, baseOf(old)).catch((e: { details: { current: string } }) => e.details.current);
    expect(current).toBe(next.revisions[doc]);
    await h.village.updateSettings({ userName: 'Bea' }, [...baseOf(old) as string[], current as string]);
    await h.village.updateSettings({ language: 'ja' });
    expect(JSON.parse(disk('workspace/world.json'))).toMatchObject({ userName: 'Bea', language: 'ja', handKept: 'unknown keys survive' });
  }, 30_000);

  it('world.json edited by hand meanwhile: the edit is refused, the host re-reads it, and the next edit keeps the hand edit', async () => {
    const h = await boot();
    const seen = h.village.state();
    const text = JSON.parse(disk('workspace/world.json')) as Record<string, unknown>;
    writeFileSync(join(dir, 'workspace/world.json'), `${JSON.stringify({ ...text, externalName: 'Typed by hand' }, null, 2)}\n`);
    await refusedStale(h.village.updateSettings({ userName: 'Ann' }, baseOf(seen)), 'workspace/world.json', 'workspace/world.json');
    const reread = h.village.state();
    expect(reread.world.externalName).toBe('Typed by hand');
    await h.village.updateSettings({ userName: 'Ann' }, baseOf(reread));
    expect(JSON.parse(disk('workspace/world.json'))).toMatchObject({ userName: 'Ann', externalName: 'Typed by hand' });
  }, 30_000);

  it('run.json: a revoked pattern is not brought back by a stale form; requests agents append do not make the form stale', async () => {
    const h = await boot();
    const doc = 'workspace/agents/front/run.json#policy';
    const tabA = h.approvals.readPolicy('front');
    const withSh = await h.approvals.writePolicy('front', { allow: ['ls *', 'sh *'], deny: [], timeoutSecs: 60 }, baseOf(tabA));
    const tabB = h.approvals.readPolicy('front');
    // The agent asks for a command meanwhile: run.json changes, the policy part does not.
    const paths = villagePaths(dir);
    await updateRunPolicy(paths.workspace, 'front', (p) => notePending(p, 'make', ['all'], Date.now()));
    await h.approvals.writePolicy('front', { allow: ['ls *'], deny: [], timeoutSecs: 60 }, baseOf(tabB));
    expect(JSON.parse(disk('workspace/agents/front/run.json'))).toMatchObject({ allow: ['ls *'], pending: [{ command: 'make', args: ['all'] }] });
    // Tab B saved the revoke; a tab still showing `sh *` (withSh) is refused.
    await refusedStale(h.approvals.writePolicy('front', { allow: ['ls *', 'sh *'], deny: [], timeoutSecs: 30 }, baseOf(withSh)), doc, 'workspace/agents/front/run.json');
    // The raw editor's base is the whole text: the agent's appended request makes it stale.
    const raw = await h.files.readAgentFile('front', 'run');
    await updateRunPolicy(paths.workspace, 'front', (p) => notePending(p, 'make', ['test'], Date.now()));
    await refusedStale(h.files.writeAgentFile('front', 'run', '{"allow": ["sh *"]}', baseOf(raw)), 'workspace/agents/front/run.json', 'workspace/agents/front/run.json');
  }, 30_000);

  it('mcp.json (shared and per agent), Ordinance, SKILL.md: a stale text is refused', async () => {
    const h = await boot();
    const shared = await h.village.readSharedMcp();
    await h.village.writeSharedMcp('{"mcpServers": {}}', baseOf(shared));
    await refusedStale(h.village.writeSharedMcp('{"mcpServers": {"x": {"command": "sh"}}}', baseOf(shared)), 'workspace/mcp.json', 'workspace/mcp.json');
    const own = await h.files.readAgentFile('helper', 'mcp');
    await h.files.writeAgentFile('helper', 'mcp', '{"mcpServers": {}}', baseOf(own));
    await refusedStale(h.files.writeAgentFile('helper', 'mcp', '{"mcpServers": {"x": {"command": "sh"}}}', baseOf(own)), 'workspace/agents/helper/mcp.json', 'workspace/agents/helper/mcp.json');
    const ordinance = await h.files.readOrdinance();
    await h.files.writeOrdinance('Be kind.', baseOf(ordinance));
    await refusedStale(h.files.writeOrdinance('Be quick.', baseOf(ordinance)), 'workspace/Ordinance.md', 'workspace/Ordinance.md');
  }, 30_000);

  it('schedules: a stale change is refused; a due the ticker consumes does not make a view stale', async () => {
    const paths = villagePaths(dir);
    const store = await ScheduleStore.open({ file: paths.schedules });
    const vc = await openCommands(paths, new MemorySecretStore(), { events: [], worlds: [], stopped: [], running: new Set() }, store);
    const doc = 'workspace/schedules.json';
    const added = await vc.addSchedule({ to: 'front', message: 'report', recurrence: { kind: 'interval', everyMinutes: 5 } }, baseOf(vc.state()));
    const id = added.schedules[0]!.id;
    await store.consume(id, Date.now());
    expect(vc.state().revisions[doc]).toBe(added.revisions[doc]);
    await vc.setScheduleEnabled(id, false, baseOf(added));
    await refusedStale(vc.setScheduleEnabled(id, true, baseOf(added)), doc, 'workspace/schedules.json');
    await refusedStale(vc.removeSchedule(id, baseOf(added)), doc, 'workspace/schedules.json');
    expect(await codeOf(vc.removeSchedule(id, baseOf(vc.state())))).toBe('ok');
  });

  it('door settings, jev.json, a judge and the price-table source: a stale change is refused', async () => {
    const h = await boot();
    const door = await h.door.status();
    await h.door.setPort(40123, baseOf(door));
    await refusedStale(h.door.setEnabled(true, baseOf(door)), 'mcp_server.json', 'mcp_server.json');
    // Rotating the token is its own action: it does not make the settings stale.
    const moved = await h.door.status();
    await h.door.rotateToken();
    expect((await h.door.setEnabled(false, baseOf(moved))).port).toBe(40123);

    const jev = await h.jev.view();
    await h.jev.save({ ...jev.settings, model: 'helper-1' }, baseOf(jev));
    await refusedStale(h.jev.save({ ...jev.settings, model: 'stale' }, baseOf(jev)), 'jev.json', 'jev.json');
    const judges = await h.jev.view();
    await h.jev.setJudge('front', true, 'helper', baseOf(judges));
    await refusedStale(h.jev.setJudge('front', false, 'helper', baseOf(judges)), 'workspace/agents/front/judge.json', 'workspace/agents/front/judge.json');

    const source = await h.pricing.source();
    await h.pricing.setSource('https://prices.example/table.json', baseOf(source));
    await refusedStale(h.pricing.setSource(null, baseOf(source)), 'pricing.json', 'pricing.json');
  }, 30_000);
});
