/**
 * `run` with real child processes: policy per mode, pending written to run.json, the allowlisted env,
 * and the whole process tree killed on timeout and on abort.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryDiagSink } from '../../../src/core/diag.js';
import type { RunApprovalMode } from '../../../src/core/tools/contract.js';
import { runTool } from '../../../src/core/tools/run.js';
import { runPolicyPath } from '../../../src/core/tools/runPolicyFile.js';
import { bodyOf, makeSandbox, okOf, toolCtx, type Sandbox } from './fixtures.js';
import { pollUntil } from '../../support/pollUntil.js';
import { sleepers } from '../../support/sleepers.js';

let box: Sandbox;
beforeEach(() => {
  box = makeSandbox();
});
afterEach(() => {
  delete process.env['FUSEFORKS_SECRET_X'];
  box.cleanup();
});

const policyFile = () => runPolicyPath(box.workspace, 'agent_01');
function writePolicy(policy: Record<string, unknown>): void {
  mkdirSync(join(policyFile(), '..'), { recursive: true });
  writeFileSync(policyFile(), JSON.stringify(policy));
}
const readPolicy = () => JSON.parse(readFileSync(policyFile(), 'utf8')) as Record<string, unknown>;
const run = (command: string, args: string[], mode: RunApprovalMode = 'required', signal?: AbortSignal) =>
  runTool.call({ command, args }, toolCtx(box, { runApproval: mode, ...(signal ? { signal } : {}) }));

/** Polls (bounded, no timing assertion) until `pid` is gone; returns the last kill(pid, 0) error code. */
async function waitGone(pid: number): Promise<string> {
  let code = 'still alive';
  await pollUntil(() => {
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      code = (error as NodeJS.ErrnoException).code ?? 'unknown';
      return true;
    }
  }, { everyMs: 50 });
  return code;
}

