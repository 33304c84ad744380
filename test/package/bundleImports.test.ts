/**
 * Every name a shipped bundle file takes from another module is a name that module gives as Node loads it: over
 * every file of dist/cli/bundle (the CLI, its lazily loaded commands and chunks) and dist/actors/*.bundle.* (the
 * agent worker, its engine, the scanning pool's thread, the yq TOML editor). Sources run unbundled in most tests,
 * so a bundle that disagrees with Node on a module's shape passes them and fails users: a CommonJS package behind a
 * dynamic `import()` became a chunk with only `export default`, and `const { Piscina } = await import('piscina')`
 * answered `Piscina is not a constructor` to every grep, fd and diff of the shipped CLI.
 *
 * Checked for each take (test/support/bundleTakes.ts reads them): a sibling chunk exports each name taken, and a
 * chunk imported dynamically is never one with only a default export (a CommonJS module the bundle wrapped: Node
 * would give the importer its named exports too); an external package or Node built-in gives each name to Node's
 * `import` (static and dynamic takes) or `require` (require takes), read in a child process from the bundle's folder.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireDist, ROOT } from '../cli/support/cliProcess.js';
import { bundleShape, type BundleShape, type Take } from '../support/bundleTakes.js';

/** The shipped bundle files: the CLI's outputs and the worker bundles. */
function bundleFiles(): string[] {
  const cli = join(ROOT, 'dist/cli/bundle');
  const actors = join(ROOT, 'dist/actors');
  return [
    ...readdirSync(cli).filter((f) => f.endsWith('.js')).map((f) => join(cli, f)),
    ...readdirSync(actors).filter((f) => /\.bundle\.(c?js)$/.test(f)).map((f) => join(actors, f)),
  ];
}

const shapes = new Map<string, BundleShape>();
function shapeOf(file: string): BundleShape {
  let shape = shapes.get(file);
  if (shape === undefined) {
    shape = bundleShape(readFileSync(file, 'utf8'), file.endsWith('.cjs') ? 'cjs' : 'esm');
    shapes.set(file, shape);
  }
  return shape;
}

/**
 * Names Node gives for each `[how, base file, specifier]` (null: it does not load), read in one child process per
 * folder with that folder as cwd, so a bare specifier resolves as the bundle file resolves it.
 */
function nodeNames(asks: Array<[how: 'import' | 'require', base: string, spec: string]>): Array<string[] | null> {
  const script = `
    import { createRequire } from 'node:module';
    const asks = JSON.parse(process.argv[1]);
    const out = [];
    for (const [how, base, spec] of asks) {
      try {
        out.push(Object.keys(how === 'require' ? createRequire(base)(spec) : await import(spec.startsWith('.') ? new URL(spec, 'file://' + base).href : spec)));
      } catch { out.push(null); }
    }
    process.stdout.write(JSON.stringify(out));`;
  const answers: Array<string[] | null> = new Array<string[] | null>(asks.length).fill(null);
  for (const dir of new Set(asks.map(([, base]) => dirname(base)))) {
    const here = asks.map((ask, i) => [ask, i] as const).filter(([[, base]]) => dirname(base) === dir);
    const text = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(here.map(([ask]) => ask))], { cwd: dir, encoding: 'utf8', maxBuffer: 16 << 20 });
    (JSON.parse(text) as Array<string[] | null>).forEach((names, j) => (answers[here[j]![1]] = names));
  }
  return answers;
}

const where = (file: string, t: Take): string => `${relative(ROOT, file)}:${t.line} (offset ${t.offset})`;
const shown = (t: Take): string => (t.kind === 'require' ? `require(${JSON.stringify(t.from)})` : t.kind === 'dynamic' ? `import(${JSON.stringify(t.from)})` : `import … from ${JSON.stringify(t.from)}`);

