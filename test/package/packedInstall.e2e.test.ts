/**
 * What a person gets from `npm pack` + `npm install -g`: the tarball carries the built CLI, its types, the example
 * village, README and LICENSE (and no sources, tests or source maps); installed into a temporary prefix it runs
 * `init`, `check` and `ask` (echo, offline), a program can `import { openVillage } from 'fuseforks'` through the
 * package's `exports`, and the installed copy runs the shipped-build tours: every built-in tool and every model wire
 * against a loopback stub (test/shipped/support), each tool's and wire's real output checked. Dependencies come from the local npm cache when it has them (`--prefer-offline`), and the
 * install runs with no C++ toolchain on PATH — nothing in the package compiles at install time.
 * One of the slower tests (an npm install); it packs the `dist/` that `npm test` just built.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, cliBudget, requireDist, ROOT, Temps } from '../cli/support/cliProcess.js';
import { startStubLlm, type StubLlm } from '../support/stubLlm.js';
import { shippedCli } from '../shipped/support/shippedCli.js';
import { runToolTour } from '../shipped/support/toolTour.js';
import { runWireTour } from '../shipped/support/wireTour.js';

const run = promisify(execFile);
const INSTALL_TIMEOUT_MS = 240_000;

let tmp: string;
let tarball: string;
let files: string[];
let prefix: string;
let stub: StubLlm | undefined;
const temps = new Temps();

/** PATH with only node's own folder: no make, no g++, no python (what a slim container image has). */
function toolchainFreePath(): string {
  const bin = join(tmp, 'nodebin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(process.execPath, join(bin, 'node'));
  symlinkSync('/bin/sh', join(bin, 'sh'));
  return [bin].join(delimiter);
}

/** The npm CLI script of the npm that runs this test (called with node, so PATH needs nothing else). */
function npmCli(): string {
  const fromEnv = process.env.npm_execpath;
  if (fromEnv !== undefined && existsSync(fromEnv)) return fromEnv;
  return join(dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js');
}

async function cli(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const out = await run(join(prefix, 'bin/fuseforks-cli'), args, { cwd: tmp, env: cleanEnv(), timeout: 60_000 });
    return { ...out, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

beforeAll(async () => {
  requireDist();
  tmp = mkdtempSync(join(tmpdir(), 'ff-packed-'));
  const packed = await run(process.execPath, [npmCli(), 'pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: ROOT, env: cleanEnv() });
  const info = (JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>)[0]!;
  tarball = join(tmp, info.filename);
  files = info.files.map((f) => f.path);
  prefix = join(tmp, 'prefix');
  await run(
    process.execPath,
    [npmCli(), 'install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball],
    { cwd: tmp, env: cleanEnv({ PATH: toolchainFreePath() }), timeout: INSTALL_TIMEOUT_MS },
  );
}, INSTALL_TIMEOUT_MS + 30_000);

afterAll(async () => {
  await stub?.close();
  temps.cleanup();
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
});

/** The installed package's own CLI entry (what `fuseforks-cli` on PATH runs), for the tours. */
const installed = () => shippedCli(join(prefix, 'lib/node_modules/fuseforks/bin/run.js'), 'the packed install');

/** One stub for the tours, reset before each. */
async function tourStub(): Promise<StubLlm> {
  stub ??= await startStubLlm();
  stub.reset();
  return stub;
}

describe('the packed package', () => {
  it('carries the built CLI, its types, the example village, README and LICENSE — no sources, tests or maps', () => {
    for (const needed of ['bin/run.js', 'dist/cli/main.js', 'dist/index.js', 'dist/index.d.ts', 'dist/host/hostApi.d.ts', 'dist/gui/client/index.html', 'examples/village/workspace/world.json', 'README.md', 'LICENSE', 'package.json']) {
      expect(files).toContain(needed);
    }
    expect(files.filter((f) => /^(src|test|bench|\.ci|scripts)\//.test(f) || f.endsWith('.map'))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; private?: boolean };
    // `npm pack` / `npm publish` build first, so a tarball never lacks dist/ again.
    expect(pkg.scripts.prepack).toBe('npm run build');
    expect(pkg.private).toBeUndefined();
  });

  it('every file README.md links to is in the package (the registry shows the README from the tarball); the JSON Schemas too', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const linked = [...readme.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1]!).filter((href) => !/^[a-z]+:/.test(href));
    expect(linked).toContain('CONTRIBUTING.md');
    const inPackage = (href: string): boolean => files.includes(href) || files.some((f) => f.startsWith(href.endsWith('/') ? href : `${href}/`));
    expect(linked.filter((href) => !inPackage(href))).toEqual([]);
    expect(files).toContain('docs/schemas/ask.schema.json');
  });

  it('installed globally into a prefix, runs init, check and ask (echo, offline)', async () => {
    const data = join(tmp, 'village');
    const init = await cli(['init', '--data-dir', data]);
    expect(init.code, init.stderr).toBe(0);
    const check = await cli(['check', '--for', 'ask', '--data-dir', data, '--start', 'batch', '--secrets', 'env']);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain('0 reject');
    const ask = await cli(['ask', '--data-dir', data, '--start', 'reception', '--secrets', 'env', 'hello from the packed install']);
    expect(ask.code, ask.stderr).toBe(0);
    expect(ask.stdout).toContain('hello from the packed install');
  }, 120_000);

  it('exports openVillage and HostApi: a program opens the installed example village and asks it', async () => {
    const app = join(tmp, 'app');
    mkdirSync(join(app, 'node_modules'), { recursive: true });
    symlinkSync(join(prefix, 'lib/node_modules/fuseforks'), join(app, 'node_modules/fuseforks'));
    const data = join(tmp, 'lib-village');
    expect((await cli(['init', '--data-dir', data])).code).toBe(0);
    writeFileSync(
      join(app, 'main.mjs'),
      [
        "import { openVillage, isFuseforksError } from 'fuseforks';",
        'const host = await openVillage({ dataDir: process.argv[2], session: "new" });',
        'try {',
        '  await host.startSet([host.world().reception]);',
        '  const outcome = await host.askExternal("embedder", "ping through the library");',
        '  process.stdout.write(JSON.stringify({ state: outcome.state, answered: outcome.answer.includes("ping through the library"), agents: host.agents().length, isFn: typeof isFuseforksError }));',
        '} finally { await host.close(); }',
      ].join('\n'),
    );
    const out = await run(process.execPath, [join(app, 'main.mjs'), data], { cwd: app, env: cleanEnv(), timeout: 60_000 });
    expect(JSON.parse(out.stdout)).toEqual({ state: 'answered', answered: true, agents: 5, isFn: 'function' });
  }, 120_000);

  it('runs every built-in tool from the installed copy, each answering with its real output', async () => {
    await runToolTour(installed(), await tourStub(), temps);
  }, cliBudget(1));

  it('speaks every model wire from the installed copy, streamed and whole, a tool call on each', async () => {
    await runWireTour(installed(), await tourStub(), temps);
  }, cliBudget(2));
});
