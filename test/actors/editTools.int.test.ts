/**
 * Issue 14: `sd` and `yq` driven by the loopback stub through a real agent worker and the real turn engine.
 * A preview leaves the folder byte-identical; an apply changes exactly the lines the preview showed; `yq set`
 * keeps a commented CRLF TOML file and a 4-space JSON file as they were apart from the value.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { toolResults, useStubVillages } from './support/stubVillages.js';
import { agent } from './support/villageFixture.js';

const FIXTURES = new URL('../fixtures/tools/', import.meta.url).pathname;
const villages = useStubVillages();
let work: string;

function folderHash(dir: string): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(dir).sort()) hash.update(name).update(readFileSync(join(dir, name)));
  return hash.digest('hex');
}

/** The changed lines of a unified diff (`-old` / `+new`), without the file headers. */
function changedLines(diff: string): string[] {
  return diff.split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l));
}

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'ff-edit-'));
  writeFileSync(join(work, 'notes.md'), '# Plan\nretries: 3\ncolour: blue\nretries again: 3\n');
  copyFileSync(join(FIXTURES, 'village.toml'), join(work, 'village.toml'));
  copyFileSync(join(FIXTURES, 'settings.json'), join(work, 'settings.json'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe('sd and yq through the turn engine', () => {
  it('sd previews without touching the folder, then applies exactly the previewed lines', async () => {
    const v = villages.make([agent('E', [], { workDir: work })]);
    const stub = villages.stub();
    await v.sup.startAgent('E');
    const hashes: string[] = [];
    stub.respond((r) => {
      const results = toolResults(r);
      hashes.push(folderHash(work));
      if (results.length === 0) return reply.tool('sd', { path: 'notes.md', pattern: 'retries(.*): 3', replacement: 'retries$1: 5' });
      if (results.length === 1) return reply.tool('sd', { path: 'notes.md', pattern: 'retries(.*): 3', replacement: 'retries$1: 5', apply: true });
      return reply.text('done');
    });
    const before = readFileSync(join(work, 'notes.md'), 'utf8');
    const out = await v.sup.askExternalOutcome('tester', 'bump retries');
    expect(out.state).toBe('answered');
    const [preview, applied] = toolResults(stub.requests[2]!);
    expect(preview).toMatch(/^Preview \(not applied\): 2 replacements/);
    // The request after the preview saw the folder exactly as before the turn.
    expect(hashes[1]).toBe(hashes[0]);
    expect(applied).toMatch(/^Applied: 2 replacements in notes\.md/);
    const after = readFileSync(join(work, 'notes.md'), 'utf8');
    expect(after).toBe(before.replace('retries: 3', 'retries: 5').replace('retries again: 3', 'retries again: 5'));
    expect(changedLines(applied!)).toEqual(changedLines(preview!));
    expect(changedLines(preview!)).toEqual(['-retries: 3', '+retries: 5', '-retries again: 3', '+retries again: 5']);
  });

  it('yq set keeps comments, order, indentation and newline style (byte-compared)', async () => {
    const v = villages.make([agent('E', [], { workDir: work })]);
    const stub = villages.stub();
    await v.sup.startAgent('E');
    let previewHashOk = false;
    const start = folderHash(work);
    stub.respond((r) => {
      const n = toolResults(r).length;
      if (n === 1) previewHashOk = folderHash(work) === start;
      switch (n) {
        case 0:
          return reply.tool('yq', { path: 'village.toml', op: 'set', key: 'agents[1].rounds', value: 6 });
        case 1:
          return reply.tool('yq', { path: 'village.toml', op: 'set', key: 'agents[1].rounds', value: 6, apply: true });
        case 2:
          return reply.tool('yq', { path: 'settings.json', op: 'set', key: 'limits.rounds', value: 20, apply: true });
        case 3:
          return reply.tool('yq', { path: 'settings.json', op: 'get', key: 'limits' });
        default:
          return reply.text('ok');
      }
    });
    const out = await v.sup.askExternalOutcome('tester', 'tune the settings');
    expect(out.state).toBe('answered');
    expect(previewHashOk).toBe(true);
    expect(readFileSync(join(work, 'village.toml'))).toEqual(readFileSync(join(FIXTURES, 'village.expected.toml')));
    expect(readFileSync(join(work, 'settings.json'))).toEqual(readFileSync(join(FIXTURES, 'settings.expected.json')));
    const results = toolResults(stub.requests.at(-1)!);
    expect(results[3]).toContain('"rounds": 20');
    // The apply wrote exactly the line the preview showed (and the byte-compare above says nothing else moved).
    expect(results[0]).toMatch(/^Preview \(not applied\): set agents\[1\]\.rounds in village\.toml/);
    expect(changedLines(results[0]!).map((l) => l.trimEnd())).toEqual(['-rounds = 4', '+rounds = 6']);
    expect(changedLines(results[1]!)).toEqual(changedLines(results[0]!));
    const invoked = v.events.flatMap((e) => (e.type === 'toolInvoked' ? [[e.tool, e.ok]] : []));
    expect(invoked).toEqual([['yq', true], ['yq', true], ['yq', true], ['yq', true]]);
  });
});
