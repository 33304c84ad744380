/**
 * `ask` while `serve` holds the village (built binaries, loopback stub LLM): with serve's MCP door open the ask
 * goes through it — the same answer and the same exit code as a direct ask, and a stderr note saying so; with the
 * door off it exits 4 and says how to fix that. A request through the door runs serve's tools on serve's own scanning
 * pool: grep's match reaches the model.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, toolResultsOf } from '../support/stubLlm.js';
import { freePort, holdVillage, makeVillage, runCli, useCliSuite, useServeChild } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-test-0000000000' };
const TOKEN = '0123456789abcdef0123456789abcdef';

const serve = useServeChild();
const startServe = (dir: string): Promise<void> => serve.start(dir, KEY);

const ask = (dir: string, extra: string[] = []) => runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', ...extra, 'What is the answer?'], KEY);

describe('ask while serve holds the village', () => {
  it('through serve\'s open door: the same answer and exit code as a direct ask, with a stderr note; a --timeout through the door is 7, as direct', { timeout: 120_000 }, async () => {
    stub().respond(() => reply.text('The answer is 42.'));
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    writeFileSync(join(dir, 'mcp_server.json'), JSON.stringify({ enabled: true, port: await freePort(), token: TOKEN }));
    const direct = await ask(dir);
    expect(direct.code, direct.stderr).toBe(0);
    expect(direct.stdout).toBe('The answer is 42.\n');

    await startServe(dir);
    const viaDoor = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', 'What is the answer?'], { ...KEY, FUSEFORKS_BOOT_TRACE: '1' });
    expect(viaDoor.code, viaDoor.stderr).toBe(direct.code);
    expect(viaDoor.stdout).toBe(direct.stdout);
    expect(viaDoor.stderr).toContain('[VIA_DOOR]');
    // The held lock was seen before anything was spawned: no agent worker booted in this process for nothing.
    expect(viaDoor.stderr).toContain('early prewarm');
    expect(viaDoor.stderr.split('\n').filter((line) => /^boot-trace \S+ cpu=\S+ worker/.test(line))).toEqual([]);
    // serve's heartbeat said so before any spawn: not even the reception's worker was started.
    expect(viaDoor.stderr).not.toContain('prewarm spawn');
    const json = await ask(dir, ['--json', '--quiet']);
    expect(JSON.parse(json.stdout)).toMatchObject({ answer: 'The answer is 42.', outcome: 'answered', exitCode: 0 });
    expect(json.stderr).toBe('');

    stub().respond(() => reply.text('too late', { delayMs: 5_000 }));
    const late = await ask(dir, ['--timeout', '1']);
    expect(late.code, late.stderr).toBe(7);
    expect(late.stdout).toBe('');
  });

  it('through serve\'s door, the agent\'s grep runs in serve (its scanning pool) and the match reaches the model', { timeout: 120_000 }, async () => {
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }] });
    const work = join(dir, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'log.md'), 'Pilot boats: three.\n');
    const worldFile = join(dir, 'workspace/world.json');
    const world = JSON.parse(readFileSync(worldFile, 'utf8')) as { agents: Array<Record<string, unknown>> };
    world.agents[0]!['workDir'] = work;
    writeFileSync(worldFile, JSON.stringify(world));
    writeFileSync(join(dir, 'mcp_server.json'), JSON.stringify({ enabled: true, port: await freePort(), token: TOKEN }));
    stub().respond((r) => (toolResultsOf(r).length === 0 ? reply.tool('grep', { pattern: 'Pilot boats: (\\w+)' }) : reply.text(`grep said: ${toolResultsOf(r)[0]!.text}`)));
    await startServe(dir);
    const viaDoor = await ask(dir);
    expect(viaDoor.code, viaDoor.stderr).toBe(0);
    expect(viaDoor.stderr).toContain('[VIA_DOOR]');
    expect(viaDoor.stdout).toMatch(/^grep said: 1 matches in 1 files:\nlog\.md:1: Pilot boats: three\.$/m);
  });

  it('with serve\'s door off: exit 4, and the fix says to switch the door on', { timeout: 60_000 }, async () => {
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    await startServe(dir);
    const held = await ask(dir);
    expect(held.code).toBe(4);
    expect(held.stdout).toBe('');
    expect(held.stderr).toContain('[LOCK_HELD]');
    expect(held.stderr).toContain('door enable');
  });

  it('held by a process that keeps no heartbeat (as the GUI): exit 4; the one worker spawned before the lock probe never gets ready', { timeout: 60_000 }, async () => {
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    const holder = await holdVillage(dir);
    try {
      const held = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', 'hello'], { ...KEY, FUSEFORKS_BOOT_TRACE: '1' });
      expect(held.code, held.stderr).toBe(4);
      expect(held.stderr).toContain('[LOCK_HELD]');
      const marks = held.stderr.split('\n').filter((line) => line.startsWith('boot-trace '));
      expect(marks.some((line) => line.endsWith(' main early prewarm'))).toBe(true);
      // Only the reception's worker was spawned (before the probe), and stopped when the probe found the lock held.
      expect(marks.filter((line) => / main prewarm (spawn|discard)/.test(line)).map((line) => line.split(' ').slice(4).join(' '))).toEqual(['prewarm spawn', 'prewarm discard 1']);
      expect(marks.filter((line) => / ready /.test(line))).toEqual([]);
    } finally {
      await holder.release();
    }
  });
});
