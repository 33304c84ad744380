/**
 * `bake` and `seed` end to end on the built binary: a bake carries the design and nothing else (the file list is
 * compared whole), names what the container needs, refuses a village serve would refuse, and never overwrites;
 * `seed` lays a bake into an empty data dir only, and `--update-design` replaces the design but keeps run state.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeVillage, runCli, startCli, useCliSuite } from '../cli/support/cliProcess.js';
import { listFiles, villageThatRan } from './support.js';

const suite = useCliSuite();

/** The design of `villageThatRan`: exactly these files travel. */
const DESIGN = [
  'bake.json',
  'workspace/Ordinance.md',
  'workspace/agents/archivist/SKILL.md',
  'workspace/agents/front/Construct.md',
  'workspace/agents/front/Memory.md',
  'workspace/agents/front/SKILL.md',
  'workspace/agents/front/judge.json',
  'workspace/agents/front/mcp.json',
  'workspace/agents/front/run.json',
  'workspace/agents/researcher/SKILL.md',
  'workspace/agents/reviewer/SKILL.md',
  'workspace/agents/writer/SKILL.md',
  // eval cases are design (the example village ships one); their results and fixtures are not
  'workspace/evals/research-basics.json',
  'workspace/mcp.json',
  'workspace/schedules.json',
  'workspace/village_id',
  'workspace/world.json',
];

