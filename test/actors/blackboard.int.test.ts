/**
 * Issue 14: two agents sharing a work folder post to the blackboard at the same time through real workers and the
 * real turn engine; no note is lost, each is signed by its author, and no note enters the message log.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { toolResults, useStubVillages } from './support/stubVillages.js';
import { agent, until } from './support/villageFixture.js';

const villages = useStubVillages();
let work: string;
const POSTS = 8;

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'ff-board-int-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe('the blackboard through the turn engine', () => {
  it('keeps every note when two agents post at once', async () => {
    const v = villages.make([agent('A', ['B'], { workDir: work, hearsRoomLog: true }), agent('B', ['A'], { workDir: work, hearsRoomLog: true })]);
    const stub = villages.stub();
    await Promise.all([v.sup.startAgent('A'), v.sup.startAgent('B')]);
    stub.respond((r) => {
      const me = r.model.slice(2);
      if (toolResults(r).length === 0) {
        const calls = Array.from({ length: POSTS }, (_, i) => ({ name: 'blackboard', args: { op: 'post', title: `${me} note ${i}`, body: `secret-body-${me}-${i}` } }));
        return reply.toolCalls(calls, { delayMs: 20 });
      }
      return reply.text(`${me} posted`);
    });
    v.sup.sendUserMessage('A', 'post your notes');
    v.sup.sendUserMessage('B', 'post your notes');
    await until(() => v.recorder.turns.length === 2, 'both turns');

    const board = join(work, 'blackboard');
    const files = readdirSync(board).sort();
    expect(files).toHaveLength(2 * POSTS);
    expect(files.every((f) => /^\d{8}T\d{9}Z-[AB](-\d+)?\.md$/.test(f))).toBe(true);
    for (const me of ['A', 'B']) {
      const mine = files.map((f) => readFileSync(join(board, f), 'utf8')).filter((t) => t.includes(`author: "${me}"`));
      expect(mine.map((t) => /secret-body-\w-(\d)/.exec(t)?.[1]).sort()).toEqual(Array.from({ length: POSTS }, (_, i) => String(i)));
    }
    // Notes are files only: the message log (and so the room log) never carries them.
    expect(JSON.stringify(v.sup.messages())).not.toContain('secret-body');
    const ok = v.events.filter((e) => e.type === 'toolInvoked' && e.tool === 'blackboard' && e.ok).length;
    expect(ok).toBe(2 * POSTS);
  });
});
