/**
 * `fuseforks-cli ask` end to end: the built binary as a child process, a stub LLM on loopback, villages in temp dirs.
 * Covers the answered path (stdout, log lines, the turn record on disk), everything that must stop ask BEFORE an LLM
 * request (preflight 3, lock 4, boot 5), and the `--events jsonl` promise that every stderr line is JSON.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_EVENT_TYPES } from '../../src/core/events.js';
import { openSessionStore } from '../../src/core/sessions/openSessionStore.js';
import { reply } from '../support/stubLlm.js';
import { cliBudget, describeRun, logRecords, makeVillage, ROOT, runCli, useCliSuite } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-test-0000000000' };
const STDERR_KINDS = new Set<string>([...CORE_EVENT_TYPES, 'cli', 'log', 'outcome']);

function ask(dataDir: string, extra: string[] = [], env: Record<string, string> = KEY, text = 'What is the answer?') {
  return runCli(['ask', '--data-dir', dataDir, '--start', 'batch', '--secrets', 'env', ...extra, text], env);
}

function expectAllJsonl(stderr: string): void {
  const lines = stderr.split('\n').filter(Boolean);
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    const parsed = JSON.parse(line) as { type?: unknown };
    expect(STDERR_KINDS.has(String(parsed.type))).toBe(true);
  }
}

/** Another process holding an OS lock on `file` until released. */
async function holdLock(file: string): Promise<() => Promise<void>> {
  const child = spawn(process.execPath, [join(ROOT, 'test/fixtures/cli/holdLock.mjs'), file], { stdio: 'pipe' });
  const first = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
  expect(first.trim()).toBe('held');
  return () =>
    new Promise<void>((resolve) => {
      child.on('close', () => resolve());
      child.stdin.end();
    });
}