describe('bake (built binary)', () => {
  it('copies the design only: no sessions, log, exports, lock, status or shelf; names the commands the container needs', async () => {
    const dir = await villageThatRan(suite.temps);
    const source = listFiles(dir);
    // The run state really is there to be left out.
    expect(source).toEqual(expect.arrayContaining(['workspace/sessions.mdb', 'workspace/fuseforks.log', 'workspace/.fuseforks.lock', 'workspace/exports/s1.jsonl', 'mcp_server.json', 'serve.status.json', 'eval-results/20261204T000000000Z-aaaaaa.json', 'workspace/evals/notes-fixture.txt']));
    const out = join(suite.temps.make(), 'bake');
    const run = await runCli(['bake', '--data-dir', dir, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(listFiles(out)).toEqual(DESIGN);
    expect(readFileSync(join(out, 'workspace/world.json'), 'utf8')).toBe(readFileSync(join(dir, 'workspace/world.json'), 'utf8'));
    expect(run.stdout).toContain('mcp-files (shared server "files")');
    expect(run.stdout).toContain('no FUSEFORKS_SECRET_* variable');
    const manifest = JSON.parse(readFileSync(join(out, 'bake.json'), 'utf8')) as { villageId: string; files: string[]; shelf: string[] };
    expect(manifest.villageId).toBe('0b7c2d2e-4c47-4d52-9a1c-5a8f0e4a9d11');
    expect(manifest.shelf).toEqual([]);
  });

  it('--with-shelf adds exactly the named shelf files (mode kept); an unknown name is an argument error', async () => {
    const dir = await villageThatRan(suite.temps);
    const out = join(suite.temps.make(), 'bake');
    const run = await runCli(['bake', '--data-dir', dir, '--out', out, '--with-shelf', 'probe_approvals.json,mcp_server.json']);
    expect(run.code, run.stderr).toBe(0);
    expect(listFiles(out)).toEqual([...DESIGN, 'mcp_server.json', 'probe_approvals.json'].sort());
    expect(statSync(join(out, 'mcp_server.json')).mode & 0o777).toBe(0o600);
    const bad = await runCli(['bake', '--data-dir', dir, '--out', join(suite.temps.make(), 'b2'), '--with-shelf', 'sessions.mdb']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"sessions.mdb" is not a shelf file');
  });

  it('names the FUSEFORKS_SECRET_* variables a keyed template needs, without asking this machine for them', async () => {
    const dir = makeVillage(suite.temps, { baseUrl: 'http://127.0.0.1:9/v1' });
    const out = join(suite.temps.make(), 'bake');
    const run = await runCli(['bake', '--data-dir', dir, '--out', out, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const manifest = JSON.parse(run.stdout) as { secrets: string[]; start: { ids: string[] } };
    expect(manifest.secrets).toEqual(['FUSEFORKS_SECRET_STUB']);
    expect(manifest.start.ids).toEqual(['desk', 'helper']);
  });

  it('refuses a village serve would refuse (plan review on): exit 3, nothing written', async () => {
    const dir = makeVillage(suite.temps, { baseUrl: 'http://127.0.0.1:9/v1', credential: 'not_required' });
    const file = join(dir, 'workspace/world.json');
    const world = JSON.parse(readFileSync(file, 'utf8')) as { agents: Array<Record<string, unknown>> };
    world.agents[0]!.planReview = true;
    writeFileSync(file, JSON.stringify(world));
    const parent = suite.temps.make();
    const run = await runCli(['bake', '--data-dir', dir, '--out', join(parent, 'bake')]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('PLAN_REVIEW_ON');
    expect(listFiles(parent)).toEqual([]);
    const bypass = await runCli(['bake', '--data-dir', dir, '--out', join(parent, 'bake'), '--bypass-plan-review']);
    expect(bypass.code, bypass.stderr).toBe(0);
    expect(bypass.stdout).toContain('--start batch --bypass-plan-review');
  });

  it('never overwrites: a non-empty --out is an argument error and keeps its files', async () => {
    const dir = await villageThatRan(suite.temps);
    const out = suite.temps.make();
    writeFileSync(join(out, 'keep.txt'), 'mine');
    const run = await runCli(['bake', '--data-dir', dir, '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('BAKE_INVALID');
    expect(listFiles(out)).toEqual(['keep.txt']);
  });
});

describe('seed (built binary)', () => {
  async function bakeOf(dir: string): Promise<string> {
    const out = join(suite.temps.make(), 'bake');
    const run = await runCli(['bake', '--data-dir', dir, '--out', out]);
    if (run.code !== 0) throw new Error(run.stderr);
    return out;
  }

  it('seeds an empty data dir; a second seed changes nothing; the seeded village answers', async () => {
    const bake = await bakeOf(await villageThatRan(suite.temps));
    const data = join(suite.temps.make(), 'data');
    const first = await runCli(['seed', '--from', bake, '--data-dir', data]);
    expect(first.code, first.stderr).toBe(0);
    expect(listFiles(data)).toEqual([...DESIGN.filter((f) => f !== 'bake.json'), 'workspace/.fuseforks.lock'].sort());
    writeFileSync(join(data, 'workspace/Ordinance.md'), 'changed in the container\n');
    const again = await runCli(['seed', '--from', bake, '--data-dir', data]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('SEED_KEPT');
    expect(readFileSync(join(data, 'workspace/Ordinance.md'), 'utf8')).toBe('changed in the container\n');
    const ask = await runCli(['ask', '--data-dir', data, '--start', 'reception', 'hi']);
    expect(ask.code, ask.stderr).toBe(0);
  });

  it('--update-design replaces the design, keeps sessions, log, shelf and the Memory.md agents wrote to, drops removed design', async () => {
    const source = await villageThatRan(suite.temps);
    const data = join(suite.temps.make(), 'data');
    expect((await runCli(['seed', '--from', await bakeOf(source), '--data-dir', data])).code).toBe(0);
    expect((await runCli(['ask', '--data-dir', data, '--start', 'reception', 'first'])).code).toBe(0);
    writeFileSync(join(data, 'workspace/agents/front/Memory.md'), '- learned in the container\n');
    writeFileSync(join(data, 'jev.json'), '{"enabled":false}\n');
    const sessionsBefore = readFileSync(join(data, 'workspace/sessions.mdb'));
    // The design changes at home: a new Ordinance, and the shared MCP file is gone.
    writeFileSync(join(source, 'workspace/Ordinance.md'), 'new rules\n');
    writeFileSync(join(source, 'workspace/agents/front/Memory.md'), '- baked memory\n');
    rmSync(join(source, 'workspace/mcp.json'));
    const update = await runCli(['seed', '--from', await bakeOf(source), '--data-dir', data, '--update-design']);
    expect(update.code, update.stderr).toBe(0);
    expect(readFileSync(join(data, 'workspace/Ordinance.md'), 'utf8')).toBe('new rules\n');
    expect(existsSync(join(data, 'workspace/mcp.json'))).toBe(false);
    expect(readFileSync(join(data, 'workspace/agents/front/Memory.md'), 'utf8')).toBe('- learned in the container\n');
    expect(readFileSync(join(data, 'workspace/sessions.mdb')).equals(sessionsBefore)).toBe(true);
    expect(existsSync(join(data, 'workspace/fuseforks.log'))).toBe(true);
    expect(existsSync(join(data, 'jev.json'))).toBe(true);
    const replace = await runCli(['seed', '--from', await bakeOf(source), '--data-dir', data, '--update-design', '--replace-memory']);
    expect(replace.code).toBe(0);
    expect(readFileSync(join(data, 'workspace/agents/front/Memory.md'), 'utf8')).toBe('- baked memory\n');
  });

  it('refuses another village\'s design (5), a folder that is not a bake (2), and a village in use (4)', async () => {
    const bake = await bakeOf(await villageThatRan(suite.temps));
    const data = join(suite.temps.make(), 'data');
    expect((await runCli(['seed', '--from', bake, '--data-dir', data])).code).toBe(0);
    writeFileSync(join(data, 'workspace/village_id'), '11111111-2222-4333-8444-555555555555\n');
    const other = await runCli(['seed', '--from', bake, '--data-dir', data, '--update-design']);
    expect(other.code).toBe(5);
    expect(other.stderr).toContain('BAKE_VILLAGE_MISMATCH');
    const notBake = await runCli(['seed', '--from', suite.temps.make(), '--data-dir', data]);
    expect(notBake.code).toBe(2);
    expect(notBake.stderr).toContain('is not a bake');
    const serve = startCli(['serve', '--data-dir', data, '--start', 'batch']);
    await serve.stderrLine((line) => line.includes('[SERVING]'));
    const busy = await runCli(['seed', '--from', bake, '--data-dir', data, '--update-design']);
    serve.child.kill('SIGTERM');
    expect((await serve.done).code).toBe(0);
    expect(busy.code).toBe(4);
    expect(busy.stderr).toContain('LOCK_HELD');
  });
});
