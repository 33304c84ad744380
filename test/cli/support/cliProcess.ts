/**
 * Runs the BUILT fuseforks-cli (`node bin/run.js`) as an async child process, so a loopback stub LLM in the test
 * process keeps answering while the child runs (spawnSync would freeze it). Children are killed after 60 s at most;
 * `FUSEFORKS_SECRET_*` of the test environment never leak in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startStubLlm, type StubLlm } from '../../support/stubLlm.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** A child still running after this long is SIGKILLed, so a hang shows up as `signal: SIGKILL` with its stderr. */
export const KILL_AFTER_MS = 60_000;

/**
 * The vitest timeout for a test that runs `runs` CLI children one after another: each child may use its whole
 * kill budget before the test gives up. A flat 30 s timeout failed tests with three serial children on a busy
 * two-core machine although every child would have finished; a real hang still ends at the child's kill timer,
 * with the child's stderr in the failure instead of a bare "Test timed out".
 */
export function cliBudget(runs: number): number {
  return runs * KILL_AFTER_MS + 15_000;
}

/** A one-line summary of a finished child for assertion messages: how it ended and the tail of its stderr. */
export function describeRun(run: CliRun): string {
  const tail = run.stderr.length > 2_000 ? `…${run.stderr.slice(-2_000)}` : run.stderr;
  return `exit ${run.code} signal ${run.signal}; stderr: ${tail}`;
}

/**
 * Checks that the binary under test was built: `npm test` builds once before vitest, so suites do not each pay
 * a compile (running one file alone needs `npm run build` first).
 */
export function requireDist(): void {
  if (!existsSync(join(ROOT, 'dist/cli/main.js'))) {
    throw new Error('dist/cli/main.js is missing: run `npm run build` (npm test does) before the CLI end-to-end tests');
  }
}

/** A finished child. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A started child: wait for it, watch its stderr lines, signal it. */
export interface CliChild {
  child: ChildProcess;
  done: Promise<CliRun>;
  /** Resolves with the first stderr line matching `test`. */
  stderrLine(test: (line: string) => boolean): Promise<string>;
}

/** A clean environment: the parent's, without secrets, plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('FUSEFORKS_SECRET_')) env[k] = v;
  return { ...env, ...extra };
}

/** The repository's built CLI entry; a packed install has its own copy (test/package/packedInstall.e2e.test.ts). */
export const REPO_BIN = join(ROOT, 'bin/run.js');

