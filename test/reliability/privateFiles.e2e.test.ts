/**
 * Private files under a loose umask (reliability suite, issue 28): with umask 022 (files 0644, folders 0755 by
 * default) the BUILT CLI runs `init`, then on a second village `ask` (with a `remember` tool call), `sessions export`,
 * `schedules add`, `door enable` and `serve`; and the host's attachment store keeps an upload. Held when every file
 * and folder those runs created — the session store and its locks, the log, the export, Memory.md, schedules.json,
 * the shelf's mcp_server.json, serve.status.json, village_id, attachments, everything `init` copied — is 0600 / 0700.
 * Paths the test made itself (the data dir, world.json) are left out: the runtime never changes modes of what it found.
 */
import { statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { pathsUnder } from '../../src/core/privateFiles.js';
import { prepareAttachments } from '../../src/host/attachmentUploads.js';
import { reply } from '../support/stubLlm.js';
import { sample } from '../support/attachmentSamples.js';
import { cliBudget, describeRun, freePort, makeVillage, runCli, startCli, useCliSuite } from '../cli/support/cliProcess.js';
import { Tally } from './support/tally.js';

const { temps, stub } = useCliSuite();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-test-0000000000' };
let umaskBefore = 0;

// The forks pool runs this file in its own process, so the umask is this test's alone; children inherit it.
beforeAll(() => {
  umaskBefore = process.umask(0o022);
});
afterAll(() => {
  process.umask(umaskBefore);
});

/** Checks every path under `root` that is not in `before`: folders 0700, files 0600. */
function checkModes(tally: Tally, root: string, before: ReadonlySet<string>, label: string): string[] {
  const made = pathsUnder(root).filter((p) => !before.has(p));
  for (const path of made) {
    const info = statSync(path);
    const mode = info.mode & 0o777;
    const want = info.isDirectory() ? 0o700 : 0o600;
    tally.check(`${label}: ${relative(root, path)}`, mode === want ? null : `mode ${mode.toString(8)}, want ${want.toString(8)}`);
  }
  return made.map((p) => relative(root, p));
}

describe('reliability: private files under umask 022', () => {
  it('every file and folder the CLI and the host create is 0600 / 0700', { timeout: cliBudget(7) }, async () => {
    const tally = new Tally('private-files');

    // init into a data dir that does not exist yet: the copy of the example village.
    const initDir = join(temps.make(), 'village');
    const init = await runCli(['init', '--data-dir', initDir]);
    tally.check('init ran', init.code === 0 ? null : describeRun(init));
    const initMade = checkModes(tally, initDir, new Set(), 'init');
    tally.check('init: the data dir itself', (statSync(initDir).mode & 0o777) === 0o700 ? null : (statSync(initDir).mode & 0o777).toString(8));
    tally.check('init copied world.json', initMade.includes('workspace/world.json') ? null : initMade.join(', '));

    // A village the test wrote (0755 / 0644 under this umask), then every command that creates something.
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }] });
    const before = new Set(pathsUnder(dir));
    stub().enqueue(reply.tool('remember', { note: 'tea at four' }));
    const ask = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', 'remember tea'], KEY);
    tally.check('ask answered', ask.code === 0 ? null : describeRun(ask));
    const list = await runCli(['sessions', 'list', '-d', dir, '--json']);
    const sessionId = (JSON.parse(list.stdout) as { sessions: Array<{ id: string }> }).sessions[0]?.id ?? 'none';
    const exported = await runCli(['sessions', 'export', sessionId, '-d', dir, '--json']);
    tally.check('sessions export ran', exported.code === 0 ? null : describeRun(exported));
    const added = await runCli(['schedules', 'add', '-d', dir, '--to', 'desk', '--every', '60', '-m', 'hi', '--json']);
    tally.check('schedules add ran', added.code === 0 ? null : describeRun(added));
    const door = await runCli(['door', 'enable', '-d', dir, '--port', String(await freePort()), '--json']);
    tally.check('door enable ran', door.code === 0 ? null : describeRun(door));
    const serve = startCli(['serve', '--data-dir', dir, '--start', 'batch', '--secrets', 'env'], KEY);
    await serve.stderrLine((l) => l.includes('SERVING'));
    serve.child.kill('SIGTERM');
    const served = await serve.done;
    tally.check('serve ran', served.code === 0 ? null : describeRun(served));
    await prepareAttachments(join(dir, 'workspace'), [{ fileName: 'a.png', data: sample('image/png').data }], 'openai-compat');

    const made = checkModes(tally, dir, before, 'village');
    const expected = [
      'workspace/sessions.mdb', 'workspace/sessions.mdb-lock', 'workspace/sessions.mdb.owner', 'workspace/.fuseforks.lock',
      'workspace/fuseforks.log', 'workspace/exports', `workspace/exports/${sessionId}.jsonl`, 'workspace/agents',
      'workspace/agents/desk', 'workspace/agents/desk/Memory.md', 'workspace/schedules.json', 'mcp_server.json',
      'serve.status.json', 'workspace/village_id', 'workspace/attachments',
    ];
    for (const path of expected) tally.check(`created and checked: ${path}`, made.includes(path) ? null : `not created (made: ${made.join(', ')})`);
    tally.check('an attachment body was stored', made.some((p) => p.startsWith('workspace/attachments/') && p.endsWith('.png')) ? null : 'none');
    tally.finish(expected.length + 20);
  });
});
