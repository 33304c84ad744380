/**
 * Every runtime dependency earns its place: a package listed in package.json `dependencies` must be imported by
 * some file under src/ (static import/export, dynamic import or require) or be an oclif plugin the CLI loads by
 * name (`oclif.plugins`, the same list main.ts hands oclif), and the README's dependency table has
 * one row per runtime dependency with its exact pinned version, and none for a package that is not one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; oclif?: { plugins?: string[] } };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|vue|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Bare package names a source text imports (type-only imports do not count: they vanish at run time). */
export function importedPackages(source: string): Set<string> {
  const specs: string[] = [];
  for (const m of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) specs.push(m[1] as string);
  for (const m of source.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1] as string);
  const names = specs
    .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !s.startsWith('/'))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : (s.split('/')[0] as string)));
  return new Set(names);
}

describe('runtime dependencies', () => {
  const used = new Set(sourceFiles(join(ROOT, 'src')).flatMap((f) => [...importedPackages(readFileSync(f, 'utf8'))]));
  for (const plugin of pkg.oclif?.plugins ?? []) used.add(plugin);

  it('each one is imported by a file under src/', () => {
    const unused = Object.keys(pkg.dependencies).filter((name) => !used.has(name));
    expect(unused, 'listed in package.json dependencies but imported nowhere under src/').toEqual([]);
  });

  it('the README table has exactly one row per runtime dependency, at its pinned version', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Dependencies, and why each is here'));
    const rows = [...table.matchAll(/^\| ((?!dev:)[@\w./-]+) ([\w.+-]+) \|/gm)].map((m) => `${m[1]}@${m[2]}`);
    const expected = Object.entries(pkg.dependencies).map(([name, version]) => `${name}@${version}`);
    expect(rows.sort()).toEqual(expected.sort());
  });

  it('the scanner sees static, dynamic and scoped imports and skips type-only ones (guards the guard)', () => {
    const src = "import { a } from 'alpha/sub';\nimport type { B } from 'beta';\nconst c = await import('@scope/gamma/x');\nexport * from './local.js';\nimport 'node:fs';";
    expect([...importedPackages(src)].sort()).toEqual(['@scope/gamma', 'alpha']);
  });
});
