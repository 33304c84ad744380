/**
 * Worker import budget (STYLE 2): follow static imports from the agent worker entry and fail if a heavy
 * library is reached. An idle lean worker costs ≈8 MB; one that loads zod + pino + the MCP SDK ≈27 MB.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reach as reachFrom, ROOT, specifiers } from '../support/importGraph.js';

const ENTRY = resolve(ROOT, 'src/actors/agentWorker.ts');
const FORBIDDEN = ['zod', 'pino', 'lmdb', '@modelcontextprotocol/sdk', '@oclif/core', 'koffi'];

/** Deferred code still counts: the worker entry loads its engine at the first delivery (dynamic import). */
const reach = (entry: string) => reachFrom([entry.slice(ROOT.length + 1)], { dynamic: true });

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
