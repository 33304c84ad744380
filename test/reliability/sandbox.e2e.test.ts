/**
 * The run sandbox under attack (issue 27), through the built `fuseforks-cli ask`: a stub model asks the agent to
 * `run` real shell commands under the allowlist `sh *`, each an escape the issue found on main — a planted
 * `$HOME/.ssh/id_ed25519`, another village's sessions.mdb, the village's own files, writes outside the work folder,
 * the D-Bus address and keyring, `FUSEFORKS_SECRET_*` from every readable /proc/<pid>/environ, a `setsid -f` sleeper,
 * a connection to a loopback port of this test, a memory hog past the agent's limit — in a seeded order, each a try
 * that holds when nothing leaks or survives. A normal command still runs with its real output. The same village
 * with `"sandbox": false` shows the key read, the outside written and the port reached: the escapes are real, so
 * these checks can fail.
 */
import { createServer, type Server } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { cliBudget, describeRun, letAgentRun, makeVillage, runCli, useCliSuite } from '../cli/support/cliProcess.js';
import { pollUntil } from '../support/pollUntil.js';
import { pick, seeded, Tally } from './support/tally.js';
import { sleepers } from '../support/sleepers.js';

const { temps, stub } = useCliSuite();
const KEY = `-----BEGIN OPENSSH PRIVATE KEY----- planted-${randomBytes(6).toString('hex')}`;
const OTHER = `other-village-sessions-${randomBytes(6).toString('hex')}`;
const SECRET = `sk-proj-SANDBOXsentinel-${randomBytes(6).toString('hex')}`;
const BUS = `unix:path=/tmp/ff-bus-${randomBytes(6).toString('hex')}`;
const SLEEP = `917.${100 + Math.floor(Math.random() * 800)}`;

let server: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  server = createServer((socket) => {
    connections += 1;
    socket.end('HELLO-FROM-HOST\n');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
});
afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
});

interface Village {
  dir: string;
  work: string;
  home: string;
  otherStore: string;
  outside: string;
}

/** A village whose agent `desk` may run `sh *` in its work folder, a planted home and another village beside it. */
function village(runJson: Record<string, unknown>): Village {
  const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }], world: {} });
  const work = temps.make('ff-sbx-work-');
  letAgentRun(dir, 'desk', ['sh *'], work);
  writeFileSync(join(dir, 'workspace/agents/desk/run.json'), JSON.stringify({ allow: ['sh *'], timeoutSecs: 30, ...runJson }));
  const home = temps.make('ff-sbx-home-');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh/id_ed25519'), `${KEY}\n`, { mode: 0o600 });
  const other = temps.make('ff-sbx-other-');
  mkdirSync(join(other, 'workspace'), { recursive: true });
  const otherStore = join(other, 'workspace/sessions.mdb');
  writeFileSync(otherStore, `${OTHER}\n`);
  return { dir, work, home, otherStore, outside: temps.make('ff-sbx-outside-') };
}

interface Attack {
  name: string;
  script: (v: Village) => string;
  /** Null = held; else what escaped. `body` = the tool result the model got back. */
  held: (body: string, v: Village) => string | null;
}

