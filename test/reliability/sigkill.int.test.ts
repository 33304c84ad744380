/**
 * SIGKILL rounds (reliability suite): a real process appends turn records as fast as commits allow and prints each
 * seq only after its commit; it is SIGKILLed at a seeded moment. After every kill the store must pass its structural
 * walk (a store killed mid-commit is not "damaged"), reopen with persistence, and hold every reported record, record
 * by record: present, in order, with the content the writer gave it (prompt = 1000 + its index in that round).
 */
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, it } from 'vitest';
import { openSessionStore } from '../../src/core/sessions/openSessionStore.js';
import { verifyLmdbFile } from '../../src/core/sessions/lmdbVerify.js';
import { requireDist, startFixture } from '../support/childLines.js';
import { pick, seeded, Tally } from './support/tally.js';

const ROUNDS = 24;
const dir = mkdtempSync(join(tmpdir(), 'ff-rel-kill-'));
mkdirSync(dir, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reliability: SIGKILL rounds', () => {
  it(`${ROUNDS} writers killed at seeded moments lose no committed record`, { timeout: 170_000 }, async () => {
    requireDist('core/sessions/openSessionStore.js');
    const tally = new Tally('sigkill-rounds');
    const next = seeded(2);
    let sessionId: string | undefined;
    const reported = new Map<number, number>(); // seq → prompt the writer gave it
    for (let round = 0; round < ROUNDS; round += 1) {
      const child = startFixture('appendLoop.mjs', sessionId === undefined ? [dir] : [dir, sessionId]);
      sessionId = (await child.waitFor((l) => l.startsWith('READY '))).slice('READY '.length);
      if (next() < 0.85) await child.waitFor((l) => /^\d+$/.test(l));
      await sleep(pick(next, 120));
      child.child.kill('SIGKILL');
      await child.exited();
      let index = 0;
      for (const line of child.lines) if (/^\d+$/.test(line)) reported.set(Number(line), 1000 + index++);

      const walk = verifyLmdbFile(join(dir, 'sessions.mdb'));
      tally.check(`round ${round}: structural walk`, walk.state === 'ok' ? null : JSON.stringify(walk));
      const opened = openSessionStore({ workspaceDir: dir });
      if (opened.store === null) {
        tally.check(`round ${round}: reopen`, opened.warning);
        continue;
      }
      const { records, skipped } = opened.store.records(sessionId);
      const bySeq = new Map(records.map((r) => [r.seq, r]));
      const wrong: string[] = [];
      for (const [seq, prompt] of reported) {
        const record = bySeq.get(seq) as { kind?: string; prompt?: number } | undefined;
        if (record === undefined) wrong.push(`seq ${seq} missing`);
        else if (record.kind !== 'turn' || record.prompt !== prompt) wrong.push(`seq ${seq} holds ${JSON.stringify(record)}`);
      }
      const ordered = records.every((r, i) => i === 0 || r.seq > records[i - 1]!.seq);
      tally.check(
        `round ${round}: ${reported.size} reported records`,
        wrong.length > 0 ? wrong.slice(0, 3).join('; ') : !ordered ? 'records out of order' : skipped.malformed + skipped.futureVersion > 0 ? `skipped ${JSON.stringify(skipped)}` : null,
      );
      await opened.store.close();
    }
    tally.finish(ROUNDS * 2);
  });
});
