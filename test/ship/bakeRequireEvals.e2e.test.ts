/**
 * `bake --require-evals` through the built binary on the example village: refused (exit 10, nothing written) before
 * any eval run, baked after a passing `eval` of the same design, refused again once the design changed (its digest
 * no longer has a passing run); a plain `bake` says the eval status either way.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliBudget, describeRun, exampleVillage, runCli, useCliSuite } from '../cli/support/cliProcess.js';

const suite = useCliSuite();

describe('bake --require-evals (built binary)', () => {
  it('refuses without a passing run of this design, bakes after one, refuses again after a change', async () => {
    const dir = exampleVillage(suite.temps);
    const first = join(suite.temps.make(), 'bake');
    const refused = await runCli(['bake', '--data-dir', dir, '--out', first, '--require-evals']);
    expect(refused.code, describeRun(refused)).toBe(10);
    expect(refused.stderr).toMatch(/error \[EVALS_REQUIRED\] Not baked: .*no eval run of this design \(sha256:[0-9a-f]{12}\) on this machine/);
    expect(existsSync(first)).toBe(false);

    const ran = await runCli(['eval', '-d', dir, '--start', 'batch', '--secrets', 'env', '--quiet']);
    expect(ran.code, describeRun(ran)).toBe(0);
    const baked = await runCli(['bake', '--data-dir', dir, '--out', first, '--require-evals']);
    expect(baked.code, describeRun(baked)).toBe(0);
    expect(baked.stderr).toMatch(/info \[EVAL_STATUS\] evals: all 1 case\(s\) passed on this design/);
    expect(existsSync(join(first, 'workspace/evals/research-basics.json'))).toBe(true);

    writeFileSync(join(dir, 'workspace/agents/researcher/SKILL.md'), '');
    const changed = await runCli(['bake', '--data-dir', dir, '--out', join(suite.temps.make(), 'b2'), '--require-evals']);
    expect(changed.code).toBe(10);
    expect(changed.stderr).toContain('no eval run of this design');
    const failedRun = await runCli(['eval', '-d', dir, '--start', 'batch', '--secrets', 'env', '--quiet']);
    expect(failedRun.code).toBe(10);
    const stillRefused = await runCli(['bake', '--data-dir', dir, '--out', join(suite.temps.make(), 'b3'), '--require-evals']);
    expect(stillRefused.code).toBe(10);
    expect(stillRefused.stderr).toMatch(/did not pass — not passed: research-basics/);
    const plain = await runCli(['bake', '--data-dir', dir, '--out', join(suite.temps.make(), 'b4')]);
    expect(plain.code, describeRun(plain)).toBe(0);
    expect(plain.stderr).toMatch(/warn \[EVAL_STATUS\] evals: the last run of this design .* did not pass/);
  }, cliBudget(7));
});
