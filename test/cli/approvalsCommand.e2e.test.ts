/**
 * `fuseforks-cli approvals …` and `agents list` (built binary). A loopback stub model makes an agent `run` a command
 * its run.json does not allow (through `ask`) → `approvals list` shows it → `approvals approve` writes run.json
 * byte for byte as HostApi.approvals.decide (the GUI dialog's path) from the same start → the next ask's run
 * executes it; `approvals reject` likewise → the next run gets the rejection text. Decisions refuse while another
 * process holds the village; list and agents list still answer.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import type { CommandDecision } from '../../src/core/tools/runApprovals.js';
import { buildHost } from '../../src/host/buildHost.js';
import { HostPaths } from '../../src/host/hostPaths.js';
import { reply, type StubRequest } from '../support/stubLlm.js';
import { cliBudget, describeRun, holdVillage, makeVillage, runCli, useCliSuite } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();

/** The tool result the model was just given, if the request carries one last. */
function toolResult(r: StubRequest): string | null {
  const messages = (r.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const last = messages.at(-1);
  return last?.role === 'tool' ? String(last.content) : null;
}

/** A village whose reception `ops` may use `run` in `work`; the stub asks to run `next`, then reports the result. */
function village(work: string, next: { current: string[] }): string {
  stub().respond((r) => {
    const result = toolResult(r);
    return result === null ? reply.tool('run', { command: next.current[0], args: next.current.slice(1), reason: 'needed for the task' }) : reply.text(`tool said: ${result}`);
  });
  const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'ops' }, { id: 'aide' }], credential: 'not_required' });
  const file = join(dir, 'workspace/world.json');
  const world = JSON.parse(readFileSync(file, 'utf8')) as { agents: Array<Record<string, unknown>> };
  Object.assign(world.agents[0]!, { enabledTools: ['run'], workDir: work, connectedAgents: ['aide'] });
  writeFileSync(file, JSON.stringify(world, null, 2));
  return dir;
}
const runJson = (dir: string): string => readFileSync(join(dir, 'workspace/agents/ops/run.json'), 'utf8');

async function ask(dir: string, text: string): Promise<string> {
  const run = await runCli(['ask', '-d', dir, '--start', 'reception', '-q', text]);
  expect(run.code, describeRun(run)).toBe(0);
  return run.stdout;
}

/** The CLI's decision on `dir` and HostApi's on a copy taken just before: run.json must come out the same. */
async function decideBoth(dir: string, args: string[], decision: CommandDecision): Promise<void> {
  const twin = temps.make();
  cpSync(dir, twin, { recursive: true });
  const cli = await runCli(['approvals', ...args, '-d', dir, '--json']);
  expect(cli.code, describeRun(cli)).toBe(0);
  const line = args.slice(2).join(' ');
  expect(JSON.parse(cli.stdout)).toEqual({ format: 1, agentId: 'ops', command: 'touch', args: [line.split(' ')[1]], line, decision });
  const host = await buildHost(new HostPaths(twin), { appVersion: 'test', secrets: 'env', secretStore: new MemorySecretStore(), runSchedules: false, openDoor: false, env: {} });
  try {
    expect(await host.approvals.decide('ops', { command: 'touch', args: [line.split(' ')[1]!] }, decision)).toBe('applied');
  } finally {
    await host.close();
  }
  expect(runJson(dir)).toBe(runJson(twin));
}

describe('approvals command (built binary)', () => {
  it('approve once lets the next run execute it; reject gives the next run the rejection; both as the GUI path writes them', { timeout: cliBudget(12) }, async () => {
    const work = temps.make('ff-approvals-work-');
    const next = { current: ['touch', 'approved.txt'] };
    const dir = village(work, next);
    expect(await ask(dir, 'please make the marker')).toContain('is not allowed yet');
    expect(existsSync(join(work, 'approved.txt'))).toBe(false);

    const list = await runCli(['approvals', 'list', '-d', dir, '--json']);
    expect(list.code, describeRun(list)).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ broken: [], requests: [{ agentId: 'ops', line: 'touch approved.txt', cwd: work, reason: 'needed for the task', count: 1 }] });
    const human = await runCli(['approvals', 'list', '-d', dir]);
    expect(human.stdout).toContain(`ops  "touch approved.txt" in ${work} — "needed for the task"  (asked 1×`);

    await decideBoth(dir, ['approve', 'ops', 'touch', 'approved.txt'], 'once');
    expect(JSON.parse(runJson(dir))).toMatchObject({ once: ['touch approved.txt'], pending: [] });
    expect(await ask(dir, 'try again')).toContain('exit: 0');
    expect(existsSync(join(work, 'approved.txt'))).toBe(true);

    next.current = ['touch', 'rejected.txt'];
    expect(await ask(dir, 'make the other file')).toContain('is not allowed yet');
    await decideBoth(dir, ['reject', 'ops', 'touch rejected.txt'], 'reject');
    expect(await ask(dir, 'make it anyway')).toContain('is rejected (the user rejected it');
    expect(existsSync(join(work, 'rejected.txt'))).toBe(false);

    const gone = await runCli(['approvals', 'approve', 'ops', 'touch rejected.txt', '-d', dir]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('error [INVALID_REQUEST] ops has no pending request to run "touch rejected.txt".');
  });

  it('a decision refuses while another process holds the village (run.json untouched); list and agents list answer', { timeout: cliBudget(5) }, async () => {
    const work = temps.make('ff-approvals-work-');
    const dir = village(work, { current: ['touch', 'held.txt'] });
    expect(await ask(dir, 'make it')).toContain('is not allowed yet');
    const before = runJson(dir);
    const agentsFree = await runCli(['agents', 'list', '-d', dir, '--json']);
    expect(JSON.parse(agentsFree.stdout)).toEqual({
      format: 1,
      held: false,
      statusFrom: 'host',
      agents: [
        { agentId: 'ops', name: 'OPS', status: 'idle', modelTemplateId: 'stub', roleId: null, groupId: null, reception: true, batchStart: true, planReview: false, connectedAgents: ['aide'] },
        { agentId: 'aide', name: 'AIDE', status: 'idle', modelTemplateId: 'stub', roleId: null, groupId: null, reception: false, batchStart: true, planReview: false, connectedAgents: [] },
      ],
    });
    const holder = await holdVillage(dir);
    try {
      const refused = await runCli(['approvals', 'approve', 'ops', 'touch held.txt', '-d', dir, '--scope', 'always']);
      expect(refused.code, describeRun(refused)).toBe(4);
      expect(refused.stderr).toContain('error [LOCK_HELD] approvals approve changes this village');
      expect(runJson(dir)).toBe(before);
      const list = await runCli(['approvals', 'list', '-d', dir, '--json']);
      expect(JSON.parse(list.stdout)).toMatchObject({ requests: [{ agentId: 'ops', line: 'touch held.txt' }] });
      // A heartbeat whose writer is no running serve (a fresh time, a dead pid) is not believed: unknown.
      const beat = { format: 1, pid: 2 ** 22 + 1, state: 'serving', since: new Date().toISOString(), updatedAt: new Date().toISOString(), agentsRunning: ['ops'], door: null, lastScheduleTick: null, lastError: null };
      writeFileSync(join(dir, 'serve.status.json'), JSON.stringify(beat));
      const agents = await runCli(['agents', 'list', '-d', dir]);
      expect(agents.code, describeRun(agents)).toBe(0);
      expect(agents.stdout).toContain('ops  "OPS"  unknown  model stub  [reception, batch] → aide');
      expect(agents.stdout).toContain('open in another process');
    } finally {
      await holder.release();
    }
  });
});
