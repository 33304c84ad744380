import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postNote } from '../../../src/core/blackboard/board.js';
import type { AgentSpec, World } from '../../../src/core/world/types.js';
import { clearBlackboard, deleteBlackboardNote, listBlackboards } from '../../../src/host/commands/blackboardCommands.js';

let base: string;
let shared: string;
let world: World;
const spec = (id: string, workDir: string | null): AgentSpec => ({
  id, name: id, modelTemplateId: 't', ragSources: [], connectedAgents: [], order: 0, workDir, maxToolIterations: null,
  enabledTools: null, hearsRoomLog: true, allowHandoff: true, batchStart: false, roleId: null, groupId: null, hidden: false, planReview: false,
});
beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'ff-bbc-'));
  shared = join(base, 'shared');
  mkdirSync(join(shared, 'blackboard'), { recursive: true });
  mkdirSync(join(base, 'solo'));
  world = { agents: [spec('a', shared), spec('b', shared), spec('c', join(base, 'solo')), spec('d', null)] } as World;
  await postNote(join(shared, 'blackboard'), 'a', 'A', 'first', 'one', 1_000);
  await postNote(join(shared, 'blackboard'), 'b', 'B', 'second', 'two', 2_000);
  writeFileSync(join(shared, 'blackboard', 'まとめ.md'), '# Summary\n');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('blackboard commands', () => {
  it('lists one board per work folder with the agents sharing it', async () => {
    const views = await listBlackboards(world);
    expect(views.map((v) => [v.dir, v.agents, v.notes.length])).toEqual([[shared, ['a', 'b'], 3], [join(base, 'solo'), ['c'], 0]]);
    expect(views[0]?.notes.slice(0, 2).map((n) => [n.author, n.title])).toEqual([['a', 'first'], ['b', 'second']]);
  });

  it('deletes one note to the trash, clears the rest, and refuses folders that are not a servant\'s', async () => {
    const [first] = (await listBlackboards(world))[0]!.notes;
    await deleteBlackboardNote(world, shared, first!.name, 5_000);
    await deleteBlackboardNote(world, shared, first!.name, 5_000); // already gone: fine
    expect(readdirSync(join(shared, '.fuseforks-trash'))).toEqual([`19700101T000005000Z-${first!.name}`]);
    expect(await clearBlackboard(world, shared, 6_000)).toBe(2);
    expect(readdirSync(join(shared, 'blackboard'))).toEqual([]);
    expect(readdirSync(join(shared, '.fuseforks-trash'))).toHaveLength(3);
    await expect(clearBlackboard(world, base)).rejects.toMatchObject({ code: 'BLACKBOARD_DELETE_FAILED' });
    await expect(deleteBlackboardNote(world, shared, '../x.md')).rejects.toMatchObject({ code: 'BLACKBOARD_DELETE_FAILED' });
    expect(existsSync(join(shared, 'blackboard'))).toBe(true);
  });
});
