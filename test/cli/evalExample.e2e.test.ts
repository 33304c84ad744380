/**
 * The example village's eval case, the first thing a new user runs: `init` writes it, it passes on the offline
 * demo model, and it fails (exit 10, naming the missing part of the answer) once the researcher's SKILL.md is
 * emptied — so the case really watches the design, not only that something answered. Built binary, no network.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliBudget, describeRun, runCli, useCliSuite } from './support/cliProcess.js';

const { temps } = useCliSuite();

describe('the example village ships an eval case (built binary, demo model)', () => {
  it('init writes it; it passes; emptied researcher SKILL.md makes it fail', async () => {
    const dir = join(temps.make(), 'village');
    const init = await runCli(['init', '--data-dir', dir]);
    expect(init.code, describeRun(init)).toBe(0);
    expect(existsSync(join(dir, 'workspace/evals/research-basics.json'))).toBe(true);

    const pass = await runCli(['eval', '-d', dir, '--start', 'batch', '--secrets', 'env', '--quiet']);
    expect(pass.code, describeRun(pass)).toBe(0);
    expect(pass.stdout).toMatch(/^research-basics\s+PASSED\s+2\/2/m);

    writeFileSync(join(dir, 'workspace/agents/researcher/SKILL.md'), '');
    const fail = await runCli(['eval', '-d', dir, '--start', 'batch', '--secrets', 'env', '--quiet']);
    expect(fail.code, describeRun(fail)).toBe(10);
    expect(fail.stdout).toMatch(/^research-basics\s+FAILED\s+0\/2/m);
    expect(fail.stdout).toContain('✗ contains "sourced bullet points" — not found in the answer');
  }, cliBudget(3));
});
