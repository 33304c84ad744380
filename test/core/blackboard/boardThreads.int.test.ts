/**
 * The blackboard under true parallel posting: real worker threads (as agent workers are, and as two villages
 * sharing a work folder would be) post into one board at the same instant, as the same author, with the same
 * clock reading — so every post races for the same file name. No note may be lost or overwritten.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requireDist } from '../../support/childLines.js';

const THREADS = 4;
const POSTS = 12;
const BOARD_JS = new URL('../../../dist/core/blackboard/board.js', import.meta.url);

/** Each thread waits on the shared gate, then fires all its posts at once and reports the names it got. */
const THREAD_CODE = `
const { workerData, parentPort } = require('node:worker_threads');
(async () => {
  const { postNote, ensureBoard } = await import(workerData.boardJs);
  await ensureBoard(workerData.board);
  const gate = new Int32Array(workerData.gate);
  Atomics.add(gate, 1, 1);
  Atomics.wait(gate, 0, 0);
  const names = await Promise.all(Array.from({ length: workerData.posts }, (_, i) =>
    postNote(workerData.board, 'scout', 'Scout', 't' + workerData.id + '-' + i, 'body-' + workerData.id + '-' + i, workerData.nowMs)));
  parentPort.postMessage(names);
})().catch((e) => { parentPort.postMessage({ error: String(e) }); });
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ff-board-threads-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('posting from parallel threads', () => {
  it('keeps every note when threads race for the same name', async () => {
    requireDist('core/blackboard/board.js');
    const board = join(dir, 'blackboard');
    const gate = new SharedArrayBuffer(8);
    const flags = new Int32Array(gate);
    const nowMs = Date.UTC(2026, 11, 3, 2, 0, 0, 123);
    const workers = Array.from({ length: THREADS }, (_, id) =>
      new Worker(THREAD_CODE, { eval: true, workerData: { boardJs: pathToFileURL(BOARD_JS.pathname).href, board, gate, posts: POSTS, nowMs, id } }));
    const results = workers.map((w) => new Promise<unknown>((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    }));
    try {
      // Release the gate only when every thread is parked on it, so the posts really overlap.
      const deadline = Date.now() + 30_000;
      while (Atomics.load(flags, 1) < THREADS) {
        if (Date.now() > deadline) throw new Error('the posting threads did not get ready');
        await new Promise((r) => setTimeout(r, 10));
      }
      Atomics.store(flags, 0, 1);
      Atomics.notify(flags, 0);
      const got = (await Promise.all(results)) as Array<string[] | { error: string }>;
      for (const r of got) expect(r).toBeInstanceOf(Array);
      const names = (got as string[][]).flat();
      expect(new Set(names).size).toBe(THREADS * POSTS);

      const files = readdirSync(board).sort();
      // Every post is a file of its own; no temp file is left behind.
      expect(files).toHaveLength(THREADS * POSTS);
      expect(files.every((f) => /^20261203T020000123Z-scout(-\d+)?\.md$/.test(f))).toBe(true);
      const bodies = files.map((f) => /body-(\d+-\d+)/.exec(readFileSync(join(board, f), 'utf8'))?.[1]).sort();
      const expected = Array.from({ length: THREADS }, (_, t) => Array.from({ length: POSTS }, (_, i) => `${t}-${i}`)).flat().sort();
      expect(bodies).toEqual(expected);
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
  });
});