describe('ask (built binary)', () => {
  it('answered → 0, stdout is exactly the answer plus one newline, turn and reply lines logged, turn record on disk (env secrets, empty keyring)', { timeout: cliBudget(1) }, async () => {
    stub().respond(() => reply.text('The answer is 42.'));
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    // An empty HOME and no session bus: the keyring is empty/unavailable; --secrets env must not need it.
    const run = await ask(dir, [], { ...KEY, HOME: temps.make('ff-home-'), DBUS_SESSION_BUS_ADDRESS: '' });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toBe('The answer is 42.\n');
    expect(stub().count).toBe(1);
    expect(stub().requests[0]?.headers.authorization).toBe(`Bearer ${KEY.FUSEFORKS_SECRET_STUB}`);
    const records = logRecords(dir);
    expect(records.map((r) => r.msg).slice(0, 4)).toEqual(['started', 'version', 'session opened', 'jev']);
    expect(records.some((r) => r.msg === 'turn' && r.agent === 'desk')).toBe(true);
    expect(records.some((r) => r.msg === 'reply' && r.to === 'external:fuseforks-cli')).toBe(true);
    expect(records.filter((r) => r.msg === 'agent stopped').map((r) => r.joined)).toEqual([true, true]);
    expect(readFileSync(join(dir, 'workspace/fuseforks.log'), 'utf8')).not.toContain(KEY.FUSEFORKS_SECRET_STUB);
    // The turn record was committed before the process exited.
    const opened = openSessionStore({ workspaceDir: join(dir, 'workspace') });
    expect(opened.store).not.toBeNull();
    const store = opened.store!;
    try {
      const session = store.list()[0]!;
      const kinds = store.records(session.id).records.map((r) => r.kind);
      expect(kinds).toContain('turn');
      expect(kinds).toContain('exchange');
    } finally {
      await store.close();
    }
  });

  it('a second ask starts a NEW session unless --continue-session; with it, the reception sees its history', { timeout: cliBudget(3) }, async () => {
    stub().respond((r) => reply.text(`seen ${r.body && Array.isArray(r.body.messages) ? r.body.messages.length : 0}`));
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    const first = await ask(dir);
    const fresh = await ask(dir);
    const continued = await ask(dir, ['--continue-session']);
    for (const run of [first, fresh, continued]) expect(run.code, describeRun(run)).toBe(0);
    expect(fresh.stdout).toBe(first.stdout);
    // system + one exchange (user, assistant) restored from the exchange record + the new user message.
    expect(continued.stdout).not.toBe(first.stdout);
  });

  it('text "-" reads the request from stdin', { timeout: cliBudget(1) }, async () => {
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    const run = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', '-'], KEY, 'from stdin\n');
    expect(run.code, describeRun(run)).toBe(0);
    expect(stub().requests[0]?.lastUserText).toContain('from stdin');
  });

  it('preflight rejection (secret absent) → 3, zero requests, no lock file, nothing created', { timeout: cliBudget(1) }, async () => {
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    const run = await ask(dir, [], {});
    expect(run.code, describeRun(run)).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('SECRET_MISSING');
    expect(stub().count).toBe(0);
    for (const name of ['.fuseforks.lock', 'fuseforks.log', 'sessions.mdb']) expect(existsSync(join(dir, 'workspace', name))).toBe(false);
  });

  it('village lock held by another process → 4 with the lock message; the holder\'s log gains no line', { timeout: cliBudget(1) }, async () => {
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    const logFile = join(dir, 'workspace/fuseforks.log');
    writeFileSync(logFile, '{"msg":"holder line"}\n');
    const release = await holdLock(join(dir, 'workspace/.fuseforks.lock'));
    try {
      const run = await ask(dir);
      expect(run.code, describeRun(run)).toBe(4);
      expect(run.stderr).toContain('LOCK_HELD');
      expect(run.stderr).toContain('This village is open in another process');
      expect(readFileSync(logFile, 'utf8')).toBe('{"msg":"holder line"}\n');
      expect(stub().count).toBe(0);
    } finally {
      await release();
    }
  });

  it('session store held while the village lock is bypassed → 4 SESSION_STORE_LOCKED, no LLM request', { timeout: cliBudget(1) }, async () => {
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    const release = await holdLock(join(dir, 'workspace/sessions.mdb.owner'));
    try {
      const run = await ask(dir);
      expect(run.code, describeRun(run)).toBe(4);
      expect(run.stderr).toContain('SESSION_STORE_LOCKED');
      expect(stub().count).toBe(0);
    } finally {
      await release();
    }
  });

  it('world.json missing → 5 VILLAGE_MISSING and no world.json (nor workspace) is created', { timeout: cliBudget(1) }, async () => {
    const dir = temps.make();
    const run = await ask(dir);
    expect(run.code, describeRun(run)).toBe(5);
    expect(run.stderr).toContain('VILLAGE_MISSING');
    expect(existsSync(join(dir, 'workspace'))).toBe(false);
  });

  it('world.json corrupt → 5 naming file and position; the file stays byte-identical', { timeout: cliBudget(1) }, async () => {
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    const file = join(dir, 'workspace/world.json');
    const broken = '{\n  "agents": [\n    { "id": "desk", }\n  ]\n}\n';
    writeFileSync(file, broken);
    const run = await ask(dir);
    expect(run.code, describeRun(run)).toBe(5);
    expect(run.stderr).toContain('CONFIG_PARSE');
    expect(run.stderr).toContain('world.json');
    expect(run.stderr).toMatch(/line 3/);
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(stub().count).toBe(0);
  });

  it('two template ids mapping to one env variable → 5 SECRET_NAME_COLLISION before any LLM request', { timeout: cliBudget(1) }, async () => {
    const dir = makeVillage(temps, {
      baseUrl: stub().baseUrl,
      world: {
        modelTemplates: [
          { id: 'stub', name: 'A', baseUrl: stub().baseUrl, model: 'm', credential: 'not_required', provider: 'open_ai_compat' },
          { id: 'STUB', name: 'B', baseUrl: stub().baseUrl, model: 'm', credential: 'not_required', provider: 'open_ai_compat' },
        ],
      },
    });
    const run = await ask(dir);
    expect(run.code, describeRun(run)).toBe(5);
    expect(run.stderr).toContain('SECRET_NAME_COLLISION');
    expect(stub().count).toBe(0);
  });

  it('--events jsonl: every stderr line of an ask, an argument error and a failing boot is JSON of the four kinds, an ask\'s last one its outcome', { timeout: cliBudget(3) }, async () => {
    stub().respond(() => reply.text('ok'));
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    const ok = await ask(dir, ['--events', 'jsonl']);
    expect(ok.code, describeRun(ok)).toBe(0);
    expect(ok.stdout).toBe('ok\n');
    expectAllJsonl(ok.stderr);
    expect(ok.stderr).toContain('"type":"messageSent"');
    expect(JSON.parse(ok.stderr.trim().split('\n').at(-1)!)).toMatchObject({ type: 'outcome', outcome: 'answered', exitCode: 0, answer: 'ok' });

    const argError = await runCli(['ask', '--data-dir', dir, '--events', 'jsonl', 'no start flag'], KEY);
    expect(argError.code, describeRun(argError)).toBe(2);
    expectAllJsonl(argError.stderr);

    const missing = await ask(temps.make(), ['--events', 'jsonl']);
    expect(missing.code, describeRun(missing)).toBe(5);
    expectAllJsonl(missing.stderr);
  });
});
