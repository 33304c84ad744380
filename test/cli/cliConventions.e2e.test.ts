/**
 * What a person types first (built binary): `-h`, `-v` and `version`; a mistyped command gets the nearest one as
 * its fix outside a terminal too; `serve --help` never offers `--start reception`, which serve refuses; `check`
 * exits 4 (never 0) while another process holds the village and the checked command would exit 4; `approvals
 * approve` names an id that is no agent; `init` from a clone prints a command that runs there; `ask`'s default
 * stderr carries no diagnostics (they are behind --verbose).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliBudget, cleanEnv, describeRun, exampleVillage, holdVillage, ROOT, runCli, useCliSuite } from './support/cliProcess.js';

const { temps } = useCliSuite();

/** Runs a shell command line in the repository root, as a person pastes it. */
function shell(line: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', line], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('CLI conventions (built binary)', () => {
  it('-h is help, -v and version print the version line', { timeout: cliBudget(3) }, async () => {
    const help = await runCli(['-h']);
    expect(help.code, describeRun(help)).toBe(0);
    expect(help.stdout).toContain('USAGE');
    const v = await runCli(['-v']);
    const version = await runCli(['version']);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^fuseforks-cli\/\S+ /);
    expect(version.stdout).toBe(v.stdout);
  });

  it('a mistyped command names the nearest one as the fix, outside a terminal; a far one gets none', { timeout: cliBudget(2) }, async () => {
    const near = await runCli(['agents', 'lsit', '-d', 'x']);
    expect(near.code).toBe(2);
    expect(near.stderr).toContain('Did you mean: fuseforks-cli agents list?');
    const far = await runCli(['xyzzy']);
    expect(far.code).toBe(2);
    expect(far.stderr).not.toContain('Did you mean');
  });

  it('serve --help does not offer --start reception; ask --help does', { timeout: cliBudget(2) }, async () => {
    expect((await runCli(['serve', '--help'])).stdout).not.toContain('reception');
    expect((await runCli(['ask', '--help'])).stdout).toContain('batch|reception|a,b,c');
  });

  it('check exits 4 while another process holds the village (door off), as serve and ask then would', { timeout: cliBudget(3) }, async () => {
    const dir = exampleVillage(temps);
    expect((await runCli(['check', '--for', 'ask', '-d', dir, '--start', 'batch'])).code).toBe(0);
    const holder = await holdVillage(dir);
    try {
      for (const target of ['ask', 'serve']) {
        const run = await runCli(['check', '--for', target, '-d', dir, '--start', 'batch']);
        expect(run.code, describeRun(run)).toBe(4);
        expect(run.stdout).toContain('VILLAGE_HELD');
        expect(run.stderr).toContain(`so ${target} would exit 4`);
      }
    } finally {
      await holder.release();
    }
  });

  it('approvals approve names an id that is no agent', { timeout: cliBudget(1) }, async () => {
    const dir = exampleVillage(temps);
    const run = await runCli(['approvals', 'approve', 'worker', 'make test', '-d', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('AGENT_NOT_FOUND');
    expect(run.stderr).toContain('"worker"');
  });

  it('init from a clone prints a command that runs there; ask\'s default stderr is quiet, --verbose shows the diagnostics', { timeout: cliBudget(4) }, async () => {
    const dir = `${temps.make()}/village`;
    // PATH without any fuseforks-cli: as in a fresh clone.
    const env = { PATH: `${process.execPath.replace(/\/node$/, '')}:/usr/bin:/bin` };
    const init = await shell(`node bin/run.js init -d ${dir}`, env);
    expect(init.code, init.stderr).toBe(0);
    const tried = /Try: (.*)$/m.exec(init.stderr)?.[1];
    expect(tried).toBe(`node bin/run.js ask --data-dir ${dir} --start batch "hello"`);
    const asked = await shell(tried!, env);
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toContain('Front Desk here.');
    expect(asked.stderr).toBe('');
    const verbose = await runCli(['ask', '-d', dir, '--start', 'batch', '--verbose', 'hello']);
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toContain('agent started');
  });
});
