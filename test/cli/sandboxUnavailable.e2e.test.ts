/**
 * SANDBOX_UNAVAILABLE through the built CLI on a host without bubblewrap (issue 27): the CLI is started inside a mount
 * namespace whose /usr/bin/bwrap is covered by /dev/null (not a program any more), so the runtime finds no sandbox.
 * `check` rejects an agent that may run commands (exit 3, naming the fix) before anything runs; `ask` on a village
 * past check would refuse the command with the code, never run it bare; `"sandbox": false` in run.json turns the
 * rejection into the loud SANDBOX_OFF warning.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, cliBudget, letAgentRun, makeVillage, REPO_BIN, ROOT, useCliSuite } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();

/** `fuseforks-cli …args` with bwrap hidden (itself started by the real bwrap, which is on this machine). */
function cliWithoutBwrap(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const hide = ['--dev-bind', '/', '/', '--ro-bind', '/dev/null', '/usr/bin/bwrap', '--', process.execPath, REPO_BIN, ...args];
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/bwrap', hide, { cwd: ROOT, env: cleanEnv({ FUSEFORKS_SECRET_STUB: 'sk-test' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function runnerVillage(runJson: Record<string, unknown>): { dir: string; work: string } {
  const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }], world: {} });
  const work = temps.make('ff-nobwrap-work-');
  letAgentRun(dir, 'desk', ['sh *'], work);
  writeFileSync(join(dir, 'workspace/agents/desk/run.json'), JSON.stringify({ allow: ['sh *'], ...runJson }));
  return { dir, work };
}

describe('no bubblewrap on the host', () => {
  it('check rejects an agent with run: SANDBOX_UNAVAILABLE, exit 3, the fix named', { timeout: cliBudget(1) }, async () => {
    const { dir } = runnerVillage({});
    const run = await cliWithoutBwrap(['check', '--for', 'ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', '--run-approval', 'auto-approve', '--json']);
    expect(run.code, run.stderr).toBe(3);
    const findings = (JSON.parse(run.stdout.trim()) as { findings: Array<{ level: string; code: string; message: string; fix: string }> }).findings;
    const found = findings.find((f) => f.code === 'SANDBOX_UNAVAILABLE');
    expect(found, run.stdout).toMatchObject({ level: 'reject' });
    expect(found?.message).toMatch(/bwrap is not installed/);
    expect(found?.fix).toMatch(/install bubblewrap/);
  });

  it('ask refuses before anything runs; the command is never started bare', { timeout: cliBudget(1) }, async () => {
    const { dir, work } = runnerVillage({});
    const run = await cliWithoutBwrap(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', '--run-approval', 'auto-approve', 'go']);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/SANDBOX_UNAVAILABLE/);
    expect(stub().count).toBe(0);
    expect(existsSync(join(work, 'out.txt'))).toBe(false);
  });

  it('"sandbox": false passes check with the loud SANDBOX_OFF warning', { timeout: cliBudget(1) }, async () => {
    const { dir } = runnerVillage({ sandbox: false });
    const run = await cliWithoutBwrap(['check', '--for', 'ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', '--run-approval', 'auto-approve', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const codes = (JSON.parse(run.stdout.trim()) as { findings: Array<{ level: string; code: string }> }).findings.map((f) => `${f.level}:${f.code}`);
    expect(codes).toContain('warn:SANDBOX_OFF');
    expect(codes).not.toContain('reject:SANDBOX_UNAVAILABLE');
  });
});
