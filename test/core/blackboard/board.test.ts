import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isSafeNoteName, listNotes, noteText, parseNote, postNote } from '../../../src/core/blackboard/board.js';
import { blackboardTool } from '../../../src/core/tools/blackboard.js';
import { bodyOf, okOf, toolCtx } from '../tools/fixtures.js';

let base: string;
let work: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-board-'));
  work = join(base, 'work');
  mkdirSync(work);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('notes', () => {
  it('round-trip their header, quotes and all', () => {
    const text = noteText('luna', 'Luna "L"', Date.UTC(2026, 11, 3, 10, 0, 0, 5), 'Plan: step 1', 'body\n---\nmore');
    expect(parseNote(text)).toEqual({ author: 'luna', authorName: 'Luna "L"', postedAtMs: Date.UTC(2026, 11, 3, 10, 0, 0, 5), title: 'Plan: step 1', body: 'body\n---\nmore\n' });
    expect(parseNote('# Hand written\ntext\n')).toEqual({ author: null, authorName: null, postedAtMs: null, title: null, body: '# Hand written\ntext\n' });
  });

  it.each([
    ['note.md', true], ['まとめ.md', true], ['.hidden.md', false], ['a/b.md', false], ['a\\b.md', false], ['x.txt', false], ['x\n.md', false],
  ])('note name %j is safe: %s', (name, safe) => {
    expect(isSafeNoteName(name)).toBe(safe);
  });

  it('twenty posts in the same millisecond by the same author all survive, and no temp file is left', async () => {
    const board = join(work, 'blackboard');
    mkdirSync(board);
    const names = await Promise.all(Array.from({ length: 20 }, (_, i) => postNote(board, 'luna', 'Luna', `n${i}`, `body ${i}`, 1_000)));
    expect(new Set(names).size).toBe(20);
    expect(readdirSync(board).sort()).toEqual([...names].sort());
    const listed = await listNotes(board);
    expect(listed.map((n) => n.title).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `n${i}`).sort());
  });
});

describe('the blackboard tool', () => {
  const ctx = (agentId = 'luna') => toolCtx({ root: work, workspace: base }, { agentId, agentName: `Name ${agentId}` });

  it('posts, lists and reads notes, including one a person wrote', async () => {
    expect(bodyOf(await blackboardTool.call({ op: 'list' }, ctx()))).toBe('The blackboard has no notes.');
    const posted = bodyOf(await blackboardTool.call({ op: 'post', title: 'Findings', body: 'the cache is cold' }, ctx()));
    const name = /blackboard\/(\S+\.md)$/.exec(posted)?.[1] ?? '';
    expect(name).toMatch(/^\d{8}T\d{9}Z-luna\.md$/);
    writeFileSync(join(work, 'blackboard', 'summary.md'), '# Summary\nall good\n');
    utimesSync(join(work, 'blackboard', 'summary.md'), new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    const list = bodyOf(await blackboardTool.call({ op: 'list' }, ctx('zari')));
    expect(list).toMatch(new RegExp(`^2 notes on the blackboard, oldest first:\\n- ${name} · luna · .* · Findings \\(\\d+ chars\\)`));
    expect(list).toContain('- summary.md · (person) · ');
    const read = bodyOf(await blackboardTool.call({ op: 'read', name }, ctx('zari')));
    expect(read).toMatch(new RegExp(`^${name} · Name luna \\(luna\\) · \\d{4}-.*\\n# Findings\\nthe cache is cold\\n$`));
    expect(readFileSync(join(work, 'blackboard', name), 'utf8')).toContain('author: "luna"');
  });

  it('refuses bad names, a board that is a symlink, and no work folder', async () => {
    for (const name of ['../x.md', '.post.md', 'missing.md']) {
      expect(okOf(await blackboardTool.call({ op: 'read', name }, ctx()))).toBe(false);
    }
    mkdirSync(join(base, 'elsewhere'));
    symlinkSync('../elsewhere', join(work, 'blackboard'));
    const reply = await blackboardTool.call({ op: 'post', title: 't', body: 'b' }, ctx());
    expect(okOf(reply)).toBe(false);
    expect(readdirSync(join(base, 'elsewhere'))).toEqual([]);
    const none = await blackboardTool.call({ op: 'list' }, toolCtx({ root: work, workspace: base }, { workDir: null }));
    expect(bodyOf(none)).toMatch(/No work folder/);
  });
});
