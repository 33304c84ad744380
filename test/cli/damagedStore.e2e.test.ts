/**
 * A damaged sessions.mdb, end to end on the built binary: `check` reports SESSION_STORE_CORRUPT (reading the file
 * only), and `ask` answers without persistence, says why and how to fix it on stderr and in the log, and leaves the
 * damaged file byte-identical. Before the structural walk, lmdb-js killed the process with SIGSEGV/SIGBUS here.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { cliBudget, describeRun, logRecords, makeVillage, runCli, useCliSuite } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-test-0000000000' };

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A real store written by a first ask, then its pages past the two meta pages overwritten with seeded bytes. */
async function villageWithDamagedStore(): Promise<{ dir: string; store: string }> {
  stub().respond(() => reply.text('first'));
  const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
  const first = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', 'hello'], KEY);
  expect(first.code, describeRun(first)).toBe(0);
  const store = join(dir, 'workspace/sessions.mdb');
  const bytes = readFileSync(store);
  let seed = 19;
  for (let i = 8192; i < bytes.length; i += 1) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = seed & 0xff;
  }
  writeFileSync(store, bytes);
  stub().reset();
  return { dir, store };
}

describe('a damaged session store', () => {
  it('check: a SESSION_STORE_CORRUPT warning naming the file, exit 0, the file untouched', { timeout: cliBudget(2) }, async () => {
    const { dir, store } = await villageWithDamagedStore();
    const before = sha(store);
    const run = await runCli(['check', '--for', 'ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', '--json'], KEY);
    expect(run.code, describeRun(run)).toBe(0);
    const findings = (JSON.parse(run.stdout) as { findings: Array<{ code: string; level: string; message: string; fix: string }> }).findings;
    const found = findings.find((f) => f.code === 'SESSION_STORE_CORRUPT');
    expect(found?.level).toBe('warn');
    expect(found?.message).toContain(store);
    expect(found?.fix).toMatch(/aside/);
    expect(sha(store)).toBe(before);
  });

  it('ask: answered (0) without persistence; the WARN names file, reason and fix; the file stays byte-identical', { timeout: cliBudget(2) }, async () => {
    const { dir, store } = await villageWithDamagedStore();
    const before = sha(store);
    stub().respond(() => reply.text('still answering'));
    const run = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', 'again'], KEY);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.signal).toBeNull();
    expect(run.stdout).toBe('still answering\n');
    expect(run.stderr).toMatch(/WARN session store: .*code=SESSION_STORE_CORRUPT file=\S*sessions\.mdb reason=.*page.* fix=move /);
    const warn = logRecords(dir).find((r) => r.msg === 'session store' && r.code === 'SESSION_STORE_CORRUPT');
    expect(warn?.file).toBe(store);
    expect(String(warn?.fix)).toContain('aside');
    expect(sha(store)).toBe(before);
    expect(existsSync(`${store}-lock`)).toBe(true); // made by the first, healthy ask; never touched since
  });
});
