/**
 * Damaged session stores (reliability suite): seeded corruptions of a real store — random bytes past the meta
 * pages, bit flips and zeroed pages in the reachable tree, a truncated file, a damaged or lying meta page, swapped
 * pages, garbage appended. Each copy is opened by a real process the way the boot does and then used (list, read,
 * append). Held when no process dies by a signal, and a store that fails the walk is refused with
 * SESSION_STORE_CORRUPT and left byte-identical (never opened, never written); damage the walk lets through (unused
 * pages) must then be harmless to lmdb.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openSessionStore } from '../../src/core/sessions/openSessionStore.js';
import { requireDist, startFixture } from '../support/childLines.js';
import { pick, seeded, Tally } from './support/tally.js';

const COPIES = 36;
const PAGE = 4096;
const root = mkdtempSync(join(tmpdir(), 'ff-rel-damage-'));
let base: Buffer;
afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeAll(async () => {
  // A real store, written through the store itself: 9 sessions, ~900 records of varied size (some past a page).
  const ws = join(root, 'base');
  mkdirSync(ws, { recursive: true });
  const opened = openSessionStore({ workspaceDir: ws });
  if (opened.store === null) throw new Error(opened.warning);
  const ids: string[] = [];
  for (let s = 0; s < 9; s += 1) ids.push((await opened.store.create()).id);
  const appends: Promise<unknown>[] = [];
  for (let i = 0; i < 900; i += 1) appends.push(opened.store.append(ids[i % 9]!, { kind: 'summary', agentId: 'a', text: 'x'.repeat((i * 53) % 5000), coversUpToSeq: i }));
  await Promise.all(appends);
  await opened.store.close();
  base = readFileSync(join(ws, 'sessions.mdb'));
});

/** The meta page lmdb would pick, and the reachable tree roots (main, then the named databases). */
function roots(bytes: Buffer): number[] {
  const meta = bytes.readBigUInt64LE(152) >= bytes.readBigUInt64LE(PAGE + 152) ? 0 : PAGE;
  const main = Number(bytes.readBigUInt64LE(meta + 24 + 24 + 48 + 40));
  const out = [main];
  const page = main * PAGE;
  for (let i = 0; i < bytes.readUInt16LE(page + 20) / 2; i += 1) {
    const node = page + bytes.readUInt16LE(page + 24 + 2 * i) + 24;
    const root = bytes.readBigUInt64LE(node + 8 + bytes.readUInt16LE(node + 6) + 40);
    if (root !== 2n ** 64n - 1n) out.push(Number(root));
  }
  return out;
}

type Damage = (b: Buffer, next: () => number) => Buffer;
const DAMAGES: Array<[string, Damage]> = [
  ['random bytes past the first 8 KiB', (b, next) => { for (let i = 2 * PAGE; i < b.length; i += 1) b[i] = pick(next, 256); return b; }],
  ['a random run of bytes somewhere past the metas', (b, next) => { const at = 2 * PAGE + pick(next, b.length - 3 * PAGE); for (let i = 0; i < 64 + pick(next, 8000) && at + i < b.length; i += 1) b[at + i] = pick(next, 256); return b; }],
  ['bit flips in a reachable tree page header', (b, next) => { const r = roots(b); const p = r[pick(next, r.length)]!; for (let k = 0; k < 3; k += 1) b[p * PAGE + pick(next, 64)]! ^= 1 << pick(next, 8); return b; }],
  ['a reachable tree page zeroed', (b, next) => { const r = roots(b); const p = r[pick(next, r.length)]!; b.fill(0, p * PAGE, (p + 1) * PAGE); return b; }],
  ['a node pointer of a reachable page sent astray', (b, next) => { const r = roots(b); const p = r[pick(next, r.length)]!; b.writeUInt16LE(pick(next, 65536), p * PAGE + 24); return b; }],
  ['truncated at a random page', (b, next) => b.subarray(0, PAGE * (2 + pick(next, Math.max(1, b.length / PAGE - 3))))],
  ['the second meta page filled with garbage', (b, next) => { for (let i = PAGE; i < 2 * PAGE; i += 1) b[i] = pick(next, 256); return b; }],
  ['the newest meta lies about its last page', (b, next) => { const m = b.readBigUInt64LE(152) >= b.readBigUInt64LE(PAGE + 152) ? 0 : PAGE; b.writeBigUInt64LE(BigInt(b.length / PAGE + 1 + pick(next, 1000)), m + 144); return b; }],
  ['the newest meta points its main tree at a random page', (b, next) => { const m = b.readBigUInt64LE(152) >= b.readBigUInt64LE(PAGE + 152) ? 0 : PAGE; b.writeBigUInt64LE(BigInt(2 + pick(next, b.length / PAGE - 2)), m + 24 + 24 + 48 + 40); return b; }],
  ['two reachable pages swapped', (b, next) => { const r = roots(b); if (r.length < 2) return b; const x = r[0]!; const y = r[1 + pick(next, r.length - 1)]!; const t = Buffer.from(b.subarray(x * PAGE, (x + 1) * PAGE)); b.copy(b, x * PAGE, y * PAGE, (y + 1) * PAGE); t.copy(b, y * PAGE); return b; }],
  ['random bytes in an unused tail page (harmless)', (b, next) => { const extra = Buffer.alloc(PAGE * 2); for (let i = 0; i < extra.length; i += 1) extra[i] = pick(next, 256); return Buffer.concat([b, extra]); }],
  ['the whole file replaced by garbage', (b, next) => { for (let i = 0; i < b.length; i += 1) b[i] = pick(next, 256); return b; }],
];

const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('reliability: damaged session stores', () => {
  it(`${COPIES} seeded corruptions never crash a process, and a refused store stays byte-identical`, { timeout: 170_000 }, async () => {
    requireDist('core/sessions/openSessionStore.js');
    const tally = new Tally('damaged-stores');
    const next = seeded(3);
    const refusedKinds = new Set<string>();
    for (let i = 0; i < COPIES; i += 1) {
      const [kind, damage] = DAMAGES[i % DAMAGES.length]!;
      const ws = join(root, `copy-${i}`);
      mkdirSync(ws, { recursive: true });
      const bytes = damage(Buffer.from(base), next);
      writeFileSync(join(ws, 'sessions.mdb'), bytes);
      const before = sha(bytes);
      const child = startFixture('openDamaged.mjs', [ws]);
      const line = await child.waitFor((l) => l.startsWith('{')).catch(() => null);
      await child.exited();
      const label = `copy ${i} (${kind})`;
      if (child.child.signalCode !== null || child.child.exitCode !== 0 || line === null) {
        tally.check(label, `the process ended with ${child.child.signalCode ?? child.child.exitCode}`);
        continue;
      }
      const result = JSON.parse(line) as { store: boolean; code?: string; readError?: string | null };
      if (!result.store) {
        refusedKinds.add(kind);
        const after = sha(readFileSync(join(ws, 'sessions.mdb')));
        tally.check(label, result.code !== 'SESSION_STORE_CORRUPT' ? `refused with ${result.code}` : after !== before ? 'the refused file was changed' : null);
      } else {
        tally.check(label, null);
      }
      rmSync(ws, { recursive: true, force: true });
    }
    // Positive control: the structural damages were refused (not merely survived by luck).
    tally.check('structural damage is refused', refusedKinds.size < 6 ? `only ${[...refusedKinds].join(', ')}` : null);
    tally.finish(COPIES);
  });
});
