/**
 * Error reasons are visible (issue 19): `check` reports every file it cannot use as a CONFIG_BROKEN finding that
 * names the file, what is wrong (the row, server or key) and the fix — a schedule row with a bad field, an mcp.json
 * entry of the wrong type, a broken run.json of a started agent with run, a broken shelf mcp_server.json (serve) —
 * and leaves every file byte-identical; `serve` on the same village logs the door's reason with file and fix on
 * stderr and in fuseforks.log instead of "‹182 chars›".
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliBudget, describeRun, logRecords, makeVillage, runCli, startCli, useCliSuite } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-test-0000000000' };

interface Finding {
  level: string;
  code: string;
  message: string;
  fix: string;
}

function brokenVillage(): { dir: string; files: Record<string, string> } {
  const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }] });
  const worldFile = join(dir, 'workspace/world.json');
  const world = JSON.parse(readFileSync(worldFile, 'utf8')) as { agents: Array<Record<string, unknown>> };
  world.agents[0]!['enabledTools'] = ['run'];
  writeFileSync(worldFile, JSON.stringify(world));
  mkdirSync(join(dir, 'workspace/agents/desk'), { recursive: true });
  const files: Record<string, string> = {
    [join(dir, 'workspace/schedules.json')]: JSON.stringify([
      { id: '11111111-1111-4111-8111-111111111111', to: 'desk', message: 'hi', recurrence: { kind: 'interval', everyMinutes: 5 }, enabled: true, createdAtMs: 0, lastConsumedDueMs: null },
      { id: '22222222-2222-4222-8222-222222222222', to: 'desk', message: 'hi', recurrence: { kind: 'hourly' }, enabled: true, createdAtMs: 0, lastConsumedDueMs: null },
    ]),
    [join(dir, 'workspace/mcp.json')]: JSON.stringify({ mcpServers: { files: { command: 'npx', args: '-y some-server' } } }),
    [join(dir, 'workspace/agents/desk/run.json')]: '{"allow": ["ls *"], ',
    [join(dir, 'mcp_server.json')]: JSON.stringify({ enabled: true, port: 'seventy', token: null }),
  };
  for (const [file, text] of Object.entries(files)) writeFileSync(file, text);
  return { dir, files };
}

describe('error reasons are visible', () => {
  it('check --for serve: one CONFIG_BROKEN finding per broken file, naming file, field and fix; every file untouched', { timeout: cliBudget(1) }, async () => {
    const { dir, files } = brokenVillage();
    const run = await runCli(['check', '--for', 'serve', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', '--json'], KEY);
    expect(run.code, describeRun(run)).toBe(0);
    const findings = (JSON.parse(run.stdout) as { findings: Finding[] }).findings.filter((f) => f.code === 'CONFIG_BROKEN');
    const about = (file: string): Finding | undefined => findings.find((f) => f.message.startsWith(`${file}:`));
    const [schedules, mcp, runJson, door] = Object.keys(files);
    expect(about(schedules!)?.message).toMatch(/row 2 \(22222222-2222-4222-8222-222222222222\): recurrence/);
    expect(about(mcp!)?.message).toMatch(/server "files": "args" must be an array of strings/);
    expect(about(mcp!)?.fix).toMatch(/"args": \[/);
    expect(about(runJson!)?.message).toMatch(/every run of desk is refused/);
    expect(about(door!)?.message).toMatch(/"port" must be an integer/);
    for (const f of findings) expect(f.level).toBe('warn');
    for (const [file, text] of Object.entries(files)) expect(readFileSync(file, 'utf8'), file).toBe(text);
  });

  it('serve: the door WARN names file, reason and fix on stderr and in the log (not a size marker)', { timeout: cliBudget(1) }, async () => {
    const { dir, files } = brokenVillage();
    const serve = startCli(['serve', '--data-dir', dir, '--start', 'batch', '--secrets', 'env'], KEY);
    await serve.stderrLine((l) => l.includes('SERVING'));
    serve.child.kill('SIGTERM');
    const run = await serve.done;
    expect(run.code, describeRun(run)).toBe(0);
    const doorFile = Object.keys(files)[3]!;
    expect(run.stderr).toMatch(new RegExp(`WARN door: .*file=${doorFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} reason=.*"port" must be an integer.* fix=`));
    expect(run.stderr).not.toMatch(/reason=‹\d+ chars›/);
    const door = logRecords(dir).find((r) => r.msg === 'door');
    expect(String(door?.reason)).toMatch(/"port" must be an integer/);
    const schedule = logRecords(dir).find((r) => r.msg === 'schedule' && r.dropped_row === 1);
    expect(String(schedule?.reason)).not.toMatch(/^‹/);
    for (const [file, text] of Object.entries(files)) expect(readFileSync(file, 'utf8'), file).toBe(text);
  });
});
