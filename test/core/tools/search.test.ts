import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffTool } from '../../../src/core/tools/diff.js';
import { fdTool } from '../../../src/core/tools/fd.js';
import { grepTool, searchText, wholeTextPrefilter } from '../../../src/core/tools/grep.js';
import { walkSync } from '../../../src/core/tools/walker.js';
import { mergeFd } from '../../../src/core/tools/fd.js';
import { mergeGrep } from '../../../src/core/tools/grep.js';
import { runScanJob } from '../../../src/core/tools/scan/runScanJob.js';
import type { FdOutput, GrepOutput } from '../../../src/core/tools/scan/scanJob.js';
import { planUnits, splitUnits } from '../../../src/core/tools/scan/units.js';
import { bodyOf, makeSandbox, okOf, toolCtx, type Sandbox } from './fixtures.js';

let box: Sandbox;
beforeAll(() => {
  box = makeSandbox();
  const w = (rel: string, text: string | Buffer) => {
    mkdirSync(join(box.root, rel, '..'), { recursive: true });
    writeFileSync(join(box.root, rel), text);
  };
  w('src/main.ts', 'import x\n// TODO one\nconst a = 1;\n// todo two\n');
  w('src/util.js', 'TODO three\r\n');
  w('node_modules/dep/index.js', 'TODO hidden\n');
  w('.git/config', 'TODO hidden\n');
  w('dist/out.js', 'TODO hidden\n');
  w('img.png', Buffer.concat([Buffer.from('TODO'), Buffer.from([0, 1, 2])]));
  w('big.log', `TODO\n${'x'.repeat(2 * 1024 * 1024)}`);
  w('many.txt', Array.from({ length: 150 }, (_, i) => `hit ${i}`).join('\n'));
  w('long.txt', `hit ${'L'.repeat(500)}\n`);
  w('old.txt', 'a\nb\nc\n');
  w('new.txt', 'a\nB\nc\n');
});
afterAll(() => box.cleanup());

const grep = async (args: Record<string, unknown>) => bodyOf(await grepTool.call(args, toolCtx(box)));

describe('searchText', () => {
  const text = 'l1\nhit\nl3\nl4\nl5\nhit\nl7\n';
  const cases: Array<[number, string[]]> = [
    [0, ['2:hit', '6:hit']],
    [1, ['1-l1', '2:hit', '3-l3', '5-l5', '6:hit', '7-l7']],
    [3, ['1-l1', '2:hit', '3-l3', '4-l4', '5-l5', '6:hit', '7-l7']],
  ];
  it.each(cases)('context %i', (context, expected) => {
    const { count, lines } = searchText(text, /hit/, context);
    expect(count).toBe(2);
    expect(lines.map((l) => `${l.line}${l.match ? ':' : '-'}${l.text}`)).toEqual(expected);
  });
});

describe('wholeTextPrefilter', () => {
  const texts = ['foo\nbar baz\n', 'x foo\n', 'abc', 'foo bar\nqux foo\n', 'one\n\ntwo\n'];
  const patterns = ['^bar', 'foo$', 'o\\b', 'foo\\s*$', '^$', 'a.c', 'bar[^z]*baz', '\\bqux', 'FOO'];
  for (const pattern of patterns) {
    it(`never hides a line match: ${pattern}`, () => {
      for (const flags of ['', 'i']) {
        const regex = new RegExp(pattern, flags);
        const prefilter = wholeTextPrefilter(regex);
        for (const text of texts) expect(searchText(text, regex, 0, prefilter)).toEqual(searchText(text, regex, 0));
      }
    });
  }
  it('gives lookarounds no prefilter', () => {
    expect(wholeTextPrefilter(/foo(?!\n)/)).toBeNull();
    expect(wholeTextPrefilter(/(?<=a)b/)).toBeNull();
    expect(wholeTextPrefilter(/ab/i)?.flags).toBe('im');
  });
});

