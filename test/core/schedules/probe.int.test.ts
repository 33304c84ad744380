import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryDiagSink } from '../../../src/core/diag.js';
import { runApprovedProbe, runProbe, type ProbeRunRequest } from '../../../src/core/schedules/probe.js';
import type { ScheduleProbe } from '../../../src/core/schedules/types.js';
import { pollUntil } from '../../support/pollUntil.js';

let dir: string;
/** A real data dir layout: `{dir}/data/workspace` (a pre-check's default folder, inside the data dir). */
let workspace: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ff-probe-'));
  workspace = join(dir, 'data', 'workspace');
  mkdirSync(workspace, { recursive: true });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function request(script: string, extra: Partial<ScheduleProbe> = {}): ProbeRunRequest {
  return {
    probe: { command: 'sh', args: ['-c', script], expect: 'GO', timeoutSecs: 10, cwd: null, ...extra },
    workspaceDir: workspace,
    language: 'en',
  };
}

/** Live host pids whose command line is `sleep <one of secs>`. */
function sleepers(secs: string[]): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return secs.some((s) => readFileSync(`/proc/${name}/cmdline`, 'latin1') === `sleep\0${s}\0`) && isAlive(Number(name));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Alive = has a /proc entry that is not a zombie (an unreaped corpse is dead for our purpose). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('runProbe with real commands', () => {
  it('line 1 matches → match, the rest attached, the exit code ignored', async () => {
    const report = await runProbe(request('echo GO; echo detail; echo more; exit 3'));
    expect(report).toMatchObject({ outcome: 'match', exitCode: 3, appendix: 'detail\nmore', reason: null });
    expect(report.resolved).toMatch(/\/sh$/);
    expect(report.stdoutChars).toBe('GO\ndetail\nmore\n'.length);
  });

  it('line 1 differs → no_match', async () => {
    expect(await runProbe(request('echo WAIT; echo GO'))).toMatchObject({ outcome: 'no_match', exitCode: 0 });
  });

  it('runs in the sandbox: cwd null (the workspace, inside the data dir) is not bound, the probe starts in the empty home; a cleared environment', async () => {
    process.env.FF_PROBE_SECRET = 'should-not-leak';
    writeFileSync(join(workspace, 'world.json'), '{}');
    try {
      const report = await runProbe(request('echo GO; pwd; echo "[$FF_PROBE_SECRET]"; ls -A; test -e ' + join(workspace, 'world.json') + ' && echo SEEN'));
      expect(report.appendix).toBe('/home/sandbox\n[]');
    } finally {
      delete process.env.FF_PROBE_SECRET;
    }
  });

  it('a cwd outside the data dir is the probe folder, read-only', async () => {
    writeFileSync(join(dir, 'flag'), 'x');
    const report = await runProbe(request('echo GO; pwd; ls; touch made 2>/dev/null || echo READONLY', { cwd: dir }));
    expect(report.appendix).toBe(`${dir}\ndata\nflag\nREADONLY`);
    expect(existsSync(join(dir, 'made'))).toBe(false);
  });

  it('unknown program → error/not_found; missing cwd → error/cwd_missing; nothing runs', async () => {
    const notFound = await runProbe({ ...request(''), probe: { ...request('').probe, command: 'ff-no-such-program-xyz' } });
    expect(notFound).toMatchObject({ outcome: 'error', reason: 'not_found', resolved: null });
    const noCwd = await runProbe(request(`touch ${join(dir, 'marker')}`, { cwd: join(dir, 'gone') }));
    expect(noCwd).toMatchObject({ outcome: 'error', reason: 'cwd_missing' });
    expect(existsSync(join(dir, 'marker'))).toBe(false);
  });

  it('a capture cut inside line 1 → error/signal_truncated', async () => {
    const report = await runProbe({ ...request('printf GOGOGOGOGOGO'), stdoutCapChars: 4 });
    expect(report).toMatchObject({ outcome: 'error', reason: 'signal_truncated', stdoutChars: 4 });
  });

  it('a probe that sleeps past its timeout is killed with its whole process tree (setsid children too)', async () => {
    const report = await runProbe(request('setsid sleep 918.25 & sleep 918.5 & echo GO; sleep 918.75', { timeoutSecs: 1 }));
    expect(report.outcome).toBe('timeout');
    // SIGKILL is delivered at once but reaping is asynchronous: wait for the state, not for a time.
    await pollUntil(() => sleepers(['918.25', '918.5', '918.75']).length === 0, { everyMs: 20 });
    expect(sleepers(['918.25', '918.5', '918.75'])).toEqual([]);
  });
});

describe('runApprovedProbe', () => {
  it('unapproved → the command is NEVER executed; one note with counts only', async () => {
    const marker = join(dir, 'marker');
    const diag = new MemoryDiagSink();
    const report = await runApprovedProbe({ ...request(`touch ${marker}; echo GO`), taskId: 't1', approved: false, diag });
    expect(report.outcome).toBe('unapproved');
    expect(existsSync(marker)).toBe(false);
    expect(diag.notes).toEqual([
      { kind: 'schedule probe', fields: { id: 't1', outcome: 'unapproved', exit: null, reason: null, stdout_chars: 0 }, level: 'info' },
    ]);
  });

  it('approved → runs; the note never carries stdout text', async () => {
    const diag = new MemoryDiagSink();
    const report = await runApprovedProbe({ ...request('echo GO; echo private-detail'), taskId: 't2', approved: true, diag });
    expect(report.outcome).toBe('match');
    expect(diag.notes[0]?.fields).toEqual({ id: 't2', outcome: 'match', exit: 0, reason: null, stdout_chars: 18 });
    expect(JSON.stringify(diag.notes)).not.toContain('private-detail');
  });
});
