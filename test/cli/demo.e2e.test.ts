/**
 * `npm run demo` (the built `dist/demo/runExample.js`, a child process) on a fresh copy of the example village:
 * offline, the front desk asks the researcher through its ask tool on real worker threads, the researcher answers,
 * the front desk answers the person, and the demo prints the path from the real session store. The example village
 * stays green under `check`, and `ask` with only the reception running answers without delegating.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliBudget, describeRun, logRecords, ROOT, runCli, useCliSuite, type CliRun } from './support/cliProcess.js';

const { temps } = useCliSuite();
const QUESTION = 'Find out what a village of agents is good for.';

function runDemo(dir: string): Promise<CliRun> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/demo/runExample.js'), dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

describe('npm run demo', () => {
  it('shows the front desk asking the researcher, the answer, and the path it took', async () => {
    const dir = join(temps.make(), 'demo');
    const run = await runDemo(dir);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toContain(`Created the example village in ${dir}`);
    expect(run.stdout).toContain(`Front Desk here. I asked Researcher about your request “${QUESTION}”:`);
    expect(run.stdout).toContain(`- Researcher: Researcher here (offline demo model). Asked “${QUESTION}” — my part in this village: Gather the facts`);
    // The path, read back from the session store: out, over to the researcher, back, and out again.
    const path = run.stdout.slice(run.stdout.indexOf('The path it took')).split('\n').slice(1).filter(Boolean);
    expect(path.map((l) => /^ {2}#\d+ (\S+ → \S+):/.exec(l)?.[1])).toEqual([
      'external:fuseforks-cli → front',
      'front → researcher',
      'researcher → front',
      'front → external:fuseforks-cli',
    ]);
    // Two agents took turns, each on its own worker; nothing echoed the prompt's framing.
    const turns = logRecords(dir).filter((r) => r.msg === 'turn start');
    expect(turns.map((r) => [r.agent, r.from])).toEqual([
      ['front', 'external:fuseforks-cli'],
      ['researcher', 'front'],
    ]);
    expect(run.stdout).not.toMatch(/\[echo\]|Arrivals and departures|【Sender/);

    // The example village stays green under check, and an ask with only the reception running answers directly.
    const check = await runCli(['check', '--for', 'ask', '-d', dir, '--start', 'batch']);
    expect(check.code, describeRun(check)).toBe(0);
    expect(check.stdout).toContain('0 reject');
    const alone = await runCli(['ask', '-d', dir, '--start', 'reception', '-q', 'hello from the front desk']);
    expect(alone.code, describeRun(alone)).toBe(0);
    expect(alone.stdout).toBe('Front Desk here (offline demo model). Asked “hello from the front desk” — my part in this village: Every outside request reaches you first. A real model would put its actual findings here.\n');
  }, cliBudget(3));
});
