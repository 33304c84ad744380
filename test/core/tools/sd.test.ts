import { readFileSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sdTool } from '../../../src/core/tools/sd.js';
import { compileSearch, parseReplacement, replaceAllMatches, type SdSearch } from '../../../src/core/tools/sdMatch.js';
import { bodyOf, hashTree, makeSandbox, okOf, toolCtx, type Sandbox } from './fixtures.js';

function search(pattern: string, ci = false): SdSearch {
  const s = compileSearch(pattern, ci, 'en');
  if (!('regex' in s)) throw new Error(s.body);
  return s;
}
function replace(text: string, pattern: string, replacement: string, ci = false): string {
  const s = search(pattern, ci);
  const parts = parseReplacement(replacement, s, 'en');
  if (!Array.isArray(parts)) throw new Error(parts.body);
  return replaceAllMatches(text, s, parts).text;
}

describe('sd replacement syntax', () => {
  const cases: Array<[string, string, string, string, string]> = [
    ['numbered group', 'a=1, b=2', '(\\w)=(\\d)', '$2=$1', '1=a, 2=b'],
    ['braced group before a letter', 'x1', '(\\d)', '${1}st', 'x1st'],
    ['named group', 'v1.2', 'v(?<major>\\d)\\.(?<minor>\\d)', '$minor.$major', '2.1'],
    ['$$ is a dollar', 'cost 5', '(\\d)', '$$$1', 'cost $5'],
    ['lone $ stays', 'a', 'a', 'x$-y', 'x$-y'],
    ['empty matches advance', 'ab', 'x*', '-', '-a-b-'],
  ];
  it.each(cases)('%s', (_label, text, pattern, replacement, expected) => {
    expect(replace(text, pattern, replacement)).toBe(expected);
  });

  it('case-insensitive when asked', () => {
    expect(replace('Foo foo', 'foo', 'bar', true)).toBe('bar bar');
    expect(replace('Foo foo', 'foo', 'bar', false)).toBe('Foo bar');
  });

  it('compiles on the bounded-time engine: a backreference is refused, a catastrophic pattern runs in linear time', () => {
    expect('regex' in (compileSearch('(a)\\1', false, 'en') as object)).toBe(false);
    expect(replace(`${'a'.repeat(40)}!`, '^(a+)+$', 'x')).toBe(`${'a'.repeat(40)}!`);
  });

  it('refuses a group the pattern does not have', () => {
    const s = search('(a)');
    const parts = parseReplacement('$2 $name', s, 'en');
    expect(Array.isArray(parts)).toBe(false);
    expect(Array.isArray(parts) ? '' : parts.body).toMatch(/group \$2/);
  });
});

describe('the sd tool', () => {
  let box: Sandbox;
  beforeEach(() => {
    box = makeSandbox();
  });
  afterEach(() => box.cleanup());

  it('previews without writing, then applies exactly the previewed change, keeping the mode', async () => {
    chmodSync(join(box.root, 'a.txt'), 0o640);
    const before = hashTree(box.base);
    const preview = bodyOf(await sdTool.call({ path: 'a.txt', pattern: 'beta', replacement: 'BETA' }, toolCtx(box)));
    expect(preview).toMatch(/^Preview \(not applied\): 1 replacements in 1 file/);
    expect(preview).toContain('-beta\n+BETA');
    expect(hashTree(box.base)).toBe(before);
    const applied = bodyOf(await sdTool.call({ path: 'a.txt', pattern: 'beta', replacement: 'BETA', apply: true }, toolCtx(box)));
    expect(applied).toMatch(/^Applied: 1 replacements in a.txt/);
    expect(applied.slice(applied.indexOf('\n'))).toBe(preview.slice(preview.indexOf('\n')));
    expect(readFileSync(join(box.root, 'a.txt'), 'utf8')).toBe('alpha\nBETA\ngamma\n');
    expect(statSync(join(box.root, 'a.txt')).mode & 0o777).toBe(0o640);
  });

  it('previews several paths but applies only one path', async () => {
    const both = bodyOf(await sdTool.call({ paths: ['a.txt', 'sub/b.txt'], pattern: 'a$|e$', replacement: '!' }, toolCtx(box)));
    expect(both).toMatch(/in 2 file/);
    const refused = await sdTool.call({ paths: ['a.txt'], pattern: 'a', replacement: 'b', apply: true }, toolCtx(box));
    expect(okOf(refused)).toBe(false);
    expect(bodyOf(refused)).toMatch(/preview only/);
    const many = await sdTool.call({ paths: Array.from({ length: 21 }, (_, i) => `f${i}`), pattern: 'a', replacement: 'b' }, toolCtx(box));
    expect(bodyOf(many)).toMatch(/at most 20 paths/);
  });

  it('never creates a file and never leaves the work folder', async () => {
    const before = hashTree(box.base);
    for (const path of ['new.txt', 'toOutside', '../outside/secret.txt', 'dirOut/secret.txt', 'fifo', 'sub']) {
      const reply = await sdTool.call({ path, pattern: '.', replacement: 'x', apply: true }, toolCtx(box));
      expect(okOf(reply), path).toBe(false);
    }
    expect(hashTree(box.base)).toBe(before);
  });

  it('refuses a diff over 12,000 chars whole, and writes nothing', async () => {
    writeFileSync(join(box.root, 'big.txt'), 'word\n'.repeat(4000));
    const before = hashTree(box.base);
    const reply = await sdTool.call({ path: 'big.txt', pattern: 'word', replacement: 'WORD', apply: true }, toolCtx(box));
    expect(okOf(reply)).toBe(false);
    expect(bodyOf(reply)).toMatch(/over the 12000-char limit/);
    expect(bodyOf(reply).length).toBeLessThan(400);
    expect(hashTree(box.base)).toBe(before);
  });

  it('refuses to rewrite a file that is not valid UTF-8', async () => {
    writeFileSync(join(box.root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const reply = await sdTool.call({ path: 'latin1.txt', pattern: 'caf', replacement: 'CAF', apply: true }, toolCtx(box));
    expect(bodyOf(reply)).toMatch(/not valid UTF-8/);
    expect(readFileSync(join(box.root, 'latin1.txt'))).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  });
});