const attacks: Attack[] = [
  {
    name: 'read the planted ~/.ssh/id_ed25519 (by $HOME and by its real path)',
    script: (v) => `cat "$HOME/.ssh/id_ed25519" ${v.home}/.ssh/id_ed25519`,
    held: (body) => (body.includes(KEY) ? 'the private key was read' : null),
  },
  {
    name: "read another village's sessions.mdb",
    script: (v) => `cat ${v.otherStore}`,
    held: (body) => (body.includes(OTHER) ? "the other village's store was read" : null),
  },
  {
    name: "read and rewrite the village's own run.json and world.json",
    script: (v) => `cat ${v.dir}/workspace/world.json; echo '{"allow":["*"]}' > ${v.dir}/workspace/agents/desk/run.json`,
    held: (body, v) =>
      body.includes('stub-model') ? 'world.json was read' : readFileSync(join(v.dir, 'workspace/agents/desk/run.json'), 'utf8').includes('"*"') ? 'run.json was rewritten' : null,
  },
  {
    name: 'write outside the work folder (/tmp and a folder beside it)',
    script: (v) => `echo pwned > /tmp/ff-pwned-${SLEEP}; echo pwned > ${v.outside}/pwned`,
    held: (_body, v) => (existsSync(`/tmp/ff-pwned-${SLEEP}`) ? '/tmp was written' : existsSync(join(v.outside, 'pwned')) ? 'the outside folder was written' : null),
  },
  {
    name: 'the D-Bus address and the keyring (env, /proc, secret-tool)',
    script: () => `echo "[$DBUS_SESSION_BUS_ADDRESS]"; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep DBUS; secret-tool search service jp.outcasts.fuseforks 2>&1 | head -3`,
    held: (body) => (body.includes(BUS) ? 'the bus address was read' : null),
  },
  {
    name: 'FUSEFORKS_SECRET_* from /proc/$PPID/environ, /proc/1/environ and every /proc/*/environ',
    script: () => `tr '\\0' '\\n' < /proc/$PPID/environ; tr '\\0' '\\n' < /proc/1/environ; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c FUSEFORKS_SECRET_`,
    held: (body) => (body.includes(SECRET) ? 'the secret was read' : /FUSEFORKS_SECRET_STUB=/.test(body) ? 'the variable was seen' : null),
  },
  {
    name: 'a sleeper that leaves with env -i setsid -f',
    script: () => `env -i setsid -f sleep ${SLEEP}; echo left`,
    held: () => null, // checked after the ask: no `sleep ${SLEEP}` may be alive on the host
  },
  {
    name: 'a connection to a loopback port of this test',
    script: () => `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3' 2>&1; echo done`,
    held: (body) => (body.includes('HELLO-FROM-HOST') ? 'the port answered' : null),
  },
  {
    name: 'a memory hog past memoryMb (128 MB here)',
    script: () => `x=$(head -c 400000000 /dev/zero | tr '\\0' a); echo "held ${'$'}{#x}"`,
    held: (body) => (/held 400000000/.test(body) ? 'the hog got its 400 MB' : null),
  },
];

const NORMAL = `echo hi > out.txt; cat out.txt`;

/** Runs one ask whose model calls `run` once per script, then answers; returns each tool result, in order. */
async function askRunning(v: Village, scripts: string[], env: Record<string, string>): Promise<string[]> {
  stub().enqueueAll([...scripts.map((script) => reply.toolCalls([{ name: 'run', args: { command: 'sh', args: ['-c', script] } }])), reply.text('done')]);
  const run = await runCli(['ask', '--data-dir', v.dir, '--start', 'batch', '--secrets', 'env', '--run-approval', 'required', 'go'], env);
  expect(run.code, describeRun(run)).toBe(0);
  expect(stub().count).toBe(scripts.length + 1);
  const last = stub().requests[scripts.length]?.body as { messages?: Array<{ role: string; content: unknown }> };
  return (last.messages ?? []).filter((m) => m.role === 'tool').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

describe('reliability: the run sandbox', () => {
  it('every escape of the issue is contained, in a seeded order; a normal command keeps its real output', { timeout: cliBudget(2) }, async () => {
    const tally = new Tally('sandbox-escapes');
    const v = village({ memoryMb: 128 });
    const next = seeded(27);
    const order = [...attacks];
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = pick(next, i + 1);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const env = { FUSEFORKS_SECRET_STUB: SECRET, HOME: v.home, DBUS_SESSION_BUS_ADDRESS: BUS };
    const bodies = await askRunning(v, [...order.map((a) => a.script(v)), NORMAL], env);
    expect(bodies).toHaveLength(order.length + 1);
    order.forEach((attack, i) => tally.check(attack.name, attack.held(bodies[i] ?? '', v)));
    tally.check('no connection reached the test port', connections === 0 ? null : `${connections} connection(s)`);
    await pollUntil(() => sleepers(SLEEP).length === 0, { everyMs: 50 });
    tally.check(`no \`sleep ${SLEEP}\` survives the call`, sleepers(SLEEP).length === 0 ? null : `alive: ${sleepers(SLEEP).join(',')}`);
    const normal = bodies[order.length] ?? '';
    tally.check('the normal command ran with its output', /exit: 0/.test(normal) && /stdout:\nhi/.test(normal) ? null : normal.slice(0, 300));
    tally.check('its file is in the work folder', readFileSync(join(v.work, 'out.txt'), 'utf8') === 'hi\n' ? null : 'out.txt missing');
    tally.finish(attacks.length + 4);
  });

  it('with "sandbox": false the same commands escape (the checks above can fail)', { timeout: cliBudget(1) }, async () => {
    const v = village({ sandbox: false });
    const picked = attacks.filter((a) => /ssh|outside the work|loopback/.test(a.name));
    const before = connections;
    const bodies = await askRunning(v, picked.map((a) => a.script(v)), { FUSEFORKS_SECRET_STUB: SECRET, HOME: v.home });
    picked.forEach((attack, i) => expect(attack.held(bodies[i] ?? '', v), attack.name).not.toBeNull());
    expect(connections).toBeGreaterThan(before);
  });
});
