/**
 * Errors by factory (STYLE 20): every error code has at least one factory in a catalogue, each factory is bound to
 * a real code, and nothing under src/ builds a FuseforksError (or an LlmError) itself. Checked on the source text,
 * like the layering test. Every file is converted: there is no allow-list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isErrorCode } from '../../src/core/errors.js';
import { isErrorFactory } from '../../src/core/errors/errorFactory.js';

const SRC = resolve(import.meta.dirname, '../../src');

/** The catalogues: every module under core/errors/ plus the two that sit with their area. */
const CATALOGUE_DIR = 'core/errors/';
const CATALOGUES_ELSEWHERE = ['core/attachments/attachmentErrors.ts', 'core/llm/llmError.ts'];

/** Where a constructor call is the point: the class and wire decoder, the factory helper, the LLM factory helper. */
const MAY_CONSTRUCT: Record<string, readonly string[]> = {
  FuseforksError: ['core/errors.ts', 'core/errors/errorFactory.ts'],
  // The scripted backend stands in for a provider, so it throws any LLM_* code a backend could (demo and tests).
  LlmError: ['core/llm/llmError.ts', 'core/llm/scripted.ts'],
};


function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|vue)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const files = sourceFiles(SRC).map((abs) => ({ rel: relative(SRC, abs).split('\\').join('/'), text: readFileSync(abs, 'utf8') }));

/** `new X(` calls in a source text, comments excluded. */
export function constructions(text: string, className: string): number {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  return [...code.matchAll(new RegExp(`\\bnew\\s+${className}\\s*\\(`, 'g'))].length;
}

async function catalogueFactories(): Promise<Map<string, string>> {
  const modules = [...files.filter((f) => f.rel.startsWith(CATALOGUE_DIR)).map((f) => f.rel), ...CATALOGUES_ELSEWHERE];
  const found = new Map<string, string>();
  for (const rel of modules) {
    const exports = (await import(join(SRC, rel))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports)) if (isErrorFactory(value)) found.set(`${rel}:${name}`, value.code);
  }
  return found;
}

describe('errors by factory', () => {
  it('every error code has a factory, and every factory is bound to a real code', async () => {
    const factories = await catalogueFactories();
    expect(factories.size).toBeGreaterThan(ERROR_CODES.length);
    const bad = [...factories].filter(([, code]) => !isErrorCode(code));
    expect(bad).toEqual([]);
    const covered = new Set(factories.values());
    expect(ERROR_CODES.filter((code) => !covered.has(code)), 'codes without a factory').toEqual([]);
  });

  it('every factory is called somewhere under src/ outside the catalogues, so each code listed is one actually raised', async () => {
    const factories = await catalogueFactories();
    const outside = files.filter((f) => !f.rel.startsWith(CATALOGUE_DIR) && !CATALOGUES_ELSEWHERE.includes(f.rel));
    // Used = named outside an import line: a call, or a re-export / alias that callers reach it through.
    const bodies = outside.map((f) => f.text.replace(/^import[^;]*;$/gm, ''));
    const called = (name: string): boolean => bodies.some((text) => new RegExp(`\\b${name}\\b`).test(text));
    const unused = [...factories.keys()].filter((key) => !called(key.split(':')[1] as string));
    expect(unused, 'a factory nobody calls: remove it (and its code, if it was the last)').toEqual([]);
  });

  it.each(Object.entries(MAY_CONSTRUCT))('no file under src/ calls new %s( outside the catalogues', (className, allowed) => {
    const offenders = files
      .filter((f) => !allowed.includes(f.rel))
      .filter((f) => constructions(f.text, className) > 0)
      .map((f) => `${f.rel} (${constructions(f.text, className)})`);
    expect(offenders, 'build the error with its factory from src/core/errors/ instead').toEqual([]);
  });

  it('the scan sees a construction and skips comments (guards the guard)', () => {
    expect(constructions("throw new FuseforksError('BUG', 'x');", 'FuseforksError')).toBe(1);
    expect(constructions("const e = new  FuseforksError (code, m);\n// new FuseforksError('x')\n/* new FuseforksError( */", 'FuseforksError')).toBe(1);
    expect(constructions('class A extends FuseforksError {}', 'FuseforksError')).toBe(0);
  });
});
