/**
 * Issue 14: `rag` through a real agent worker and the real turn engine. It is offered only while a declared
 * folder exists, reads sections from it, and refuses a symlink that leads out of its roots.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, type StubRequest } from '../support/stubLlm.js';
import { toolResults, useStubVillages } from './support/stubVillages.js';
import { agent } from './support/villageFixture.js';

const villages = useStubVillages();
let base: string;

const toolNames = (r: StubRequest): string[] =>
  ((r.body?.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-rag-int-'));
  mkdirSync(join(base, 'docs'));
  mkdirSync(join(base, 'private'));
  writeFileSync(join(base, 'docs', 'handbook.md'), '# Handbook\n## Deploy\nUse the blue button.\n## Rollback\nUse the red one.\n');
  writeFileSync(join(base, 'private', 'keys.md'), '# Keys\nthe vault code is 0000\n');
  symlinkSync('../private/keys.md', join(base, 'docs', 'keys.md'));
  symlinkSync('../private', join(base, 'docs', 'priv'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('rag through the turn engine', () => {
  it('reads a declared folder by section and refuses a symlink out of it', async () => {
    const v = villages.make([agent('R', [], { ragSources: [join(base, 'docs')] })]);
    const stub = villages.stub();
    await v.sup.startAgent('R');
    stub.respond((r) => {
      switch (toolResults(r).length) {
        case 0:
          return reply.tool('rag', { op: 'search', pattern: 'button' });
        case 1:
          return reply.tool('rag', { op: 'read', path: 'handbook.md', section: 'Deploy' });
        case 2:
          return reply.tool('rag', { op: 'read', path: 'keys.md' });
        case 3:
          return reply.tool('rag', { op: 'read', path: 'priv/keys.md' });
        case 4:
          return reply.tool('rag', { op: 'search', pattern: 'vault' });
        default:
          return reply.text('done');
      }
    });
    const out = await v.sup.askExternalOutcome('tester', 'how do I deploy?');
    expect(out.state).toBe('answered');
    expect(toolNames(stub.requests[0]!)).toContain('rag');
    const [found, section, leak, dirLeak, searched] = toolResults(stub.requests.at(-1)!);
    expect(found).toBe(`1 matches:\n# ${join(base, 'docs')}\nhandbook.md:3: Use the blue button.\n    § Handbook > Deploy`);
    expect(section).toBe('handbook.md > Handbook > Deploy\n\n## Deploy\nUse the blue button.');
    expect(leak).toMatch(/keys\.md points outside the declared reference folders/);
    expect(leak).not.toContain('0000');
    // A folder symlinked out of the root is refused the same way, and a search never walks into it.
    expect(dirLeak).toMatch(/points outside the declared reference folders/);
    expect(dirLeak).not.toContain('0000');
    expect(searched).not.toContain('0000');
    expect(searched).toMatch(/^0 matches|no match/i);
    const invoked = v.events.flatMap((e) => (e.type === 'toolInvoked' ? [[e.tool, e.ok]] : []));
    expect(invoked).toEqual([['rag', true], ['rag', true], ['rag', false], ['rag', false], ['rag', true]]);
  });

  it('is not offered when no declared folder exists', async () => {
    const v = villages.make([agent('R', [], { ragSources: [join(base, 'gone')] })]);
    const stub = villages.stub();
    await v.sup.startAgent('R');
    await v.sup.askExternalOutcome('tester', 'hello');
    expect(toolNames(stub.requests[0]!)).not.toContain('rag');
  });
});
