/**
 * `fuseforks-cli check` end to end: the built binary (`node bin/run.js`) as a child process against a temp copy of
 * a fixture village. Builds `dist/` first (Node loads the compiled CLI, not the TypeScript).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdVillage } from './support/cliProcess.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/cli/village-basic');
const SENTINEL = 'sk-sentinel-7c1d55e0b9';
const temps: string[] = [];

beforeAll(() => {
  // `npm test` builds once before vitest; the binary under test must be there.
  expect(existsSync(join(ROOT, 'dist/cli/main.js')), 'run `npm run build` before the CLI end-to-end tests').toBe(true);
});

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A fresh copy of the fixture village; `edit` may change world.json before the run. */
function village(edit?: (world: Record<string, unknown>) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'ff-check-'));
  temps.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  if (edit) {
    const file = join(dir, 'workspace/world.json');
    const world = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    edit(world);
    writeFileSync(file, JSON.stringify(world, null, 2));
  }
  return dir;
}

/** Every path under `dir` with the hash of its bytes: equal before/after = nothing created, changed or removed. */
function treeHash(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) {
        out[`${relative(dir, full)}/`] = 'dir';
        walk(full);
      } else out[relative(dir, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

function cli(args: string[], extraEnv: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string } {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('FUSEFORKS_SECRET_')) env[k] = v;
  const result = spawnSync(process.execPath, [join(ROOT, 'bin/run.js'), ...args], {
    cwd: ROOT,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('fuseforks-cli check (built binary)', () => {
  it('rejects a village whose template secret is absent (3), names SECRET_MISSING, and touches nothing', () => {
    const dir = village();
    const before = treeHash(dir);
    const run = cli(['check', '--for', 'ask', '--data-dir', dir, '--start', 'reception', '--secrets', 'env']);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('SECRET_MISSING');
    expect(run.stdout).toContain('FUSEFORKS_SECRET_GPT_SOL');
    expect(run.stdout.trim().split('\n').at(-1)).toBe('1 reject, 1 warn, 1 info');
    expect(treeHash(dir)).toEqual(before);
    for (const name of ['.fuseforks.lock', 'fuseforks.log', 'village_id', 'sessions.mdb', 'sessions.mdb-lock', 'schedules.json']) {
      expect(existsSync(join(dir, 'workspace', name))).toBe(false);
    }
  });

  it('a started template on a provider this build does not speak is a reject (3), never a green check', () => {
    const dir = village((world) => {
      const templates = world.modelTemplates as Record<string, unknown>[];
      templates[0] = { ...templates[0], provider: 'mistral_native' };
    });
    const run = cli(['check', '--for', 'ask', '--data-dir', dir, '--start', 'reception', '--secrets', 'env', '--json']);
    expect(run.code).toBe(3);
    const parsed = JSON.parse(run.stdout) as { findings: Array<{ code: string; level: string; message: string; fix: string }> };
    const finding = parsed.findings.find((f) => f.code === 'PROVIDER_UNSUPPORTED');
    expect(finding).toMatchObject({ level: 'reject' });
    expect(finding?.message).toContain('mistral_native');
    expect(finding?.fix).toContain('anthropic');
    expect(parsed.findings.map((f) => f.code)).not.toContain('SECRET_MISSING');
  });

  it('--json prints exactly one line {"format":1,"findings":[…],"start":[ids]}', () => {
    const run = cli(['check', '--for', 'serve', '--data-dir', village(), '--start', 'batch', '--secrets', 'env', '--json']);
    expect(run.code).toBe(3);
    const lines = run.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const parsed = JSON.parse(lines[0] as string) as { findings: Record<string, string>[]; start: string[] };
    expect(Object.keys(parsed)).toEqual(['format', 'findings', 'start']);
    expect(parsed.start).toEqual(['luna', 'zari']);
    expect(parsed.findings.map((f) => f.code)).toEqual(['SECRET_MISSING', 'JEV_TOKEN_MISSING']);
    for (const f of parsed.findings) expect(Object.keys(f).sort()).toEqual(['code', 'fix', 'level', 'message']);
  });

  it('--events jsonl with a bad flag: every stderr line is JSON, nothing on stdout, exit 2', () => {
    const run = cli(['check', '--for', 'ask', '--data-dir', village(), '--start', 'batch', '--no-such-flag', '--events', 'jsonl']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const parsed = JSON.parse(line) as { type: string; code?: string };
      expect(['cli', 'log']).toContain(parsed.type);
    }
    expect(run.stderr).toContain('--no-such-flag');
  });

  it('a missing world.json is VILLAGE_MISSING (5), and no village is created', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ff-check-empty-'));
    temps.push(dir);
    const run = cli(['check', '--for', 'serve', '--data-dir', dir, '--start', 'batch']);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('VILLAGE_MISSING');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a corrupt world.json is 5 with file and position, and stays byte-identical', () => {
    const dir = village();
    const file = join(dir, 'workspace/world.json');
    const broken = '{\n  "agents": [\n    {"id": "a",,}\n';
    writeFileSync(file, broken);
    const run = cli(['check', '--for', 'ask', '--data-dir', dir, '--start', 'batch', '--events', 'jsonl']);
    expect(run.code).toBe(5);
    const note = JSON.parse(run.stderr.trim().split('\n')[0] as string) as { code: string; message: string };
    expect(note.code).toBe('CONFIG_PARSE');
    expect(note.message).toContain(file);
    expect(note.message).toMatch(/3:16|line 3/);
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });

  it('--secrets env with the variable set passes (0) and never prints the value', () => {
    const run = cli(['check', '--for', 'ask', '--data-dir', village(), '--start', 'reception', '--secrets', 'env'], {
      FUSEFORKS_SECRET_GPT_SOL: SENTINEL,
      FUSEFORKS_SECRET_JEV_API_TOKEN: `${SENTINEL}-jev`,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(SENTINEL);
    expect(run.stderr).not.toContain(SENTINEL);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('0 reject, 0 warn, 1 info');
  });

  it('says when another process holds the village (VILLAGE_HELD with its pid), without taking the lock', async () => {
    const dir = village();
    const holder = await holdVillage(dir);
    try {
      const env = { FUSEFORKS_SECRET_GPT_SOL: SENTINEL, FUSEFORKS_SECRET_JEV_API_TOKEN: `${SENTINEL}-jev` };
      const serve = cli(['check', '--for', 'serve', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', '--json'], env);
      const held = (JSON.parse(serve.stdout) as { findings: Array<{ code: string; message: string }> }).findings.find((f) => f.code === 'VILLAGE_HELD');
      expect(held?.message).toContain(`pid ${holder.pid}`);
      expect(held?.message).toContain('serve cannot start');
      const ask = cli(['check', '--for', 'ask', '--data-dir', dir, '--start', 'reception', '--secrets', 'env'], env);
      expect(ask.stdout).toContain('VILLAGE_HELD');
      expect(ask.stdout).toContain('MCP door');
    } finally {
      await holder.release();
    }
    // Free again: no finding.
    const free = cli(['check', '--for', 'serve', '--data-dir', dir, '--start', 'batch', '--secrets', 'env'], {
      FUSEFORKS_SECRET_GPT_SOL: SENTINEL,
      FUSEFORKS_SECRET_JEV_API_TOKEN: `${SENTINEL}-jev`,
    });
    expect(free.stdout).not.toContain('VILLAGE_HELD');
  });

  it('a secret name collision under --secrets env is 5 naming the variable and keys', () => {
    const dir = village((world) => {
      const templates = world.modelTemplates as Record<string, unknown>[];
      templates.push({ ...templates[0], id: 'gpt.sol' });
    });
    const run = cli(['check', '--for', 'ask', '--data-dir', dir, '--start', 'reception', '--secrets', 'env'], { FUSEFORKS_SECRET_GPT_SOL: SENTINEL });
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('SECRET_NAME_COLLISION');
    expect(run.stderr).toContain('FUSEFORKS_SECRET_GPT_SOL');
    expect(run.stderr).toContain('gpt-sol / gpt.sol');
    expect(run.stderr).not.toContain(SENTINEL);
  });

  it.each([
    [['--for', 'ask', '--start', 'nobody'], '--start'],
    [['--for', 'serve', '--start', 'reception'], 'reception'],
    [['--for', 'ask'], 'start'],
    [['--for', 'later', '--start', 'batch'], 'later'],
  ])('argument error %j → 2 naming %s', (args, named) => {
    const run = cli(['check', '--data-dir', village(), ...args, '--secrets', 'env']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(named);
    expect(run.stdout).toBe('');
  });

  it('uses the village language for findings (ja)', () => {
    const run = cli(['check', '--for', 'ask', '--data-dir', village((w) => void (w.language = 'ja')), '--start', 'reception', '--secrets', 'env']);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('FUSEFORKS_SECRET_GPT_SOL');
    expect(run.stdout.trim().split('\n').at(-1)).toBe('拒否 1 件・警告 1 件・情報 1 件');
  });
});