describe('grep', () => {
  it('finds matches as path:line: text, skipping dot, vendor, binary and big files', async () => {
    const body = await grep({ pattern: 'TODO' });
    expect(body).toContain('src/main.ts:2: // TODO one');
    expect(body).toContain('src/util.js:1: TODO three');
    expect(body).not.toMatch(/hidden|img\.png|big\.log:/);
    expect(body).toMatch(/^2 matches in 2 files:/);
    expect(body).toMatch(/2 binary, over-2-MiB or unreadable files skipped/);
  });

  it('case_insensitive, include, path, count_only, context', async () => {
    expect(await grep({ pattern: 'todo', case_insensitive: true, path: 'src' })).toMatch(/^3 matches in 2 files/);
    expect(await grep({ pattern: 'TODO', include: '\\.js$' })).toMatch(/^1 matches in 1 files:\nsrc\/util\.js:1: TODO three/);
    expect(await grep({ pattern: 'todo', case_insensitive: true, count_only: true, path: 'src' })).toBe(
      '3 matches in 2 files:\nsrc/main.ts: 2\nsrc/util.js: 1',
    );
    expect(await grep({ pattern: 'TODO one', context: 1, path: 'src/main.ts' })).toBe(
      '1 matches in 1 files:\nsrc/main.ts-1- import x\nsrc/main.ts:2: // TODO one\nsrc/main.ts-3- const a = 1;',
    );
  });

  it('shows ≤100 lines but counts all; long lines are cut at 240 chars', async () => {
    const body = await grep({ pattern: '^hit', path: 'many.txt' });
    expect(body).toMatch(/^150 matches in 1 files/);
    expect(body.split('\n').filter((l) => l.startsWith('many.txt:'))).toHaveLength(100);
    expect(body).toMatch(/50 more hidden/);
    const long = (await grep({ pattern: 'hit L', path: 'long.txt' })).split('\n')[1] ?? '';
    expect(long.slice('long.txt:1: '.length)).toHaveLength(240);
    expect(long.endsWith('…')).toBe(true);
  });

  it('bad regex, escapes and no work folder are refusals', async () => {
    expect(okOf(await grepTool.call({ pattern: '(' }, toolCtx(box)))).toBe(false);
    expect(okOf(await grepTool.call({ pattern: 'x', path: '../outside' }, toolCtx(box)))).toBe(false);
    expect(okOf(await grepTool.call({ pattern: 'x', path: 'dirOut' }, toolCtx(box)))).toBe(false);
    expect(okOf(await grepTool.call({ pattern: 'x' }, toolCtx(box, { workDir: null })))).toBe(false);
  });

  it('stops when the signal is aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    expect(bodyOf(await grepTool.call({ pattern: 'TODO' }, toolCtx(box, { signal: ac.signal })))).toMatch(/interrupted/);
  });
});

describe('walker', () => {
  const list = (includeDirs: boolean, max = Infinity): string[] => {
    const out: string[] = [];
    walkSync(box.root, '', includeDirs, (_abs, rel, isDir) => {
      if (!isDir && out.filter((r) => !r.endsWith('/')).length >= max) return false;
      out.push(isDir ? `${rel}/` : rel);
      return true;
    });
    return out;
  };

  it('never follows symlinks and stops when the visitor says so', () => {
    const all = list(false);
    expect(all).not.toContain('dirOut/secret.txt');
    expect(all).not.toContain('inLink');
    expect(list(false, 3)).toHaveLength(3);
  });

  it('split into units and jobs, the walk keeps its order and its cap (any number of parts)', async () => {
    for (const includeDirs of [false, true]) {
      const sequential = list(includeDirs);
      for (const target of [1, 2, 5, 50]) {
        const units = await planUnits(box.root, '', includeDirs, target);
        for (const parts of [1, 2, 3, 8]) {
          const jobs = splitUnits(units, parts);
          if (includeDirs) {
            const outs = jobs.map((u) => runScanJob({ kind: 'fd', units: u, pattern: '', ignoreCase: true, maxFiles: 1000 }) as FdOutput);
            expect(mergeFd(outs, 1000).hits.map((h) => (h.isDir ? `${h.rel}/` : h.rel))).toEqual(sequential);
            for (const cap of [1, 4, 7]) {
              const capped = jobs.map((u) => runScanJob({ kind: 'fd', units: u, pattern: '', ignoreCase: true, maxFiles: cap }) as FdOutput);
              const merged = mergeFd(capped, cap);
              // The sequential walk up to the first file past the cap.
              const files = sequential.map((r, i) => ({ r, i })).filter((x) => !x.r.endsWith('/'));
              const stop = files[cap]?.i ?? sequential.length;
              expect(merged.hits.map((h) => (h.isDir ? `${h.rel}/` : h.rel))).toEqual(sequential.slice(0, stop));
              expect(merged.truncated).toBe(files.length > cap);
            }
          } else {
            const outs = jobs.map((u) => runScanJob({ kind: 'grep', units: u, pattern: 'hit|TODO', ignoreCase: true, include: null, context: 0, countOnly: true, maxFiles: 4 }) as GrepOutput);
            const merged = mergeGrep(outs, 4);
            const firstFour = sequential.slice(0, 4);
            expect(merged.hits.every((h) => firstFour.includes(h.rel))).toBe(true);
            expect(merged.truncated).toBe(sequential.length > 4);
          }
        }
      }
    }
  });
});

