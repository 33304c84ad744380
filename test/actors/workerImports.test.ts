/**
 * Worker import budget (STYLE 2): follow static imports from the agent worker entry and fail if a heavy
 * library is reached. An idle lean worker costs ≈8 MB; one that loads zod + pino + the MCP SDK ≈27 MB.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRY = resolve(ROOT, 'src/actors/agentWorker.ts');
const FORBIDDEN = ['zod', 'pino', 'lmdb', '@modelcontextprotocol/sdk', '@oclif/core', 'koffi'];

/**
 * Import/export specifiers of a TS file (`import type` is erased at run time and skipped), plus every dynamic
 * `import('…')`: the worker entry defers its engine to the first delivery, and deferred code still counts.
 */
function specifiers(source: string): string[] {
  const out: string[] = [];
  const re = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  for (const m of source.matchAll(re)) if (m[1] !== undefined) out.push(m[1]);
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) if (m[1] !== undefined) out.push(m[1]);
  return out;
}

/** Walks the relative import graph from `entry`; returns bare packages reached, each with one path to it. */
function reach(entry: string): { packages: Map<string, string[]>; missing: string[] } {
  const packages = new Map<string, string[]>();
  const missing: string[] = [];
  const seen = new Set<string>();
  const queue: Array<{ file: string; path: string[] }> = [{ file: entry, path: [] }];
  while (queue.length > 0) {
    const { file, path } = queue.shift() as { file: string; path: string[] };
    if (seen.has(file)) continue;
    seen.add(file);
    const here = [...path, file.slice(ROOT.length + 1)];
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
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

describe('agent worker import budget', () => {
  it('reaches none of zod, pino, lmdb, the MCP SDK, oclif or koffi from src/actors/agentWorker.ts', () => {
    const { packages, missing } = reach(ENTRY);
    expect(missing).toEqual([]);
    const offenders = FORBIDDEN.filter((p) => packages.has(p)).map((p) => `${p} via ${packages.get(p)?.join(' → ')}`);
    expect(offenders).toEqual([]);
  });

  it('the scanner does see bare imports (guards the guard)', () => {
    expect(specifiers("import { z } from 'zod';\nimport type { X } from 'pino';\nexport * from './a.js';")).toEqual(['zod', './a.js']);
  });
});
