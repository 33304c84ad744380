/**
 * Import direction `cli, gui → host → actors → core`, checked on the source text (runs even when lint is skipped),
 * and the GUI client's own rule: a browser bundle imports only the client itself, core *types* (erased from the
 * bundle) and its two UI packages — `.vue` single-file components included.
 * Exceptions go in ALLOWED_EXCEPTIONS, a list that may only shrink.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');
const CLIENT = 'gui/client/';

/**
 * Which top folders each layer may import (itself included). gui and cli reach actors only through host.
 * cli may load gui: the one binary hosts the `gui` command, which lazy-loads the GUI server.
 * `index.ts` is the package's library entry: the host's public API and core types.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  core: ['core'],
  actors: ['actors', 'core'],
  host: ['host', 'actors', 'core'],
  cli: ['cli', 'gui', 'host', 'core'],
  gui: ['gui', 'host', 'core'],
  demo: ['demo', 'cli', 'host', 'actors', 'core'],
  'index.ts': ['host', 'core'],
};

/** Packages `core` must never load: it runs inside agent workers and stays free of servers and CLIs. */
const FORBIDDEN_IN_CORE: Record<string, (file: string) => boolean> = {
  'node:worker_threads': () => true,
  // The model client (a client only: no server in core).
  'node:http': (file) => file !== 'core/llm/httpClient.ts',
  'node:https': (file) => file !== 'core/llm/httpClient.ts',
  '@oclif/core': () => true,
  '@modelcontextprotocol/sdk': () => true,
  pino: (file) => file !== 'core/log.ts',
  lmdb: (file) => !file.startsWith('core/sessions/'),
  // libc calls Node lacks: flock (locks) and prctl (secrets out of reach); nowhere else.
  koffi: (file) => file !== 'core/flock.ts' && file !== 'core/secrets/nonDumpable.ts',
};

/** The only packages the browser bundle loads (uplot with its stylesheet: the stats chart). */
const CLIENT_PACKAGES = ['vue', 'markdown-it', 'uplot', 'uplot/dist/uPlot.min.css'];
/** Build tooling that lives beside the client but never ships in the bundle. */
const CLIENT_TOOLING = ['gui/client/vite.config.ts'];

const ALLOWED_EXCEPTIONS: readonly string[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|vue|js)$/.test(entry.name) ? [path] : [];
  });
}

interface ImportSite {
  spec: string;
  /** `import type` / `export type`: erased at build time, never loaded. */
  typeOnly: boolean;
}

/** The script of a `.vue` file (every `<script>` block); other files as they are. */
export function scriptOf(file: string, text: string): string {
  if (!file.endsWith('.vue')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '').join('\n');
}

export function importsOf(text: string): ImportSite[] {
  const sites: ImportSite[] = [];
  const pattern = /(?:import|export)\s+(type\s+)?[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s*['"]([^'"]+)['"]/g;
  for (const match of text.matchAll(pattern)) {
    sites.push({ spec: match[2] ?? match[3] ?? match[4] ?? '', typeOnly: match[1] !== undefined });
  }
  return sites;
}

const layerOf = (relPath: string): string => relPath.split('/')[0] ?? '';

/** The client's rule for one import; null when allowed. */
function clientViolation(rel: string, site: ImportSite, target: string | null): string | null {
  if (target === null) {
    return CLIENT_PACKAGES.includes(site.spec) ? null : `${rel} imports ${site.spec}: the client bundle loads only ${CLIENT_PACKAGES.join(', ')}`;
  }
  if (target.startsWith(CLIENT)) return null;
  if (layerOf(target) === 'core' && site.typeOnly) return null;
  return `${rel} imports ${site.spec}: the client may import only gui/client and core types (import type …)`;
}

function violationsIn(file: string): string[] {
  const rel = relative(SRC, file);
  const layer = layerOf(rel);
  const inClient = rel.startsWith(CLIENT);
  if (CLIENT_TOOLING.includes(rel)) return [];
  const found: string[] = [];
  for (const site of importsOf(scriptOf(file, readFileSync(file, 'utf8')))) {
    const target = site.spec.startsWith('.') ? relative(SRC, resolve(dirname(file), site.spec)) : null;
    if (inClient) {
      const v = clientViolation(rel, site, target);
      if (v !== null) found.push(v);
    } else if (target !== null) {
      const allowed = MAY_IMPORT[layer] ?? [];
      if (!target.startsWith('..') && !allowed.includes(layerOf(target))) {
        found.push(`${rel} imports ${site.spec}: ${layer} may import only ${allowed.join(', ')}`);
      }
    } else if (layer === 'core') {
      for (const [pkg, forbidden] of Object.entries(FORBIDDEN_IN_CORE)) {
        if ((site.spec === pkg || site.spec.startsWith(`${pkg}/`)) && forbidden(rel)) {
          found.push(`${rel} imports ${site.spec}: core runs in agent workers; move this to host or actors`);
        }
      }
    }
  }
  return found;
}

const files = sourceFiles(SRC);
const violations = files.flatMap(violationsIn);

describe('layering', () => {
  it('every import points down the layer map and core stays worker-safe', () => {
    expect(violations.filter((v) => !ALLOWED_EXCEPTIONS.includes(v))).toEqual([]);
  });

  it('covers the GUI client, its .vue components included', () => {
    const client = files.map((f) => relative(SRC, f)).filter((f) => f.startsWith(CLIENT));
    expect(client.filter((f) => f.endsWith('.vue')).length).toBeGreaterThan(5);
    expect(client).toContain('gui/client/lib/types.ts');
  });

  it('reads imports inside a .vue script block and tells type-only imports apart', () => {
    const vue = '<template><p/></template>\n<script setup lang="ts">\nimport { ref } from \'vue\';\nimport type { X } from \'../../../core/x.js\';\n</script>';
    expect(importsOf(scriptOf('A.vue', vue))).toEqual([
      { spec: 'vue', typeOnly: false },
      { spec: '../../../core/x.js', typeOnly: true },
    ]);
  });
});
