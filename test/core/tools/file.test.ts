import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileTool } from '../../../src/core/tools/file.js';
import { removeOp, TRASH_DIR_NAME, trashStamp } from '../../../src/core/tools/fileOps.js';
import { bodyOf, hashTree, makeSandbox, okOf, toolCtx, type Sandbox } from './fixtures.js';

let box: Sandbox;
let outsideHash: string;
beforeEach(() => {
  box = makeSandbox();
  outsideHash = hashTree(box.outside);
});
afterEach(() => {
  // Whatever a test did, nothing outside the work folder may have changed.
  expect(hashTree(box.outside)).toBe(outsideHash);
  box.cleanup();
});

const call = (args: Record<string, unknown>) => fileTool.call(args, toolCtx(box));

describe('file: escapes are refused for every op and touch nothing outside', () => {
  const paths = ['../outside/secret.txt', '/etc/hostname', 'toOutside', 'dirOut/secret.txt', 'dirOut/new.txt', 'loop1',
    'dangling/x.txt', '..\u200b/x', 'a\nb', 'fifo', 'sub/../../outside/x'];
  const ops: Array<Record<string, unknown>> = [
    { op: 'read' },
    { op: 'write', content: 'pwned', overwrite: true },
    { op: 'append', content: 'pwned' },
    { op: 'mkdir' },
    { op: 'remove' },
    { op: 'move', to: 'moved.txt' },
    { op: 'copy', to: 'copied.txt' },
  ];
  for (const op of ops) {
    it.each(paths)(`${String(op['op'])} %j`, async (path) => {
      const reply = await call({ ...op, path });
      expect(okOf(reply)).toBe(false);
      expect(existsSync(join(box.root, 'moved.txt'))).toBe(false);
      expect(existsSync(join(box.root, 'copied.txt'))).toBe(false);
    });
  }
  it.each(['../outside/stolen.txt', 'dirOut/stolen.txt', 'toOutside', 'dangling/stolen.txt'])('copy/move into %j', async (to) => {
    expect(okOf(await call({ op: 'copy', path: 'a.txt', to, overwrite: true }))).toBe(false);
    expect(okOf(await call({ op: 'move', path: 'a.txt', to, overwrite: true }))).toBe(false);
    expect(existsSync(join(box.root, 'a.txt'))).toBe(true);
  });
});

