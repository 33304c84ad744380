/**
 * `fuseforks-cli secrets …` (built binary). The value never appears on the command line (there is no flag for it; a
 * positional value is refused without being echoed), nor in any output, log or file of the data dir (a sentinel
 * scan); it comes from a stdin pipe. Against a throwaway Secret Service (own D-Bus session, temporary HOME):
 * set / delete leave world.json byte for byte as the HostApi path of the GUI's Register / Clear key, and the key set
 * is the one the stub LLM receives. The env store is listed by variable and refuses changes with the variable to
 * set; changes refuse while another process holds the village, list still answers.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { buildHost } from '../../src/host/buildHost.js';
import { HostPaths } from '../../src/host/hostPaths.js';
import { reply } from '../support/stubLlm.js';
import { cleanEnv, cliBudget, describeRun, holdVillage, KILL_AFTER_MS, makeVillage, ROOT, runCli, useCliSuite, type CliRun } from './support/cliProcess.js';
import { keyringSessionMissing, startKeyringSession, type KeyringSession } from './support/keyringSession.js';

const { temps, stub } = useCliSuite();
const SENTINEL = `sk-sentinel-${randomUUID()}`;

/** A one-agent village whose template `stub` has no key yet (`credential: unset`). */
function village(): string {
  const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }] });
  const file = join(dir, 'workspace/world.json');
  writeFileSync(file, readFileSync(file, 'utf8').replace('"credential": "keyring"', '"credential": "unset"'));
  return dir;
}
const world = (dir: string): string => readFileSync(join(dir, 'workspace/world.json'), 'utf8');

/** Every file under `dir` (the data dir: world.json, the log, the session store, the shelf) as bytes. */
function filesHolding(dir: string, needle: string): string[] {
  const hits: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (readFileSync(path).includes(needle)) hits.push(path);
    }
  };
  walk(dir);
  return hits;
}
function expectNoSentinel(runs: CliRun[], dir: string): void {
  for (const run of runs) expect(`${run.stdout}${run.stderr}`).not.toContain(SENTINEL);
  expect(filesHolding(dir, SENTINEL)).toEqual([]);
}

describe('secrets command (built binary), env store and refusals', () => {
  it('a value on the command line is refused and never echoed; nothing changes', { timeout: cliBudget(2) }, async () => {
    const dir = village();
    const before = world(dir);
    const positional = await runCli(['secrets', 'set', 'stub', SENTINEL, '-d', dir]);
    expect(positional.code, describeRun(positional)).toBe(2);
    expect(positional.stderr).toContain('secrets set never takes the value on the command line');
    expect(positional.stderr).toContain('fix: Pipe it in');
    // A made-up flag is refused by the parser, whose own message would repeat it: the command says it plainly.
    const flag = await runCli(['secrets', 'set', 'stub', `--value=${SENTINEL}`, '-d', dir]);
    expect(flag.code, describeRun(flag)).toBe(2);
    expect(flag.stderr).toBe(
      'error [ARGUMENT] The command line of secrets set could not be read; nothing was stored (its words are not repeated here, in case one was the key).\n' +
        '  fix: Run: printf %s "$KEY" | fuseforks-cli secrets set NAME -d DIR [--secrets keyring|env] [--json] — the value only ever on standard input or at the hidden prompt.\n',
    );
    const runs = [positional, flag];
    expect(world(dir)).toBe(before);
    expectNoSentinel(runs, dir);
  });

  it('--secrets env: list names each variable and whether it is set; set and delete refuse naming the variable', { timeout: cliBudget(3) }, async () => {
    const dir = village();
    const env = { FUSEFORKS_SECRET_STUB: SENTINEL };
    const list = await runCli(['secrets', 'list', '-d', dir, '--secrets', 'env', '--json'], env);
    expect(list.code, describeRun(list)).toBe(0);
    // Opening the village (any host, the GUI's too) marks a template whose key is already in the store as keyring.
    const before = world(dir);
    expect(JSON.parse(list.stdout)).toEqual({ format: 1, store: 'env', secrets: [{ name: 'stub', credential: 'keyring', stored: true, variable: 'FUSEFORKS_SECRET_STUB' }, { name: 'jev_api_token', credential: null, stored: false, variable: 'FUSEFORKS_SECRET_JEV_API_TOKEN' }] });
    const set = await runCli(['secrets', 'set', 'stub', '-d', dir, '--secrets', 'env'], env, `${SENTINEL}\n`);
    const del = await runCli(['secrets', 'delete', 'stub', '-d', dir, '--secrets', 'env'], env);
    for (const run of [set, del]) {
      expect(run.code, describeRun(run)).toBe(1);
      expect(run.stderr).toContain('error [SECRET_STORE_READ_ONLY] The environment secret store is read-only; it cannot change FUSEFORKS_SECRET_STUB.');
      expect(run.stderr).toContain('fix: Set FUSEFORKS_SECRET_STUB in the environment');
    }
    expect(world(dir)).toBe(before);
    expectNoSentinel([list, set, del], dir);
  });

  it('set and delete refuse while another process holds the village; list still answers', { timeout: cliBudget(3) }, async () => {
    const dir = village();
    const before = world(dir);
    const holder = await holdVillage(dir);
    try {
      const set = await runCli(['secrets', 'set', 'stub', '-d', dir], {}, SENTINEL);
      const del = await runCli(['secrets', 'delete', 'stub', '-d', dir]);
      for (const [run, name] of [[set, 'set'], [del, 'delete']] as const) {
        expect(run.code, describeRun(run)).toBe(4);
        expect(run.stderr).toContain(`error [LOCK_HELD] secrets ${name} changes this village`);
      }
      const list = await runCli(['secrets', 'list', '-d', dir, '--secrets', 'env']);
      expect(list.code, describeRun(list)).toBe(0);
      expect(list.stdout).toBe('stub  missing (FUSEFORKS_SECRET_STUB)  credential unset\njev_api_token  missing (FUSEFORKS_SECRET_JEV_API_TOKEN)  Jev helper token\n');
      expect(world(dir)).toBe(before);
      expectNoSentinel([set, del, list], dir);
    } finally {
      await holder.release();
    }
  });
});

