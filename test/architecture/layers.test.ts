/**
 * Import direction `cli, gui → host → actors → core`, checked on the source text (runs even when lint is skipped).
 * Exceptions go in ALLOWED_EXCEPTIONS, a list that may only shrink.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

/**
 * Which top folders each layer may import (itself included). gui and cli reach actors only through host.
 * cli may load gui: the one binary hosts the `gui` command, which lazy-loads the GUI server.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  core: ['core'],
  actors: ['actors', 'core'],
  host: ['host', 'actors', 'core'],
  cli: ['cli', 'gui', 'host', 'core'],
  gui: ['gui', 'host', 'core'],
  demo: ['demo', 'cli', 'host', 'actors', 'core'],
};

/** Packages `core` must never load: it runs inside agent workers and stays free of servers and CLIs. */
const FORBIDDEN_IN_CORE: Record<string, (file: string) => boolean> = {
  'node:worker_threads': () => true,
  'node:http': () => true,
  'node:https': () => true,
  '@oclif/core': () => true,
  '@modelcontextprotocol/sdk': () => true,
  pino: (file) => file !== 'core/log.ts',
  lmdb: (file) => !file.startsWith('core/sessions/'),
};

const ALLOWED_EXCEPTIONS: readonly string[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'client' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(text: string): string[] {
  const specifiers: string[] = [];
  const pattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s*['"]([^'"]+)['"]/g;
  for (const match of text.matchAll(pattern)) specifiers.push(match[1] ?? match[2] ?? match[3] ?? '');
  return specifiers;
}

const layerOf = (relPath: string): string => relPath.split('/')[0] ?? '';

const violations: string[] = [];
for (const file of sourceFiles(SRC)) {
  const rel = relative(SRC, file);
  const layer = layerOf(rel);
  for (const spec of importsOf(readFileSync(file, 'utf8'))) {
    if (spec.startsWith('.')) {
      const target = relative(SRC, resolve(dirname(file), spec));
      const targetLayer = layerOf(target);
      const allowed = MAY_IMPORT[layer] ?? [];
      if (!target.startsWith('..') && !allowed.includes(targetLayer)) {
        violations.push(`${rel} imports ${spec}: ${layer} may import only ${allowed.join(', ')}`);
      }
    } else if (layer === 'core') {
      for (const [pkg, forbidden] of Object.entries(FORBIDDEN_IN_CORE)) {
        if ((spec === pkg || spec.startsWith(`${pkg}/`)) && forbidden(rel)) {
          violations.push(`${rel} imports ${spec}: core runs in agent workers; move this to host or actors`);
        }
      }
    }
  }
}

describe('layering', () => {
  it('every import points down the layer map and core stays worker-safe', () => {
    expect(violations.filter((v) => !ALLOWED_EXCEPTIONS.includes(v))).toEqual([]);
  });
});
