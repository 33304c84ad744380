import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { memoryPath, rememberTool } from '../../../src/core/tools/remember.js';
import { bodyOf, makeSandbox, okOf, toolCtx, type Sandbox } from './fixtures.js';

let box: Sandbox;
beforeEach(() => {
  box = makeSandbox();
});
afterEach(() => box.cleanup());

describe('remember', () => {
  it('appends bullets to the agent Memory.md, without a work folder', async () => {
    const ctx = toolCtx(box, { workDir: null });
    expect(bodyOf(await rememberTool.call({ note: '  user prefers tabs ' }, ctx))).toMatch(/Remembered/);
    await rememberTool.call({ note: 'line one\nline two' }, ctx);
    expect(readFileSync(memoryPath(box.workspace, 'agent_01'), 'utf8')).toBe('- user prefers tabs\n- line one line two\n');
  });

  it('adds a line break when the file does not end with one', async () => {
    mkdirSync(join(box.workspace, 'agents', 'agent_01'), { recursive: true });
    writeFileSync(memoryPath(box.workspace, 'agent_01'), '# mine');
    await rememberTool.call({ note: 'n' }, toolCtx(box));
    expect(readFileSync(memoryPath(box.workspace, 'agent_01'), 'utf8')).toBe('# mine\n- n\n');
  });

  const refusals: Array<[string, unknown]> = [
    ['empty', '   '],
    ['not a string', 7],
    ['too long', 'x'.repeat(501)],
  ];
  it.each(refusals)('refuses %s', async (_label, note) => {
    expect(okOf(await rememberTool.call({ note }, toolCtx(box)))).toBe(false);
  });

  it('accepts exactly 500 chars and refuses a duplicate', async () => {
    expect(okOf(await rememberTool.call({ note: 'é'.repeat(500) }, toolCtx(box)))).toBe(true);
    expect(okOf(await rememberTool.call({ note: 'dup' }, toolCtx(box)))).toBe(true);
    const again = await rememberTool.call({ note: ' dup ' }, toolCtx(box, { language: 'ja' }));
    expect(okOf(again)).toBe(false);
    expect(bodyOf(again)).toMatch(/すでに/);
  });

  it('refuses an agent id that could leave agents/', () => {
    expect(() => memoryPath('/ws', '../x')).toThrow(/not a safe identifier/);
  });
});