const missing = keyringSessionMissing();
if (missing !== null) console.warn(`[skip] secrets against a Secret Service: ${missing}`);

describe.skipIf(missing !== null)('secrets command against a throwaway Secret Service', () => {
  let session: KeyringSession;
  beforeAll(async () => {
    session = await startKeyringSession(temps.make('ff-keyring-home-'));
  }, 30_000);
  afterAll(async () => session?.close());

  it('set from a stdin pipe and delete match the GUI path byte for byte; the stored key is what the model receives', { timeout: cliBudget(5) }, async () => {
    stub().respond(() => reply.text('Hello.'));
    const viaCli = village();
    const viaHost = village();
    const set = await runCli(['secrets', 'set', 'stub', '-d', viaCli, '--json'], session.env, `${SENTINEL}\n`);
    expect(set.code, describeRun(set)).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ format: 1, store: 'keyring', secret: { name: 'stub', credential: 'keyring', stored: true, variable: 'FUSEFORKS_SECRET_STUB' } });

    const host = await buildHost(new HostPaths(viaHost), { appVersion: 'test', secrets: 'env', secretStore: new MemorySecretStore(), runSchedules: false, openDoor: false, env: {} });
    try {
      await host.village.setApiKey('stub', SENTINEL);
      expect(world(viaCli)).toBe(world(viaHost));

      const list = await runCli(['secrets', 'list', '-d', viaCli], session.env);
      expect(list.stdout).toBe('stub  stored (keyring)  credential keyring\njev_api_token  missing (keyring)  Jev helper token\n');
      const ask = await runCli(['ask', '-d', viaCli, '--start', 'reception', '--secrets', 'keyring', 'Hi?'], session.env);
      expect(ask.code, describeRun(ask)).toBe(0);
      expect(stub().requests.at(-1)?.headers.authorization).toBe(`Bearer ${SENTINEL}`);

      const del = await runCli(['secrets', 'delete', 'stub', '-d', viaCli, '--json'], session.env);
      expect(del.code, describeRun(del)).toBe(0);
      expect(JSON.parse(del.stdout)).toMatchObject({ secret: { name: 'stub', credential: 'unset', stored: false } });
      await host.village.clearApiKey('stub');
      expect(world(viaCli)).toBe(world(viaHost));
      const after = await runCli(['secrets', 'list', '-d', viaCli, '--json'], session.env);
      expect((JSON.parse(after.stdout) as { secrets: unknown[] }).secrets[0]).toMatchObject({ name: 'stub', stored: false });
      // The Jev helper's token is a key of its own (HostApi.jev): set from a pipe, listed, deleted.
      const jevSet = await runCli(['secrets', 'set', 'jev_api_token', '-d', viaCli, '--json'], session.env, SENTINEL);
      expect(JSON.parse(jevSet.stdout)).toEqual({ format: 1, store: 'keyring', secret: { name: 'jev_api_token', credential: null, stored: true, variable: 'FUSEFORKS_SECRET_JEV_API_TOKEN' } });
      const jevDel = await runCli(['secrets', 'delete', 'jev_api_token', '-d', viaCli, '--json'], session.env);
      expect(JSON.parse(jevDel.stdout)).toMatchObject({ secret: { name: 'jev_api_token', stored: false } });
      expectNoSentinel([set, list, ask, del, after, jevSet, jevDel], viaCli);
    } finally {
      await host.close();
    }
  });
  it('at a terminal it asks without echo: the typed key is stored and never shown', { timeout: cliBudget(2) }, async () => {
    const dir = village();
    // script(1) gives the CLI a pseudo-terminal; everything the terminal shows comes back on script's stdout.
    const child = spawn('script', ['-q', '-e', '-c', `node bin/run.js secrets set stub -d '${dir}'`, '/dev/null'], { cwd: ROOT, env: cleanEnv(session.env), stdio: 'pipe' });
    const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    let screen = '';
    let typed = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      screen += d;
      if (!typed && screen.includes('(not shown): ')) {
        typed = true;
        child.stdin.write(`${SENTINEL}\r`);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    clearTimeout(killer);
    expect(code, screen).toBe(0);
    expect(screen).toContain('API key for model template stub (not shown): ');
    expect(screen).toContain('stub: stored in the keyring (credential keyring)');
    expect(screen).not.toContain(SENTINEL);
    const list = await runCli(['secrets', 'list', '-d', dir, '--json'], session.env);
    expect((JSON.parse(list.stdout) as { secrets: unknown[] }).secrets[0]).toMatchObject({ name: 'stub', stored: true, credential: 'keyring' });
    expect(filesHolding(dir, SENTINEL)).toEqual([]);
  });
});