describe('run: approval modes', () => {
  it('no-approval refuses entirely and writes nothing', async () => {
    writePolicy({ allow: ['echo *'] });
    const reply = await run('echo', ['hi'], 'no-approval');
    expect(okOf(reply)).toBe(false);
    expect(bodyOf(reply)).toMatch(/disabled/);
  });

  it('required: unknown is refused and queued as pending (deduped), nothing runs', async () => {
    const first = await run('touch', ['made.txt']);
    expect(okOf(first)).toBe(false);
    expect(bodyOf(first)).toMatch(/recorded for the user/);
    await run('TOUCH', ['made.txt']);
    expect(existsSync(join(box.root, 'made.txt'))).toBe(false);
    const pending = readPolicy()['pending'] as Array<Record<string, unknown>>;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ command: 'touch', args: ['made.txt'], count: 2 });
  });

  it('required: allowed runs in the work folder and reports exit and stdout', async () => {
    writePolicy({ version: 1, allow: ['sh *'], deny: [], pending: [], timeoutSecs: 30 });
    const diag = new MemoryDiagSink();
    const reply = await runTool.call({ command: 'sh', args: ['-c', 'pwd; echo oops >&2; exit 3'] }, toolCtx(box, { diag }));
    const body = bodyOf(reply);
    expect(body).toMatch(/^run: \/.*\/sh\nexit: 3\nstdout:\n.*\/work\n/);
    expect(body).toContain('stderr:\noops');
    expect(diag.notes.map((n) => n.kind)).toEqual(['run decision', 'run']);
    expect(diag.notes[0]?.fields).toMatchObject({ decision: 'allowed', args: 2 });
    expect(JSON.stringify(diag.notes)).not.toContain('oops');
    expect(JSON.stringify(diag.notes)).not.toContain('pwd');
  });

  it('denied is refused in every mode', async () => {
    writePolicy({ allow: ['touch *'], deny: ['touch *'] });
    for (const mode of ['required', 'auto-approve'] as const) {
      expect(okOf(await run('touch', ['x'], mode))).toBe(false);
    }
    expect(existsSync(join(box.root, 'x'))).toBe(false);
  });

  it('auto-approve runs an unknown command and records its exact pattern', async () => {
    const reply = await run('touch', ['made.txt'], 'auto-approve');
    expect(bodyOf(reply)).toMatch(/exit: 0/);
    expect(existsSync(join(box.root, 'made.txt'))).toBe(true);
    expect(readPolicy()['allow']).toEqual(['touch made.txt']);
  });

  it('a broken run.json is never overwritten and nothing runs', async () => {
    mkdirSync(join(policyFile(), '..'), { recursive: true });
    writeFileSync(policyFile(), '{"allow": [');
    for (const mode of ['required', 'auto-approve'] as const) {
      const reply = await run('touch', ['x'], mode);
      expect(bodyOf(reply)).toMatch(/run\.json is broken/);
    }
    expect(readFileSync(policyFile(), 'utf8')).toBe('{"allow": [');
    expect(existsSync(join(box.root, 'x'))).toBe(false);
  });

  it('malformed commands, missing programs and no work folder are refusals', async () => {
    writePolicy({ allow: ['no-such-program-ff *', 'echo *'] });
    expect(bodyOf(await run('/bin/echo', ['x']))).toMatch(/bare program name/);
    expect(bodyOf(await run('no-such-program-ff', []))).toMatch(/not found on PATH/);
    const none = await runTool.call({ command: 'echo', args: [] }, toolCtx(box, { workDir: null }));
    expect(bodyOf(none)).toMatch(/work folder/);
  });

  it('required: the pending request keeps where and why the agent asked', async () => {
    await runTool.call({ command: 'make', args: ['all'] }, toolCtx(box, { reason: { kind: 'written', text: 'build the site' } }));
    const pending = readPolicy()['pending'] as Array<Record<string, unknown>>;
    expect(pending[0]).toMatchObject({ command: 'make', args: ['all'], cwd: box.root, reason: 'build the site' });
  });

  it('approved once: the next run of that line runs, the one after is a new request', async () => {
    writePolicy({ version: 1, allow: [], deny: [], once: ['touch once.txt'], pending: [], timeoutSecs: 30, note: 'mine' });
    expect(bodyOf(await run('touch', ['once.txt']))).toMatch(/exit: 0/);
    expect(existsSync(join(box.root, 'once.txt'))).toBe(true);
    expect(readPolicy()['once']).toBeUndefined();
    expect(readPolicy()['note']).toBe('mine');
    expect(bodyOf(await run('touch', ['once.txt']))).toMatch(/recorded for the user/);
  });

  it('a rejected line gets the rejection text and does not run', async () => {
    writePolicy({ deny: ['touch no.txt'] });
    const reply = await run('touch', ['no.txt']);
    expect(okOf(reply)).toBe(false);
    expect(bodyOf(reply)).toMatch(/rejected .*Do not ask for it again/);
    expect(existsSync(join(box.root, 'no.txt'))).toBe(false);
  });

  it('keeps keys it does not know when it records a request', async () => {
    writePolicy({ version: 1, allow: [], futureKey: [1, 2], comment: 'hand-written' });
    await run('curl', ['x']);
    expect(readPolicy()).toMatchObject({ futureKey: [1, 2], comment: 'hand-written', pending: [{ command: 'curl' }] });
  });

  it('describes the allow patterns, or that nothing is allowed yet', () => {
    const p = { agentId: 'agent_01', workDir: box.root, enabledTools: ['run'], language: 'en' as const, workspaceDir: box.workspace };
    expect(runTool.specFor(p)?.description).toMatch(/Nothing is allowed yet/);
    writePolicy({ allow: ['git status', 'npm test'] });
    expect(runTool.specFor(p)?.description).toMatch(/Allowed patterns: git status \| npm test/);
  });
});

