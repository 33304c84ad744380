import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approvalKey, ProbeApprovals, probeKey } from '../../../src/core/schedules/probeApprovals.js';
import { villagePaths } from '../../../src/core/village/paths.js';

const VILLAGE = '9b2f6c1e-3d4a-4f5b-8c6d-7e8f9a0b1c2d';
const probe = { command: 'sh', args: ['-c', 'echo GO'], cwd: null };

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ff-appr-'));
  file = villagePaths(dir).shelf.probeApprovals;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('approvalKey', () => {
  it('is sha256 hex over compact JSON with keys args, command, cwd, villageId in that order', () => {
    const canonical = `{"args":["-c","echo GO"],"command":"sh","cwd":null,"villageId":"${VILLAGE}"}`;
    const expected = createHash('sha256').update(canonical).digest('hex');
    expect(approvalKey({ ...probe, villageId: VILLAGE })).toBe(expected);
    expect(probeKey(probe, VILLAGE)).toBe(expected);
  });

  it('changes with any part: argument order, cwd as written, village', () => {
    const base = approvalKey({ ...probe, villageId: VILLAGE });
    expect(approvalKey({ ...probe, args: ['echo GO', '-c'], villageId: VILLAGE })).not.toBe(base);
    expect(approvalKey({ ...probe, cwd: '/tmp', villageId: VILLAGE })).not.toBe(base);
    expect(approvalKey({ ...probe, villageId: VILLAGE.replace('9', '8') })).not.toBe(base);
  });
});

describe('ProbeApprovals (shelf file)', () => {
  it('missing file = nothing approved; approve writes sorted hashes, owner-only; revoke removes', async () => {
    const approvals = await ProbeApprovals.load(file);
    expect(approvals.isApproved(probe, VILLAGE)).toBe(false);
    const k1 = probeKey(probe, VILLAGE);
    const k2 = probeKey({ ...probe, args: ['x'] }, VILLAGE);
    await approvals.approve(k1);
    await approvals.approve(k2);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ hashes: [k1, k2].sort() });
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    const reloaded = await ProbeApprovals.load(file);
    expect(reloaded.isApproved(probe, VILLAGE)).toBe(true);
    expect(reloaded.isApproved(probe, '')).toBe(false);
    await reloaded.revoke(k1);
    expect((await ProbeApprovals.load(file)).list()).toEqual([k2]);
    await reloaded.retainOnly([]);
    expect((await ProbeApprovals.load(file)).list()).toEqual([]);
  });

  it('an empty village id never matches, even if its hash is on the shelf', async () => {
    const approvals = await ProbeApprovals.load(file);
    await approvals.approve(probeKey(probe, ''));
    expect(approvals.isApproved(probe, '')).toBe(false);
  });

  it('an unreadable file = no approvals, and it is never overwritten', async () => {
    const broken = `{"hashes": ["${probeKey(probe, VILLAGE)}"`;
    await writeFile(file, broken);
    const approvals = await ProbeApprovals.load(file);
    expect(approvals.isApproved(probe, VILLAGE)).toBe(false);
    expect(approvals.blocked).not.toBeNull();
    await expect(approvals.approve(probeKey(probe, VILLAGE))).rejects.toMatchObject({ code: 'CONFIG_PARSE' });
    await expect(approvals.revoke('a'.repeat(64))).rejects.toMatchObject({ code: 'CONFIG_PARSE' });
    expect(await readFile(file, 'utf8')).toBe(broken);
  });

  it('other keys of the file survive a write', async () => {
    await writeFile(file, JSON.stringify({ note: 'kept', hashes: [] }));
    const approvals = await ProbeApprovals.load(file);
    await approvals.approve(probeKey(probe, VILLAGE));
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ note: 'kept', hashes: [probeKey(probe, VILLAGE)] });
  });
});