describe('regex safety', () => {
  it('a catastrophic pattern on a 41-byte line and on a 2 KB one finishes (linear fallback)', async () => {
    writeFileSync(join(box.root, 'evil.txt'), `${'a'.repeat(40)}b
${'a'.repeat(2000)}!
`);
    expect(await grep({ pattern: '^(a+)+$', path: 'evil.txt' })).toMatch(/^0 matches in 0 files/);
    expect(await grep({ pattern: '(a|aa)+$', path: 'evil.txt' })).toMatch(/^0 matches in 0 files/);
    expect(await grep({ pattern: '^(a|a?)+b', path: 'evil.txt' })).toMatch(/^1 matches in 1 files/);
  });

  it('refuses what cannot run in linear time, saying why', async () => {
    for (const pattern of ['(a)\\1', '(?<=x)y', 'foo(?!bar)', 'x{5000}']) {
      const reply = await grepTool.call({ pattern }, toolCtx(box));
      expect(okOf(reply)).toBe(false);
      expect(bodyOf(reply)).toMatch(/Backreferences, lookarounds and very large counted repeats/);
    }
    expect(bodyOf(await fdTool.call({ pattern: '(\\w)\\1' }, toolCtx(box)))).toMatch(/Backreferences/);
  });
});

describe('fd', () => {
  it('lists matching names relative to the work folder, dirs with /', async () => {
    expect(bodyOf(await fdTool.call({ pattern: '^s' }, toolCtx(box)))).toBe('2 matches:\nsrc/\nsub/');
    expect(bodyOf(await fdTool.call({ pattern: 'MAIN' }, toolCtx(box)))).toBe('1 matches:\nsrc/main.ts');
    expect(bodyOf(await fdTool.call({ pattern: 'MAIN', case_insensitive: false }, toolCtx(box)))).toBe('0 matches:');
    expect(bodyOf(await fdTool.call({ pattern: '', path: 'src' }, toolCtx(box)))).toBe('2 matches:\nsrc/main.ts\nsrc/util.js');
  });

  it('caps at 100 shown', async () => {
    const dir = join(box.root, 'lots');
    mkdirSync(dir);
    for (let i = 0; i < 120; i += 1) writeFileSync(join(dir, `f${String(i).padStart(3, '0')}.md`), '');
    const body = bodyOf(await fdTool.call({ pattern: '\\.md$', path: 'lots' }, toolCtx(box, { language: 'ja' })));
    expect(body.split('\n')[0]).toBe('120 件が一致:');
    expect(body.split('\n').filter((l) => l.startsWith('lots/'))).toHaveLength(100);
  });
});

describe('diff', () => {
  it('prints a unified diff; identical and binary files are texts', async () => {
    const body = bodyOf(await diffTool.call({ old_path: 'old.txt', new_path: 'new.txt' }, toolCtx(box)));
    expect(body).toContain('--- old.txt');
    expect(body).toContain('+++ new.txt');
    expect(body).toContain('-b\n+B');
    expect(bodyOf(await diffTool.call({ old_path: 'old.txt', new_path: 'old.txt' }, toolCtx(box)))).toMatch(/identical/);
    expect(okOf(await diffTool.call({ old_path: 'old.txt', new_path: 'img.png' }, toolCtx(box)))).toBe(false);
    expect(okOf(await diffTool.call({ old_path: 'old.txt', new_path: 'toOutside' }, toolCtx(box)))).toBe(false);
  });
});
