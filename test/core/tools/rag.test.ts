import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseHeadings, resolveSection, sectionBounds, sectionPathForLine } from '../../../src/core/tools/docIndex.js';
import { ragTool } from '../../../src/core/tools/rag.js';
import { bodyOf, okOf, toolCtx } from './fixtures.js';

const GUIDE = [
  '# Guide', // 1
  'intro line', // 2
  '## Setup', // 3
  'install the thing', // 4
  '### Linux', // 5
  'apt-get install thing', // 6
  '## Usage', // 7
  '```sh', // 8
  '# not a heading', // 9
  '```', // 10
  'Run it', // 11
  '', // 12
  'Linux notes', // 13
  '-----------', // 14
  'on linux use the flag', // 15
].join('\n') + '\n';

describe('the heading index', () => {
  const headings = parseHeadings(GUIDE);
  it('finds ATX and setext headings, never inside a fence', () => {
    expect(headings).toEqual([
      { level: 1, title: 'Guide', line: 1 },
      { level: 2, title: 'Setup', line: 3 },
      { level: 3, title: 'Linux', line: 5 },
      { level: 2, title: 'Usage', line: 7 },
      { level: 2, title: 'Linux notes', line: 13 },
    ]);
  });
  it('names the section a line lies in', () => {
    expect(sectionPathForLine(headings, 6)).toEqual(['Guide', 'Setup', 'Linux']);
    expect(sectionPathForLine(headings, 9)).toEqual(['Guide', 'Usage']);
  });
  it('bounds a section up to the next heading of its level or higher', () => {
    expect(sectionBounds(headings, 1, 15)).toEqual([2, 6]);
    expect(sectionBounds(headings, 0, 15)).toEqual([0, 15]);
  });
  const cases: Array<[string, string]> = [
    ['Setup', 'found:1:exact'],
    ['setup', 'found:1:case-insensitive'],
    ['sage', 'found:3:substring'],
    ['linux', 'found:2:case-insensitive'],
    ['lin', 'ambiguous'],
    ['Setup > Linux', 'found:2:exact'],
    ['Nope', 'not_found'],
  ];
  it.each(cases)('resolves %j → %s', (query, expected) => {
    const r = resolveSection(headings, query);
    expect(r.kind === 'found' ? `found:${r.index}:${r.match}` : r.kind).toBe(expected);
  });
});

describe('the rag tool', () => {
  let base: string;
  let docs: string;
  let more: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'ff-rag-'));
    docs = join(base, 'docs');
    more = join(base, 'more');
    mkdirSync(join(docs, 'sub'), { recursive: true });
    mkdirSync(more);
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(docs, 'guide.md'), GUIDE);
    writeFileSync(join(docs, 'sub', 'faq.markdown'), '# FAQ\n## Why\nBecause.\n');
    writeFileSync(join(docs, 'notes.txt'), 'install\n');
    writeFileSync(join(more, 'guide.md'), '# Other guide\n');
    writeFileSync(join(base, 'outside', 'secret.md'), '# Secret\ninstall the secret\n');
    symlinkSync('../outside/secret.md', join(docs, 'leak.md'));
    symlinkSync('../outside', join(docs, 'leakdir'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));
  const ctx = (ragSources: string[]) => toolCtx({ root: base, workspace: base }, { ragSources });

  it('is shown only when a declared folder exists', () => {
    const p = { agentId: 'a', workDir: null, enabledTools: [], language: 'en' as const, workspaceDir: base };
    expect(ragTool.specFor({ ...p, ragSources: [] })).toBeNull();
    expect(ragTool.specFor({ ...p, ragSources: [join(base, 'gone')] })).toBeNull();
    expect(ragTool.specFor({ ...p, ragSources: [join(base, 'gone'), docs] })?.name).toBe('rag');
  });

  it('outlines Markdown files with their heading trees, never through a symlink', async () => {
    const out = bodyOf(await ragTool.call({ op: 'outline' }, ctx([docs, join(base, 'gone')])));
    expect(out).toContain(`# ${docs}\n## guide.md\n# Guide (line 1)\n  ## Setup (line 3)\n    ### Linux (line 5)`);
    expect(out).toContain('## sub/faq.markdown\n# FAQ (line 1)\n  ## Why (line 2)');
    expect(out).not.toContain('notes.txt');
    expect(out).not.toMatch(/Secret|leak/);
    expect(out).toMatch(/1 declared folder\(s\) not found and skipped: .*gone/);
  });

  it('searches headings and bodies and names the section of each hit', async () => {
    const out = bodyOf(await ragTool.call({ op: 'search', pattern: 'install|^#+ FAQ', case_insensitive: true }, ctx([docs])));
    expect(out).toBe(
      '3 matches:\n' +
        `# ${docs}\n` +
        'guide.md:4: install the thing\n    § Guide > Setup\n' +
        'guide.md:6: apt-get install thing\n    § Guide > Setup > Linux\n' +
        'sub/faq.markdown:1: # FAQ\n    § FAQ',
    );
  });

  it('reads one section, or says why not', async () => {
    expect(bodyOf(await ragTool.call({ op: 'read', path: 'guide.md', section: 'Setup' }, ctx([docs])))).toBe(
      'guide.md > Guide > Setup\n\n## Setup\ninstall the thing\n### Linux\napt-get install thing',
    );
    expect(bodyOf(await ragTool.call({ op: 'read', path: 'guide.md', section: 'lin' }, ctx([docs])))).toMatch(/matches several sections: Guide > Setup > Linux \/ Guide > Linux notes/);
    expect(bodyOf(await ragTool.call({ op: 'read', path: 'guide.md' }, ctx([docs, more])))).toMatch(/exists in more than one reference folder/);
    expect(bodyOf(await ragTool.call({ op: 'read', path: join(more, 'guide.md') }, ctx([docs, more])))).toBe('guide.md\n\n# Other guide\n');
  });

  it('refuses paths and symlinks that lead out of the declared folders', async () => {
    for (const path of ['leak.md', 'leakdir/secret.md', '../outside/secret.md', join(base, 'outside', 'secret.md')]) {
      for (const op of ['read', 'outline', 'search']) {
        const reply = await ragTool.call({ op, path, pattern: 'install' }, ctx([docs]));
        expect(okOf(reply), `${op} ${path}`).toBe(false);
        expect(bodyOf(reply)).toMatch(/outside/);
        expect(bodyOf(reply)).not.toContain('secret\n');
      }
    }
  });

  it('never cuts a section: one over the cap is refused with its size', async () => {
    writeFileSync(join(docs, 'big.md'), `# Big\n${'word '.repeat(3000)}\n## Small\nok\n`);
    const reply = await ragTool.call({ op: 'read', path: 'big.md', section: 'Big' }, ctx([docs]));
    expect(okOf(reply)).toBe(false);
    expect(bodyOf(reply)).toMatch(/Section "Big" has 4 lines, \d+ chars: over the 12000-char limit/);
    expect(bodyOf(await ragTool.call({ op: 'read', path: 'big.md', section: 'Small' }, ctx([docs])))).toBe('big.md > Big > Small\n\n## Small\nok');
  });
});
