/**
 * Issue 6 acceptance: the stub LLM drives a real agent worker through grep → file read → file write in a temp work
 * folder; the edit lands on disk and the answer reflects it. Every step goes through the real tool registry.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { toolResults, useStubVillages } from './support/stubVillages.js';
import { agent } from './support/villageFixture.js';

const villages = useStubVillages();
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'ff-work-'));
  mkdirSync(join(work, 'src'));
  writeFileSync(join(work, 'src', 'config.txt'), 'name = village\nretries = 3\ncolor = blue\n');
  writeFileSync(join(work, 'src', 'other.txt'), 'nothing to see\n');
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('an agent edits a file through its tools', () => {
  it('greps, reads, writes, and answers with the edit', async () => {
    const v = villages.make([agent('E', [], { workDir: work })]);
    const stub = villages.stub();
    await v.sup.startAgent('E');
    stub.respond((r) => {
      const results = toolResults(r);
      switch (results.length) {
        case 0:
          return reply.tool('grep', { pattern: 'retries', reason: 'find the setting' });
        case 1: {
          // The grep line names the file; read it before changing it.
          const path = /([\w/.-]+config\.txt)/.exec(results[0] ?? '')?.[1] ?? 'missing';
          return reply.tool('file', { op: 'read', path });
        }
        case 2: {
          const edited = (results[1] ?? '').replace('retries = 3', 'retries = 5');
          const body = edited.slice(edited.indexOf('name ='), edited.indexOf('color = blue') + 'color = blue'.length) + '\n';
          return reply.tool('file', { op: 'write', path: 'src/config.txt', content: body, overwrite: true });
        }
        default:
          // The answer is built from what the tools told the agent, never from the disk.
          return reply.text(`done: ${/retries = \d/.exec(results[1] ?? '')?.[0]} → 5; ${results[2]}`);
      }
    });
    const out = await v.sup.askExternalOutcome('tester', 'set retries to 5');
    expect(out.state).toBe('answered');
    expect(readFileSync(join(work, 'src', 'config.txt'), 'utf8')).toBe('name = village\nretries = 5\ncolor = blue\n');
    expect(out.answer).toMatch(/^done: retries = 3 → 5; .*config\.txt/s);
    const invoked = v.events.filter((e) => e.type === 'toolInvoked').map((e) => (e.type === 'toolInvoked' ? [e.tool, e.ok] : []));
    expect(invoked).toEqual([
      ['grep', true],
      ['file', true],
      ['file', true],
    ]);
    const grepResult = toolResults(stub.requests[1]!)[0] ?? '';
    expect(grepResult).toContain('config.txt');
    expect(grepResult).not.toContain('other.txt');
  });
});
