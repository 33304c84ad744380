/**
 * The client manager against real MCP servers written with the SDK: a stdio child (fixture) and a Streamable
 * HTTP server on 127.0.0.1. Real files in a temp data dir; children are killed and the dir removed afterwards.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryDiagSink } from '../../../src/core/diag.js';
import { villagePaths, type VillagePaths } from '../../../src/core/village/paths.js';
import { McpClientManager } from '../../../src/host/mcp/mcpClientManager.js';
import { CHILD_ENV_ALLOWLIST_POSIX } from '../../../src/host/mcp/mcpChildEnv.js';
// @ts-expect-error plain .mjs fixture without types
import { startHttpMcpServer } from '../../fixtures/mcp/httpServer.mjs';
import { pollUntil } from '../../support/pollUntil.js';

const STDIO = resolve(import.meta.dirname, '../../fixtures/mcp/stdioServer.mjs');
const stdio = (...args: string[]): Record<string, unknown> => ({ command: process.execPath, args: [STDIO, ...args] });

async function until(check: () => boolean, what: string): Promise<void> {
  if (!(await pollUntil(check, { everyMs: 25 }))) throw new Error(`never happened: ${what}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('McpClientManager (real stdio + HTTP servers)', () => {
  let dir = '';
  let paths: VillagePaths;
  let http: { url: string; close(): Promise<void> };
  let manager: McpClientManager;
  const diag = new MemoryDiagSink();
  const jsonl: string[] = [];
  const signal = new AbortController().signal;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ff-mcpmgr-'));
    paths = villagePaths(dir);
    http = (await startHttpMcpServer({ label: 'own' })) as typeof http;
    await mkdir(paths.agent('a1').dir, { recursive: true });
    await mkdir(paths.agent('a2').dir, { recursive: true });
    await writeFile(paths.mcp, JSON.stringify({
      mcpServers: {
        calc: { ...stdio('--label', 'shared', '--stderr-hello'), env: { FIXTURE_VAR: 'set-by-config' } },
        missing: { command: join(dir, 'no-such-binary') },
        off: { ...stdio(), enabled: false },
      },
    }));
    await writeFile(paths.agentFile('a1', 'mcp'), JSON.stringify({ mcpServers: { calc: { url: http.url } } }));
    await writeFile(paths.agentFile('a2', 'mcp'), '{"mcpServers": {"x": ');
    manager = new McpClientManager({
      paths,
      diag,
      jsonlStderr: (line) => jsonl.push(line),
      parentEnv: { ...process.env, FUSEFORKS_SECRET_TEST_KEY: 'do-not-leak' },
    });
  });

  afterAll(async () => {
    await manager?.closeAll();
    await http?.close();
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  it('connects the shared servers; a failing and a disabled server are statuses, not failures', async () => {
    const report = await manager.connectShared();
    expect(report.loadError).toBeNull();
    const byName = Object.fromEntries(report.statuses.map((s) => [s.name, s]));
    expect(byName.calc).toMatchObject({ connected: true, agentId: null });
    expect(byName.calc?.tools).toContain('calc__add');
    expect(byName.calc?.tools).toContain('calc__echo');
    expect(byName.missing).toMatchObject({ connected: false, tools: [] });
    expect(byName.missing?.error).toMatch(/missing/);
    expect(byName.off).toMatchObject({ connected: false, error: 'disabled' });
    expect(diag.notes.some((n) => n.kind === 'mcp connect failed' && n.fields.server === 'missing')).toBe(true);
  });

  it('presents specs as {server}__{tool} with a [server] description and no reason', () => {
    const specs = manager.toolSpecsFor('nobody');
    const add = specs.find((s) => s.name === 'calc__add');
    expect(add?.description).toBe('[calc] Adds two numbers');
    expect(add?.parameters).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } });
    expect(JSON.stringify(specs)).not.toContain('"reason"');
    const long = specs.find((s) => s.name.endsWith('sixty_four_chars'));
    expect(long?.name).toHaveLength(64);
  });

  it('calls tools and renders the results', async () => {
    expect(await manager.callTool('nobody', 'calc__add', { a: 2, b: 40 }, signal)).toEqual({ body: 'shared:42', ok: true });
    expect(await manager.callTool('nobody', 'calc__echo', { text: 'hi' }, signal)).toEqual({ body: 'echo: hi', ok: true });
    expect(await manager.callTool('nobody', 'calc__fails', {}, signal)).toEqual({ body: 'The tool returned an error: no luck', ok: false });
    expect((await manager.callTool('nobody', 'calc__picture', {}, signal)).body).toBe('a dot\n[image image/png]');
    expect((await manager.callTool('nobody', 'calc__nothing', {}, signal)).body).toBe('(empty result)');
    const bad = await manager.callTool('nobody', 'calc__add', { a: 'x' }, signal);
    expect(bad.ok).toBe(false);
    await expect(manager.callTool('nobody', 'nope__tool', {}, signal)).rejects.toMatchObject({ code: 'MCP_FAILED' });
  });

  it('gives the child only the allowlist plus the config env (never FUSEFORKS_SECRET_*)', async () => {
    const names = (await manager.callTool('nobody', 'calc__env_names', {}, signal)).body.split(',');
    expect(names).toContain('FIXTURE_VAR');
    expect(names.some((n) => n.startsWith('FUSEFORKS_SECRET_'))).toBe(false);
    const allowed = new Set([...CHILD_ENV_ALLOWLIST_POSIX, 'FIXTURE_VAR']);
    // Node itself may add nothing; anything outside the allowlist would be a leak.
    expect(names.filter((n) => n !== '' && !allowed.has(n))).toEqual([]);
  });

  it('per-agent servers: own tool wins on a name clash, never reaches other agents, broken file = load error', async () => {
    const a1 = await manager.openAgent('a1');
    expect(a1.loadError).toBeNull();
    expect(a1.statuses).toEqual([{ name: 'calc', agentId: 'a1', connected: true, tools: ['calc__add', 'calc__echo'] }]);
    const names = manager.toolSpecsFor('a1').map((s) => s.name);
    expect(names.filter((n) => n === 'calc__add')).toHaveLength(1);
    expect(names).toContain('calc__env_names'); // shared tools without a clash stay
    expect(await manager.callTool('a1', 'calc__add', { a: 2, b: 40 }, signal)).toEqual({ body: 'own:42', ok: true });
    expect(await manager.callTool('a3', 'calc__add', { a: 2, b: 40 }, signal)).toEqual({ body: 'shared:42', ok: true });

    const a2 = await manager.openAgent('a2');
    expect(a2.loadError).toMatch(/agents\/a2\/mcp\.json: not valid JSON at line 1/);
    expect(a2.statuses).toEqual([]);
    expect(manager.toolSpecsFor('a2').map((s) => s.name)).toEqual(manager.toolSpecsFor('nobody').map((s) => s.name));

    await manager.closeAgent('a1');
    expect(await manager.callTool('a1', 'calc__add', { a: 1, b: 1 }, signal)).toEqual({ body: 'shared:2', ok: true });
  });

  it('wraps child stderr as {"type":"log","source":"mcp:<name>"} lines in jsonl mode', async () => {
    await until(() => jsonl.length >= 2, 'startup stderr lines');
    expect(jsonl.slice(0, 2).map((l) => JSON.parse(l))).toEqual([
      { type: 'log', source: 'mcp:calc', message: 'hello from the child' },
      { type: 'log', source: 'mcp:calc', message: 'second line' },
    ]);
    await manager.callTool('nobody', 'calc__log_stderr', { lines: ['one', 'two'] }, signal);
    await until(() => jsonl.some((l) => l.includes('"two"')), 'tool stderr lines');
    for (const line of jsonl) expect(line.includes('\n')).toBe(false);
  });

  it('cuts a 1 MiB stderr line without newline into messages of at most 64 KiB', async () => {
    const before = jsonl.length;
    await manager.callTool('nobody', 'calc__big_stderr', {}, signal);
    // 16 pieces of 64 KiB; the last one is emitted when the cap is reached exactly.
    await until(() => jsonl.slice(before).reduce((n, l) => n + (JSON.parse(l) as { message: string }).message.length, 0) >= 1024 * 1024, '1 MiB of pieces');
    const pieces = jsonl.slice(before).map((l) => JSON.parse(l) as { message: string });
    expect(pieces.length).toBeGreaterThanOrEqual(16);
    for (const p of pieces) expect(p.message.length).toBeLessThanOrEqual(65_536);
  });

  it('closeAll kills the stdio child', async () => {
    const pid = Number((await manager.callTool('nobody', 'calc__pid', {}, signal)).body);
    expect(alive(pid)).toBe(true);
    await manager.closeAll();
    await until(() => !alive(pid), 'child gone');
    expect(manager.toolSpecsFor('nobody')).toEqual([]);
  });
});

describe('McpClientManager edge cases', () => {
  it('a server that never answers is cut at the connect deadline and its child killed; a broken shared file is a load error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ff-mcpmgr2-'));
    try {
      const paths = villagePaths(dir);
      await mkdir(paths.workspace, { recursive: true });
      const pidFile = join(dir, 'mute.pid');
      const script = "require('fs').writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000)";
      await writeFile(paths.mcp, JSON.stringify({ mcpServers: { mute: { command: process.execPath, args: ['-e', script, pidFile] } } }));
      const manager = new McpClientManager({ paths, timeoutMs: 2000 });
      const report = await manager.connectShared();
      expect(report.statuses[0]).toMatchObject({ name: 'mute', connected: false });
      expect(report.statuses[0]?.error).toMatch(/did not connect and list its tools within/);
      const pid = Number(await readFile(pidFile, 'utf8'));
      // Gone by the time connectShared returns (not left to the SDK's background close with unref'd timers).
      expect(alive(pid)).toBe(false);
      await writeFile(paths.mcp, '{"mcpServers": nope}');
      const broken = await manager.connectShared();
      expect(broken.loadError).toMatch(/workspace\/mcp\.json: not valid JSON at line 1, column 16/);
      await manager.closeAll();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