/** Every disagreement between what the bundle files take and what the modules give. */
function problems(files: string[]): { problems: string[]; checked: number } {
  const out: string[] = [];
  let checked = 0;
  const external: Array<{ file: string; take: Take }> = [];
  for (const file of files) {
    for (const take of shapeOf(file).takes) {
      if (!take.from.startsWith('.')) {
        if (take.names !== 'whole') external.push({ file, take });
        continue;
      }
      const target = resolve(dirname(file), take.from);
      if (!existsSync(target)) {
        out.push(`${where(file, take)}: ${shown(take)} names no file`);
        continue;
      }
      checked += 1;
      if (target.endsWith('.cjs')) {
        if (take.names !== 'whole') external.push({ file, take });
        continue;
      }
      const exported = shapeOf(target).exports;
      if (exported.includes('*')) continue;
      if (take.kind === 'dynamic' && exported.length === 1 && exported[0] === 'default' && !(Array.isArray(take.names) && take.names.every((n) => n === 'default'))) {
        out.push(`${where(file, take)}: ${shown(take)} is a chunk with only a default export (a CommonJS module the bundle wrapped), but Node's import of that module gives its named exports too; the code takes ${take.names === 'whole' ? 'the whole module' : `{ ${take.names.join(', ')} }`}`);
        continue;
      }
      const missing = take.names === 'whole' ? [] : take.names.filter((n) => !exported.includes(n));
      if (missing.length > 0) out.push(`${where(file, take)}: ${shown(take)} takes { ${missing.join(', ')} }, which ${relative(ROOT, target)} does not export (it exports ${exported.join(', ') || 'nothing'})`);
    }
  }
  const names = nodeNames(external.map(({ file, take }) => [take.kind === 'require' ? 'require' : 'import', file, take.from]));
  external.forEach(({ file, take }, i) => {
    checked += 1;
    const given = names[i];
    if (given === null || given === undefined) {
      out.push(`${where(file, take)}: ${shown(take)} does not load with Node from ${relative(ROOT, dirname(file))}`);
      return;
    }
    const missing = (take.names as string[]).filter((n) => !given.includes(n));
    if (missing.length > 0) out.push(`${where(file, take)}: ${shown(take)} takes { ${missing.join(', ')} }, which Node's ${take.kind === 'require' ? 'require' : 'import'} of it does not give`);
  });
  return { problems: out, checked };
}

describe('the shipped bundles take from each module only what Node gives them', () => {
  it('holds for every file of dist/cli/bundle and dist/actors/*.bundle.*', () => {
    requireDist();
    const files = bundleFiles();
    expect(files.some((f) => f.endsWith('agentEngine.bundle.cjs'))).toBe(true);
    expect(files.some((f) => f.endsWith('scanWorker.bundle.js'))).toBe(true);
    const report = problems(files);
    expect(report.problems).toEqual([]);
    // The check saw the lazily loaded externals it exists for (not an empty walk).
    const dynamic = files.flatMap((f) => shapeOf(f).takes.filter((t) => t.kind === 'dynamic').map((t) => t.from));
    for (const lazy of ['@modelcontextprotocol/sdk/client/index.js', '@modelcontextprotocol/sdk/server/mcp.js']) expect(dynamic).toContain(lazy);
    expect(dynamic.some((d) => /^\.\/piscina-[A-Z0-9]+\.js$/.test(d))).toBe(true);
    expect(report.checked).toBeGreaterThan(100);
  });

  it('reads the takes it checks: destructured, member, Promise.all slots, locals, __toESM(require(…))', () => {
    const esm = bundleShape(
      [
        'import{a as b,c}from"./x.js";',
        'async function f(){let{Piscina:P}=await import("./p.js");return new P}',
        'async function g(){return(await import("./w.js")).isWsl}',
        'async function h(){let[{Client},{Transport:T}]=await Promise.all([import("sdk/a"),import("sdk/b")]);return[Client,T]}',
        'let cache;async function k(){let lib=await(cache??=Promise.resolve().then(()=>__toESM(require("jsonc"),1)));return lib.parse(lib.modify,lib.default,lib.x??lib.y)}',
        'async function m(){let loaded=await import("./s.js");return use(loaded)}',
        'export{b as default,c as d};',
      ].join(''),
      'esm',
    );
    expect(esm.takes.map((t) => [t.from, t.kind, t.names])).toEqual([
      ['./x.js', 'static', ['a', 'c']],
      ['./p.js', 'dynamic', ['Piscina']],
      ['./w.js', 'dynamic', ['isWsl']],
      ['sdk/a', 'dynamic', ['Client']],
      ['sdk/b', 'dynamic', ['Transport']],
      ['jsonc', 'require', ['modify', 'parse']],
      ['./s.js', 'dynamic', 'whole'],
    ]);
    expect(esm.exports).toEqual(['default', 'd']);
  });
});