describe('file: happy paths and limits', () => {
  it('write, refuse overwrite, overwrite, append, read', async () => {
    expect(bodyOf(await call({ op: 'write', path: 'notes/n.txt', content: 'hello' }))).toMatch(/Wrote 5 chars to notes\/n.txt/);
    const again = await call({ op: 'write', path: 'notes/n.txt', content: 'x' });
    expect(okOf(again)).toBe(false);
    expect(bodyOf(again)).toMatch(/overwrite: true/);
    await call({ op: 'write', path: 'notes/n.txt', content: 'HELLO', overwrite: true });
    await call({ op: 'append', path: 'notes/n.txt', content: '!\n' });
    expect(await call({ op: 'read', path: 'notes/n.txt' })).toBe('HELLO!\n');
  });

  it('read shows at most 12,000 chars and says so', async () => {
    writeFileSync(join(box.root, 'big.txt'), 'y'.repeat(20_000));
    const body = bodyOf(await call({ op: 'read', path: 'big.txt' }));
    expect(body.startsWith('y'.repeat(12_000))).toBe(true);
    expect(body).toMatch(/first 12000 chars of 20000/);
  });

  it('read of a file over 2 MiB shows its head; binary is refused', async () => {
    writeFileSync(join(box.root, 'huge.txt'), 'z'.repeat(3 * 1024 * 1024));
    expect(bodyOf(await call({ op: 'read', path: 'huge.txt' }))).toMatch(/over 2 MiB/);
    writeFileSync(join(box.root, 'bin.dat'), Buffer.from([1, 2, 0, 3]));
    expect(okOf(await call({ op: 'read', path: 'bin.dat' }))).toBe(false);
  });

  it('write over 2 MiB is refused', async () => {
    const reply = await call({ op: 'write', path: 'w.txt', content: 'x'.repeat(2 * 1024 * 1024 + 1) });
    expect(okOf(reply)).toBe(false);
    expect(existsSync(join(box.root, 'w.txt'))).toBe(false);
  });

  it('mkdir, move, copy (files and folders)', async () => {
    await call({ op: 'mkdir', path: 'd/e' });
    expect(lstatSync(join(box.root, 'd/e')).isDirectory()).toBe(true);
    await call({ op: 'copy', path: 'sub', to: 'd/e/subcopy' });
    expect(readFileSync(join(box.root, 'd/e/subcopy/b.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(okOf(await call({ op: 'move', path: 'd', to: 'd/e/inside' }))).toBe(false);
    expect(okOf(await call({ op: 'move', path: 'a.txt', to: 'sub/b.txt' }))).toBe(false);
    await call({ op: 'move', path: 'a.txt', to: 'sub/b.txt', overwrite: true });
    expect(readFileSync(join(box.root, 'sub/b.txt'), 'utf8')).toBe('alpha\nbeta\ngamma\n');
    expect(existsSync(join(box.root, 'a.txt'))).toBe(false);
  });

  it('remove moves into the trash folder, twice with distinct names', async () => {
    writeFileSync(join(box.root, 'c.txt'), 'c1');
    expect(bodyOf(await call({ op: 'remove', path: 'c.txt' }))).toMatch(/trash: \.fuseforks-trash\/\d{8}T\d{9}Z-c\.txt/);
    writeFileSync(join(box.root, 'c.txt'), 'c2');
    await call({ op: 'remove', path: 'c.txt' });
    const trashed = readdirSync(join(box.root, TRASH_DIR_NAME));
    expect(trashed).toHaveLength(2);
    expect(existsSync(join(box.root, 'c.txt'))).toBe(false);
    expect(okOf(await call({ op: 'remove', path: '.' }))).toBe(false);
    expect(okOf(await call({ op: 'remove', path: `${TRASH_DIR_NAME}/${trashed[0]}` }))).toBe(false);
  });

  it('bad op, missing args and no work folder are texts', async () => {
    expect(okOf(await call({ op: 'chmod', path: 'a.txt' }))).toBe(false);
    expect(okOf(await call({ op: 'write', path: 'x.txt' }))).toBe(false);
    const none = await fileTool.call({ op: 'read', path: 'a.txt' }, toolCtx(box, { workDir: null }));
    expect(bodyOf(none)).toMatch(/Ask the user to set a work folder/);
  });

  it('two removes in the same millisecond keep both entries', async () => {
    const { realpathSync } = await import('node:fs');
    const root = realpathSync(box.root);
    for (const body of ['one', 'two']) {
      writeFileSync(join(root, 'same.txt'), body);
      await removeOp(root, join(root, 'same.txt'), 'same.txt', 'en', 1_000);
    }
    expect(readdirSync(join(root, TRASH_DIR_NAME)).sort()).toEqual(['19700101T000001000Z-same.txt', '19700101T000001000Z-same.txt-2']);
  });

  it('trash stamps are file-name safe', () => {
    expect(trashStamp(Date.UTC(2026, 7, 22, 14, 35, 1, 123))).toBe('20260822T143501123Z');
  });
});

describe('file: a work folder that holds the data dir (issue 27)', () => {
  // The work folder is `base`, which holds the data dir `base/village` (its workspace is `base/village/workspace`).
  const setup = () => {
    const dataDir = join(box.base, 'village');
    const workspace = join(dataDir, 'workspace');
    mkdirSync(join(workspace, 'agents', 'agent_01'), { recursive: true });
    writeFileSync(join(workspace, 'agents', 'agent_01', 'run.json'), '{"allow":[]}\n');
    writeFileSync(join(workspace, 'world.json'), '{}\n');
    return { ctx: toolCtx({ root: box.base, workspace }), workspace };
  };
  const refused: Array<Record<string, unknown>> = [
    { op: 'read', path: 'village/workspace/world.json' },
    { op: 'write', path: 'village/workspace/agents/agent_01/run.json', content: '{"allow":["sh *"]}', overwrite: true },
    { op: 'append', path: 'village/workspace/world.json', content: 'x' },
    { op: 'mkdir', path: 'village/workspace/new' },
    { op: 'remove', path: 'village' },
    { op: 'move', path: 'village', to: 'elsewhere' },
    { op: 'copy', path: 'work/a.txt', to: 'village/workspace/agents/agent_01/run.json', overwrite: true },
  ];
  it.each(refused)('refuses %j and leaves the data dir as it was', async (args) => {
    const { ctx, workspace } = setup();
    const reply = await fileTool.call(args, ctx);
    expect(okOf(reply)).toBe(false);
    expect(bodyOf(reply)).toMatch(/data dir/);
    expect(readFileSync(join(workspace, 'agents', 'agent_01', 'run.json'), 'utf8')).toBe('{"allow":[]}\n');
    expect(existsSync(join(box.base, 'elsewhere'))).toBe(false);
  });
  it('still works on the rest of that work folder', async () => {
    const { ctx } = setup();
    expect(bodyOf(await fileTool.call({ op: 'write', path: 'notes.txt', content: 'ok' }, ctx))).not.toMatch(/data dir/);
    expect(readFileSync(join(box.base, 'notes.txt'), 'utf8')).toBe('ok');
  });
});