/** Spawns `node bin/run.js …args` (or another copy of the entry, `bin`: a packed install's). */
export function startCli(args: string[], extraEnv: Record<string, string> = {}, stdin?: string, bin: string = REPO_BIN): CliChild {
  const child = spawn(process.execPath, [bin, ...args], { cwd: ROOT, env: cleanEnv(extraEnv), stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  let partial = '';
  const watchers: Array<{ test: (line: string) => boolean; resolve: (line: string) => void }> = [];
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    partial += d;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      for (const w of [...watchers]) {
        if (w.test(line)) {
          watchers.splice(watchers.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  if (stdin !== undefined) child.stdin.end(stdin);
  else child.stdin.end();
  const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
  const done = new Promise<CliRun>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return {
    child,
    done,
    stderrLine: (test) => new Promise((resolve) => watchers.push({ test, resolve })),
  };
}

/** Runs the CLI to the end. */
export function runCli(args: string[], extraEnv: Record<string, string> = {}, stdin?: string, bin: string = REPO_BIN): Promise<CliRun> {
  return startCli(args, extraEnv, stdin, bin).done;
}

/** A temp dir that `cleanup` removes. */
export class Temps {
  private readonly dirs: string[] = [];
  make(prefix = 'ff-e2e-'): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }
  cleanup(): void {
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

/** One agent of a test village. */
export interface TestAgent {
  id: string;
  template?: string;
  batchStart?: boolean;
  connectedAgents?: string[];
  maxToolIterations?: number | null;
}

/** Writes a village (world.json only) into a fresh data dir; templates point at `baseUrl`. */
export function makeVillage(
  temps: Temps,
  opts: { baseUrl: string; agents?: TestAgent[]; world?: Record<string, unknown>; credential?: 'keyring' | 'not_required' },
): string {
  const dir = temps.make();
  const agents = opts.agents ?? [{ id: 'desk' }, { id: 'helper' }];
  const world = {
    agents: agents.map((a, i) => ({
      id: a.id,
      name: a.id.toUpperCase(),
      modelTemplateId: a.template ?? 'stub',
      connectedAgents: a.connectedAgents ?? [],
      order: i,
      batchStart: a.batchStart ?? true,
      maxToolIterations: a.maxToolIterations ?? null,
    })),
    groups: [],
    modelTemplates: [
      {
        id: 'stub',
        name: 'Stub',
        baseUrl: opts.baseUrl,
        model: 'stub-model',
        credential: opts.credential ?? 'keyring',
        provider: 'open_ai_compat',
        maxRetries: 1,
      },
    ],
    roles: [],
    language: 'en',
    reception: agents[0]?.id ?? null,
    tokenBudget: 1_000_000,
    ...opts.world,
  };
  mkdirSync(join(dir, 'workspace'), { recursive: true });
  writeFileSync(join(dir, 'workspace/world.json'), `${JSON.stringify(world, null, 2)}\n`);
  return dir;
}

/** Copies the bundled example village into a fresh data dir. */
export function exampleVillage(temps: Temps): string {
  const dir = temps.make();
  cpSync(join(ROOT, 'examples/village'), dir, { recursive: true });
  return dir;
}

/** The parsed JSON lines of fuseforks.log (empty when absent). */
export function logRecords(dataDir: string): Array<Record<string, unknown>> {
  const file = join(dataDir, 'workspace/fuseforks.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** One CLI suite's shared set-up: the built binary checked, one loopback stub LLM (reset after each test), temp dirs. */
export function useCliSuite(): { temps: Temps; stub(): StubLlm } {
  const temps = new Temps();
  let stub: StubLlm | null = null;
  beforeAll(async () => {
    requireDist();
    stub = await startStubLlm();
  });
  afterEach(() => stub?.reset());
  afterAll(async () => {
    await stub?.close();
    temps.cleanup();
  });
  return {
    temps,
    stub() {
      if (stub === null) throw new Error('the stub LLM starts in beforeAll');
      return stub;
    },
  };
}

/** A port free on 127.0.0.1 right now (for a door or proxy that must be told its port up front). */
/** Gives agent `agentId` of the village in `dir` the `run` tool in `workDir`, with run.json allowing `allow`. */
export function letAgentRun(dir: string, agentId: string, allow: string[], workDir: string): void {
  const worldFile = join(dir, 'workspace/world.json');
  const world = JSON.parse(readFileSync(worldFile, 'utf8')) as { agents: Array<Record<string, unknown>> };
  const agent = world.agents.find((a) => a['id'] === agentId);
  if (agent === undefined) throw new Error(`no agent ${agentId} in ${worldFile}`);
  agent['enabledTools'] = ['run'];
  agent['workDir'] = workDir;
  writeFileSync(worldFile, JSON.stringify(world));
  mkdirSync(join(dir, 'workspace/agents', agentId), { recursive: true });
  writeFileSync(join(dir, 'workspace/agents', agentId, 'run.json'), JSON.stringify({ allow }));
}

/** Every regular file under `dir`, recursively (absolute paths): for scans of a data dir after a run. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** Another process holding the village lock of `dataDir` (as a serve or the GUI would); `release()` kills it. */
export async function holdVillage(dataDir: string): Promise<{ pid: number; release(): Promise<void> }> {
  const holder = spawn(process.execPath, [join(ROOT, 'test/fixtures/processes/holdVillageLock.mjs'), join(dataDir, 'workspace')], { stdio: 'pipe' });
  const first = await new Promise<string>((resolve) => holder.stdout.once('data', (d: Buffer) => resolve(d.toString())));
  if (first.trim() !== 'LOCKED') throw new Error(`the lock holder said ${first.trim()}`);
  return {
    pid: holder.pid as number,
    release: async () => {
      holder.kill('SIGKILL');
      if (holder.exitCode === null && holder.signalCode === null) await new Promise((r) => holder.once('close', r));
    },
  };
}

/**
 * A `serve` child per test that holds the village while other commands run beside it: `start` waits for its
 * `[SERVING]` line; after each test it gets SIGINT and is awaited.
 */
export function useServeChild(): { start(dataDir: string, env?: Record<string, string>): Promise<void> } {
  let serve: CliChild | null = null;
  afterEach(async () => {
    if (serve === null) return;
    serve.child.kill('SIGINT');
    await serve.done;
    serve = null;
  });
  return {
    async start(dataDir, env = {}) {
      serve = startCli(['serve', '--data-dir', dataDir, '--start', 'batch', '--secrets', 'env'], env);
      await serve.stderrLine((line) => line.includes('[SERVING]'));
    },
  };
}
