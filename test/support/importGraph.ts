/**
 * Walks the import graph of the TypeScript sources from an entry and names the bare packages it reaches, each with
 * one path to it. `import type` is erased at run time and skipped. `dynamic: true` also follows `import('…')` (code
 * a module loads later still counts, e.g. the worker's lazy engine); false follows only what loads with the entry.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Import/export specifiers of a TS file; with `dynamic`, every `import('…')` too. */
export function specifiers(source: string, dynamic = true): string[] {
  const out: string[] = [];
  const re = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  for (const m of source.matchAll(re)) if (m[1] !== undefined) out.push(m[1]);
  if (dynamic) for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) if (m[1] !== undefined) out.push(m[1]);
  return out;
}

/** Bare packages reached from `entries` (repo-relative), and relative imports that point nowhere. */
export function reach(entries: readonly string[], options: { dynamic: boolean }): { packages: Map<string, string[]>; missing: string[] } {
  const packages = new Map<string, string[]>();
  const missing: string[] = [];
  const seen = new Set<string>();
  const queue: Array<{ file: string; path: string[] }> = entries.map((e) => ({ file: resolve(ROOT, e), path: [] }));
  while (queue.length > 0) {
    const { file, path } = queue.shift() as { file: string; path: string[] };
    if (seen.has(file)) continue;
    seen.add(file);
    const here = [...path, file.slice(ROOT.length + 1)];
    for (const spec of specifiers(readFileSync(file, 'utf8'), options.dynamic)) {
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
        if (existsSync(target)) queue.push({ file: target, path: here });
        else missing.push(`${here.at(-1)} → ${spec}`);
      } else if (!spec.startsWith('node:')) {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);
        if (!packages.has(pkg)) packages.set(pkg, here);
      }
    }
  }
  return { packages, missing };
}