describe('run: the child', () => {
  it('never sees secrets from the parent env', async () => {
    process.env['FUSEFORKS_SECRET_X'] = 'hunter2-value';
    writePolicy({ allow: ['env'] });
    const body = bodyOf(await run('env', []));
    expect(body).toMatch(/exit: 0/);
    expect(body).toMatch(/PATH=/);
    expect(body).not.toContain('FUSEFORKS_SECRET_X');
    expect(body).not.toContain('hunter2');
    const names = body.split('\n').filter((l) => /^[A-Z_]+=/.test(l)).map((l) => l.split('=')[0]);
    expect(names.every((n) => ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TERM', 'TZ', 'TMPDIR', 'TEMP', 'TMP', 'PWD', 'SHLVL', '_', 'FUSEFORKS_RUN_ID'].includes(n ?? ''))).toBe(true);
  });

  it('caps stdout at 8,000 chars', async () => {
    writePolicy({ allow: ['sh *'] });
    const body = bodyOf(await run('sh', ['-c', 'head -c 20000 /dev/zero | tr "\\0" a']));
    expect(body).toMatch(/a{7999}…\n\(head only of 20000 bytes\)/);
  });

  // The two below read the child's pid from its own output, which only means the host's pid without the sandbox's
  // PID namespace: they cover the opt-out (`"sandbox": false`); the sandboxed kill is in the issue-19 block below.
  it('kills the whole process tree on timeout (sandbox off)', async () => {
    writePolicy({ allow: ['sh *'], timeoutSecs: 1, sandbox: false });
    const reply = await run('sh', ['-c', 'sleep 60 & echo $!; wait']);
    const body = bodyOf(reply);
    expect(okOf(reply)).toBe(false);
    expect(body).toMatch(/exit: timeout \(killed after 1 s\)/);
    const pid = Number(/stdout:\n(\d+)/.exec(body)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(await waitGone(pid)).toBe('ESRCH');
  });

  it('kills the whole process tree on abort (sandbox off)', async () => {
    writePolicy({ allow: ['sh *'], timeoutSecs: 600, sandbox: false });
    const ac = new AbortController();
    const pending = run('sh', ['-c', 'sleep 60 & echo $! > gc.pid; wait'], 'required', ac.signal);
    const pidFile = join(box.root, 'gc.pid');
    await pollUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', { everyMs: 25 });
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    ac.abort();
    const reply = await pending;
    expect(bodyOf(reply)).toMatch(/exit: interrupted/);
    expect(await waitGone(pid)).toBe('ESRCH');
  });
});

/** Polls (bounded, no timing assertion) until no `sleep <secs>` is alive; returns what is still alive. */
async function sleepersGone(secs: string): Promise<number[]> {
  await pollUntil(() => sleepers(secs).length === 0, { everyMs: 50 });
  return sleepers(secs);
}

describe('run: children that leave the process group (issue 19)', () => {
  it('a setsid child left behind by a command that exits is killed, and the call does not wait for it', async () => {
    writePolicy({ allow: ['sh *'], timeoutSecs: 600 });
    // The shell waits (bounded) until `sleep` runs, i.e. after setsid(): the group kill alone cannot reach it.
    const body = bodyOf(await run('sh', ['-c', 'setsid sleep 901.25 & for i in $(seq 200); do pgrep -f "^sleep 901.25$" >/dev/null && break; sleep 0.05; done; echo started']));
    expect(body).toMatch(/exit: 0/);
    expect(body).toContain('started');
    expect(await sleepersGone('901.25')).toEqual([]);
  });

  it('on timeout, a setsid child holding the output pipes is killed with the rest and the call returns', async () => {
    writePolicy({ allow: ['sh *'], timeoutSecs: 1 });
    const reply = await run('sh', ['-c', 'setsid sleep 902.25 & sleep 902.5']);
    expect(bodyOf(reply)).toMatch(/exit: timeout \(killed after 1 s\)/);
    expect(await sleepersGone('902.25')).toEqual([]);
    expect(await sleepersGone('902.5')).toEqual([]);
  });

  it('a child that also clears its environment is still found through its parent', async () => {
    writePolicy({ allow: ['sh *'], timeoutSecs: 1 });
    const reply = await run('sh', ['-c', 'env -i setsid sleep 903.25 & sleep 903.5']);
    expect(bodyOf(reply)).toMatch(/exit: timeout/);
    expect(await sleepersGone('903.25')).toEqual([]);
  });

  it('on abort (Ctrl+C), a setsid child is killed and the call ends', async () => {
    writePolicy({ allow: ['sh *'], timeoutSecs: 600 });
    const ac = new AbortController();
    const pending = run('sh', ['-c', 'setsid sleep 904.25 & echo go; sleep 904.5'], 'required', ac.signal);
    await pollUntil(() => sleepers('904.25').length > 0, { everyMs: 25 });
    ac.abort();
    expect(bodyOf(await pending)).toMatch(/exit: interrupted/);
    expect(await sleepersGone('904.25')).toEqual([]);
    expect(await sleepersGone('904.5')).toEqual([]);
  });
});
