/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, run with Node ≥ 22) against the runtime's
 * own MCP client from the build (test/support/conformanceClient.mjs: McpLoopbackLogin + McpConnection): the client
 * auth suite and the initialize, tools_call, sse-retry and elicitation scenarios; every check must pass.
 * The suite needs Node 22 (FUSEFORKS_NODE22) and the package installed at FUSEFORKS_CONFORMANCE_DIR (`.ci/run` fetches
 * both); without either the test is skipped and
 * says why. The package is not a devDependency: it requires Node ≥ 22 and this project installs with engine-strict.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireDist, ROOT } from '../cli/support/cliProcess.js';

const node22 = process.env.FUSEFORKS_NODE22 ?? '';
const packageDir = process.env.FUSEFORKS_CONFORMANCE_DIR ?? '';
const entry = join(packageDir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const why = node22 === '' || !existsSync(node22)
  ? `no Node 22 (set FUSEFORKS_NODE22 to a Node 22 binary, as .ci/run does)`
  : packageDir === '' || !existsSync(entry)
    ? 'the conformance package is not installed (set FUSEFORKS_CONFORMANCE_DIR to a prefix holding @modelcontextprotocol/conformance, as .ci/run does)'
    : null;

const results = mkdtempSync(join(tmpdir(), 'ff-conformance-'));
afterAll(() => rmSync(results, { recursive: true, force: true }));

interface Check {
  id: string;
  status: string;
}

/** Runs the suite's CLI once; resolves with every check of every scenario it wrote under `out`. */
function runSuite(args: string[], out: string): Promise<{ code: number | null; checks: Check[]; stderr: string }> {
  const command = `${process.execPath} ${join(ROOT, 'test/support/conformanceClient.mjs')}`;
  const child = spawn(node22, [entry, 'client', '--command', command, ...args, '--output-dir', out], { cwd: results, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-20_000)));
  child.stdout.resume();
  const killer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(killer);
      const checks: Check[] = [];
      const walk = (dir: string): void => {
        for (const name of readdirSync(dir)) {
          const path = join(dir, name);
          if (statSync(path).isDirectory()) walk(path);
          else if (name === 'checks.json') checks.push(...(JSON.parse(readFileSync(path, 'utf8')) as Check[]));
        }
      };
      if (existsSync(out)) walk(out);
      resolve({ code, checks, stderr });
    });
  });
}

const counted = (checks: Check[]): { passed: number; failed: string[] } => ({
  passed: checks.filter((c) => c.status === 'SUCCESS').length,
  failed: checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => `${c.id}: ${c.status}`),
});

describe.skipIf(why !== null)(`MCP conformance suite against the runtime's client${why === null ? '' : ` (skipped: ${why})`}`, () => {
  it('passes every check of the client auth suite (14 scenarios)', async () => {
    requireDist();
    const run = await runSuite(['--suite', 'auth'], join(results, 'auth'));
    const { passed, failed } = counted(run.checks);
    expect(failed, run.stderr).toEqual([]);
    expect(passed, run.stderr).toBeGreaterThanOrEqual(200);
    expect(run.code, run.stderr).toBe(0);
  }, 300_000);

  it.each(['initialize', 'tools_call', 'sse-retry', 'elicitation-sep1034-client-defaults'])('passes every check of %s', async (scenario) => {
    requireDist();
    const run = await runSuite(['--scenario', scenario], join(results, scenario));
    const { passed, failed } = counted(run.checks);
    expect(failed, run.stderr).toEqual([]);
    expect(passed, run.stderr).toBeGreaterThan(0);
    expect(run.code, run.stderr).toBe(0);
  }, 300_000);
});
