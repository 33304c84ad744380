/**
 * `serve` wired to the world outside, end to end on the built binary: a stub LLM on loopback, a temp data dir with
 * a shared stdio MCP server (the SDK fixture), the door switched on in the shelf's mcp_server.json, and an
 * interval schedule that is due at boot. One long-running `serve --start batch` is shared by the tests below, in
 * order: door ask, MCP tool call through the door, a competing `serve` (exit 4, never fires), the schedule firing
 * (the ticker's first tick is 30 s after boot, as the original), then SIGTERM. A short `--events jsonl` run checks
 * that an MCP child's stderr reaches stderr only as JSON lines.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CORE_EVENT_TYPES } from '../../src/core/events.js';
import { openSessionStore } from '../../src/core/sessions/openSessionStore.js';
import { reply, startStubLlm, type StubLlm, type StubRequest } from '../support/stubLlm.js';
import { freePort, requireDist, logRecords, makeVillage, ROOT, runCli, startCli, Temps, type CliChild } from './support/cliProcess.js';

const temps = new Temps();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-test-0000000000' };
const TOKEN = '0123456789abcdef0123456789abcdef';
const FIXTURE = join(ROOT, 'test/fixtures/mcp/stdioServer.mjs');
const STDERR_KINDS = new Set<string>([...CORE_EVENT_TYPES, 'cli', 'log']);
let stub: StubLlm;
const children: CliChild[] = [];
const clients: Client[] = [];

/** The stub's script: tool call for "use the tool", the tool result echoed back, fixed answers otherwise. */
function script(r: StubRequest) {
  const messages = Array.isArray(r.body?.messages) ? (r.body.messages as Array<{ role?: string; content?: unknown }>) : [];
  const last = messages.at(-1);
  if (last?.role === 'tool') return reply.text(`tool said ${String(last.content)}`);
  if (r.lastUserText.includes('use the tool')) return reply.tool('fx__add', { a: 2, b: 3 });
  if (r.lastUserText.includes('door question')) return reply.text('door answer');
  if (r.lastUserText.includes('scheduled ping')) return reply.text('scheduled pong');
  return reply.text(`[stub] ${r.lastUserText}`);
}

