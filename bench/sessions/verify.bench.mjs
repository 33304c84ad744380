// What the structural walk of sessions.mdb adds to every boot (ask's cold start included): walk time for stores of
// growing size, against two same-run baselines — reading the same file front to back (the I/O floor) and lmdb's own
// open + first read (what the boot pays anyway). Run after `npm run build`:
//   node bench/sessions/verify.bench.mjs [sizesInRecords=2000,20000,100000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { verifyLmdbFile } from '../../dist/core/sessions/lmdbVerify.js';

const SIZES = (process.argv[2] ?? '2000,20000,100000').split(',').map(Number);
const ROUNDS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function makeStore(file, records) {
  const env = open({ path: file, overlappingSync: false, maxDbs: 4 });
  const sessions = env.openDB({ name: 'sessions' });
  const db = env.openDB({ name: 'records' });
  for (let i = 0; i < records; i += 1) {
    void db.put([`s${i % 40}`, i], { v: 1, kind: 'message', text: 'x'.repeat(200 + (i % 7) * 150) });
    if (i % 40 === 0) void sessions.put(`s${i % 40}`, { title: 't', updatedAtMs: i });
    if (i % 5000 === 4999) await db.committed;
  }
  await db.committed;
  await env.close();
}

function time(fn) {
  const out = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return median(out);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ff-bench-verify-'));
try {
  console.log('records   file MB   walk ms   read-file ms   lmdb open+get ms   walk/read   walk/lmdb');
  for (const records of SIZES) {
    const file = path.join(dir, `s${records}.mdb`);
    await makeStore(file, records);
    const mb = fs.statSync(file).size / 1048576;
    const verdict = verifyLmdbFile(file);
    if (verdict.state !== 'ok') throw new Error(`the bench store failed its own walk: ${JSON.stringify(verdict)}`);
    const walkMs = time(() => verifyLmdbFile(file));
    const readMs = time(() => fs.readFileSync(file));
    const lmdbMs = time(() => {
      const env = open({ path: file, overlappingSync: false, maxDbs: 4, readOnly: true });
      env.openDB({ name: 'records' }).get(['s0', 0]);
      env.close();
    });
    console.log(
      `${String(records).padStart(7)}   ${mb.toFixed(1).padStart(7)}   ${walkMs.toFixed(1).padStart(7)}   ${readMs.toFixed(1).padStart(12)}   ${lmdbMs.toFixed(1).padStart(16)}   ${(walkMs / readMs).toFixed(2).padStart(9)}   ${(walkMs / lmdbMs).toFixed(1).padStart(9)}`,
    );
    console.log(JSON.stringify({ metric: 'session store walk', records, fileMb: Number(mb.toFixed(2)), pages: verdict.pages, walkMs, readFileMs: readMs, lmdbOpenGetMs: lmdbMs }));
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
