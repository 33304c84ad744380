/**
 * Nothing a user reads cites the design documents they do not have ("SPEC §…", the reference digests): the
 * README, docs/, CONTRIBUTING, CHANGELOG, and every string in src/ (comments may point at them; text may not).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const CITATION = /SPEC §|SPEC\.md|reference\/(core|ops|gui)\.md|\b(core|ops|gui)\.md §/;

function files(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : files(path, keep);
    return keep(e.name) ? [path] : [];
  });
}

/** The source without its comments: block comments, then line comments (a `//` inside a string is rare here). */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1').replace(/<!--[\s\S]*?-->/g, '');
}

describe('user-visible text', () => {
  it('documents for users cite no design document', () => {
    const docs = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...files(join(ROOT, 'docs'), (n) => n.endsWith('.md')).map((f) => relative(ROOT, f))];
    const cited = docs.filter((f) => CITATION.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(cited).toEqual([]);
  });

  it('strings in src (errors, fixes, help, GUI text) cite no design document', () => {
    const cited = files(join(ROOT, 'src'), (n) => /\.(ts|vue|json)$/.test(n))
      .filter((f) => CITATION.test(withoutComments(readFileSync(f, 'utf8'))))
      .map((f) => relative(ROOT, f));
    expect(cited).toEqual([]);
  });

  it('comments are ignored, strings are not', () => {
    expect(CITATION.test(withoutComments('/** (SPEC §3.1) */\nconst a = 1; // SPEC §6'))).toBe(false);
    expect(CITATION.test(withoutComments("const fix = 'see SPEC §3.1';"))).toBe(true);
  });
});