/** Polls `test` every 200 ms for up to `ms`. */
async function until(test: () => boolean, what: string, ms = 60_000): Promise<void> {
  for (let waited = 0; waited < ms; waited += 200) {
    if (test()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A village with two agents (desk = reception, helper), a shared stdio MCP server `fx`, optional door and schedule. */
function village(opts: { door?: number; schedule?: boolean; mcpArgs?: string[]; failingServer?: boolean }): string {
  const dir = makeVillage(temps, { baseUrl: stub.baseUrl });
  const fx = { command: process.execPath, args: [FIXTURE, '--label', 'L', ...(opts.mcpArgs ?? [])] };
  const bad = { command: process.execPath, args: [FIXTURE, '--exit'] };
  const mcp = { mcpServers: opts.failingServer === true ? { fx, bad } : { fx } };
  writeFileSync(join(dir, 'workspace/mcp.json'), JSON.stringify(mcp));
  if (opts.door !== undefined) writeFileSync(join(dir, 'mcp_server.json'), JSON.stringify({ enabled: true, port: opts.door, token: TOKEN }), { mode: 0o600 });
  if (opts.schedule === true) {
    const row = {
      id: randomUUID(),
      to: 'helper',
      message: 'scheduled ping',
      recurrence: { kind: 'interval', everyMinutes: 1 },
      createdAtMs: Date.now() - 5 * 60_000,
      lastConsumedDueMs: null,
      enabled: true,
    };
    writeFileSync(join(dir, 'workspace/schedules.json'), JSON.stringify([row], null, 2));
  }
  return dir;
}

function serve(dir: string, extra: string[] = []): CliChild {
  const child = startCli(['serve', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', ...extra], KEY);
  children.push(child);
  return child;
}

async function doorClient(port: number, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
  }));
  clients.push(client);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');

beforeAll(async () => {
  requireDist();
  stub = await startStubLlm();
  stub.respond(script);
}, 120_000);
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
});
afterAll(async () => {
  for (const c of children.splice(0)) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  await stub.close();
  temps.cleanup();
});

describe('serve with the door, MCP and schedules (built binary)', () => {
  let dir = '';
  let port = 0;
  let main: CliChild;

  beforeAll(async () => {
    port = await freePort();
    dir = village({ door: port, schedule: true });
    main = serve(dir);
    await main.stderrLine((line) => line.includes('[SERVING]'));
  }, 60_000);

  it('(b) an MCP client asks through the door with the shelf token and gets the reception\'s answer', async () => {
    const client = await doorClient(port, 'door-e2e');
    const answer = await client.callTool({ name: 'ask_fuseforks', arguments: { message: 'door question' } });
    expect(answer.isError).toBeFalsy();
    expect(textOf(answer)).toBe('door answer');
    expect(logRecords(dir).some((r) => r.msg === 'reply' && r.agent === 'desk' && r.to === 'external:door-e2e')).toBe(true);
  }, 30_000);

  it('(c) an agent calls a tool of the shared stdio MCP server (through the stub LLM) and answers with its result', async () => {
    const client = await doorClient(port, 'tool-e2e');
    const answer = await client.callTool({ name: 'ask_fuseforks', arguments: { message: 'please use the tool' } });
    expect(textOf(answer)).toBe('tool said L:5');
    const asked = stub.requests.find((r) => r.lastUserText.includes('use the tool'));
    const tools = (asked?.body?.tools as Array<{ function?: { name?: string } }> | undefined) ?? [];
    expect(tools.map((t) => t.function?.name)).toContain('fx__add');
  }, 30_000);

  it('a second serve on the same village exits 4 (LOCK_HELD) and never touches the schedule', async () => {
    const before = readFileSync(join(dir, 'workspace/schedules.json'), 'utf8');
    const second = await runCli(['serve', '--data-dir', dir, '--start', 'batch', '--secrets', 'env'], KEY);
    expect(second.code).toBe(4);
    expect(second.stderr).toContain('LOCK_HELD');
    expect(readFileSync(join(dir, 'workspace/schedules.json'), 'utf8')).toBe(before);
  }, 30_000);

  it('(a) the due interval schedule fires once as a System message and the answer is recorded', async () => {
    await until(() => logRecords(dir).some((r) => r.msg === 'reply' && r.agent === 'helper'), 'the scheduled reply', 60_000);
    const records = logRecords(dir);
    const fired = records.filter((r) => r.msg === 'schedule' && r.fired === true);
    expect(fired).toHaveLength(1);
    expect(records.some((r) => r.msg === 'reply' && r.agent === 'helper' && r.to === 'user')).toBe(true);
    const scheduled = stub.requests.filter((r) => r.lastUserText.includes('scheduled ping'));
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]?.lastUserText).toContain('【Scheduled run: every minute】');
    const rows = JSON.parse(readFileSync(join(dir, 'workspace/schedules.json'), 'utf8')) as Array<{ lastConsumedDueMs: number | null }>;
    expect(rows[0]?.lastConsumedDueMs).not.toBeNull();
    // village_id was created before the ticker ran (serve only).
    expect(readFileSync(join(dir, 'workspace/village_id'), 'utf8').trim()).toMatch(/^[0-9a-f-]{36}$/);
  }, 70_000);

  it('(d) SIGTERM closes with exit 0; the band has the door line in place; every agent joined; the answer is in the session', async () => {
    main.child.kill('SIGTERM');
    const run = await main.done;
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    const records = logRecords(dir);
    const band = records.map((r) => r.msg).filter((m) => ['started', 'version', 'session opened', 'mcp server', 'jev'].includes(String(m)));
    expect(band.slice(0, 5)).toEqual(['started', 'version', 'session opened', 'mcp server', 'jev']);
    expect(records.find((r) => r.msg === 'mcp server')?.address).toBe(`127.0.0.1:${port}/mcp`);
    const stopped = records.filter((r) => r.msg === 'agent stopped');
    expect(stopped.map((r) => r.agent).sort()).toEqual(['desk', 'helper']);
    expect(stopped.every((r) => r.joined === true)).toBe(true);
    const opened = openSessionStore({ workspaceDir: join(dir, 'workspace') });
    const store = opened.store!;
    try {
      const texts = store.list().flatMap((s) => store.records(s.id).records.flatMap((r) => (r.kind === 'message' ? [r.message] : [])));
      expect(texts.some((m) => m.from.kind === 'system' && m.content.includes('scheduled ping'))).toBe(true);
      expect(texts.some((m) => m.from.kind === 'agent' && m.content === 'scheduled pong')).toBe(true);
    } finally {
      await store.close();
    }
  }, 60_000);
});

describe('serve --events jsonl with an MCP child writing to stderr', () => {
  it('every stderr line is JSON; the child\'s lines arrive as {"type":"log","source":"mcp:fx"}', async () => {
    const dir = village({ mcpArgs: ['--stderr-hello'] });
    const cli = serve(dir, ['--events', 'jsonl']);
    await cli.stderrLine((line) => line.includes('"SERVING"'));
    cli.child.kill('SIGTERM');
    const run = await cli.done;
    expect(run.code).toBe(0);
    const lines = run.stderr.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const line of lines) expect(STDERR_KINDS.has(String(line.type))).toBe(true);
    expect(lines).toContainEqual({ type: 'log', source: 'mcp:fx', message: 'hello from the child' });
    expect(lines).toContainEqual({ type: 'log', source: 'mcp:fx', message: 'second line' });
  }, 60_000);
});

describe('ask on a village whose door is switched on', () => {
  it('never opens the door; a failing MCP server is a WARN note, the tools of the others still work', async () => {
    const port = await freePort();
    const dir = village({ door: port, failingServer: true });
    const run = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', 'please use the tool'], KEY);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('tool said L:5\n');
    const records = logRecords(dir);
    expect(records.some((r) => r.msg === 'mcp server')).toBe(false);
    expect(records.some((r) => r.msg === 'mcp connect failed' && r.server === 'bad' && r.level === 'warn')).toBe(true);
    expect(records.find((r) => r.msg === 'mcp connected')).toMatchObject({ servers: 2, connected: 1 });
    // ask never creates village_id (only serve and the GUI run schedules).
    expect(existsSync(join(dir, 'workspace/village_id'))).toBe(false);
  }, 60_000);
});
