/**
 * The image, built and run for real with podman (one build per run, shared by every case): in the container
 * `seed`, `check` and `ask` against a loopback stub model with `--secrets env`; `serve` answering through the door
 * via the Caddy proxy with the proxy's basic auth (and refusing without it); a second container on the same /data
 * exits 4; `podman stop` (SIGTERM to tini) closes with exit 0 and the lock released; a restart keeps the
 * conversation; `status` goes unhealthy when serve hangs and when it is killed.
 *
 * Skipped — loudly — only where podman cannot run; under CI it must run (a missing podman fails the suite).
 */
import { randomBytes } from 'node:crypto';
import { chownSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startStubLlm, type StubLlm } from '../support/stubLlm.js';
import { freePort, makeVillage, ROOT, runCli, Temps } from '../cli/support/cliProcess.js';
import { chownTree, listFiles } from './support.js';
import { buildImages, contextListing, IMAGE, LIMITS, podman, podmanProblem, PROXY_IMAGE, removeImages, run, type Ran } from '../../scripts/podmanImage.mjs';

const problem = podmanProblem();
if (problem !== null && process.env.CI !== undefined) throw new Error(`container tests must run in CI: ${problem}`);
if (problem !== null) console.warn(`\n!!! SKIPPING the container tests: ${problem} !!!\n`);

/** Each case runs several containers; bounded waits inside, never a timing assertion. */
const CASE_MS = 240_000;
const TOKEN = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const SECRET = { FUSEFORKS_SECRET_STUB: 'sk-container-test-0001' };
const USER = 'caller';
const PASSWORD = 'proxy-pass-7731';
/**
 * Container names are unique per run, so two runs on one machine (or a container an interrupted run left behind)
 * never collide; afterAll removes exactly the names this run started.
 */
const RUN = `${process.pid}-${randomBytes(3).toString('hex')}`;
const VILLAGE = `ff-test-village-${RUN}`;
const PROXY = `ff-test-proxy-${RUN}`;
const SECOND = `ff-test-second-${RUN}`;
const temps = new Temps();
const names: string[] = [];
let stub: StubLlm;
let scratch: string;
let data: string;
let bake: string;
let certs: string;
let doorPort: number;
let proxyPort: number;
let context: string;

async function until(test: () => Promise<boolean>, what: string, ms = 90_000): Promise<void> {
  for (let waited = 0; waited < ms; waited += 500) {
    if (await test()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** `podman run --rm` of a fuseforks-cli command in the image, on the test's /data. */
function cli(args: string[], env: Record<string, string> = {}, mounts: string[] = []): Promise<Ran> {
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  return podman(['run', '--rm', '--network', 'host', ...LIMITS, ...envArgs, '-v', `${data}:/data`, ...mounts, '--entrypoint', 'fuseforks-cli', IMAGE, ...args], 180_000);
}

/** Starts the image's own entry point (serve) detached, as `name`. */
async function startServe(name: string): Promise<Ran> {
  names.push(name);
  const envArgs = Object.entries(SECRET).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  return podman(['run', '-d', '--name', name, '--network', 'host', ...LIMITS, ...envArgs, '-v', `${data}:/data`, IMAGE]);
}

const execStatus = (name: string, extra: string[] = []): Promise<Ran> => podman(['exec', name, 'fuseforks-cli', 'status', '--data-dir', '/data', ...extra]);

/** One door ask through the proxy (real TLS, verified against the test CA). */
async function doorAsk(message: string, credentials = `${USER}:${PASSWORD}`): Promise<{ text: string; isError: boolean }> {
  const r = await run(process.execPath, [join(ROOT, 'test/fixtures/ship/doorClient.mjs'), `https://localhost:${proxyPort}/mcp`, credentials, message], 120_000, {
    ...process.env,
    NODE_EXTRA_CA_CERTS: join(certs, 'tls.crt'),
  });
  if (r.code !== 0) throw new Error(`door client failed (${r.code}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout) as { text: string; isError: boolean };
}

/** A raw HTTPS POST to the proxy with the given Authorization header (or none). */
function rawPost(authorization?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: proxyPort, path: '/mcp', method: 'POST', servername: 'localhost', ca: readFileSync(join(certs, 'tls.crt')), headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

describe.skipIf(problem !== null)('the container image (podman)', () => {
  beforeAll(async () => {
    stub = await startStubLlm();
    // The request is the last line of the user turn (presence notices come first); "history kept" once the first
    // door question is among the earlier messages.
    stub.respond((r) => {
      const earlier = JSON.stringify((r.body?.messages as unknown[] | undefined)?.slice(0, -1) ?? []);
      return reply.text(`[stub] ${r.lastUserText.split('\n').at(-1) ?? ''} (history ${earlier.includes('first door question') ? 'kept' : 'empty'})`);
    });
    scratch = temps.make('ff-container-');
    const built = await buildImages(scratch);
    context = built.context;
    const size = await podman(['image', 'inspect', '--format', '{{.Size}}', IMAGE]);
    console.info(`image built in ${(built.buildMs / 1000).toFixed(1)} s, ${(Number(size.stdout.trim()) / 1e6).toFixed(0)} MB`);

    // The village: designed on "the desktop", baked, then seeded into a fresh /data owned by the image's user.
    const home = makeVillage(temps, { baseUrl: stub.baseUrl });
    bake = join(scratch, 'bake');
    const baked = await runCli(['bake', '--data-dir', home, '--out', bake]);
    if (baked.code !== 0) throw new Error(baked.stderr);
    chownTree(bake);
    data = join(scratch, 'data');
    mkdirSync(data);
    chownSync(data, 1000, 1000);
    doorPort = await freePort();
    proxyPort = await freePort();
    certs = join(scratch, 'certs');
    mkdirSync(certs);
    const cert = await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', join(certs, 'tls.key'), '-out', join(certs, 'tls.crt')]);
    if (cert.code !== 0) throw new Error(cert.stderr);
    chownSync(join(certs, 'tls.key'), 1001, 1001);
  }, 1_200_000);

  afterAll(async () => {
    for (const name of names) await podman(['rm', '-f', '-t', '0', name]);
    if (problem === null) await removeImages();
    await stub?.close();
    temps.cleanup();
  }, 120_000);

  it('builds the way deploy/README says: from the repository root, whose ignore file lets in only what the Dockerfile copies', async () => {
    expect(context).toBe(ROOT);
    // docker reads .dockerignore, podman .containerignore: one rule set in two files.
    expect(readFileSync(join(ROOT, '.dockerignore'), 'utf8')).toBe(readFileSync(join(ROOT, '.containerignore'), 'utf8'));
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const listing = await contextListing(scratch, ROOT);
    expect(listing).toEqual(['deploy', 'deploy/pack', `deploy/pack/fuseforks-${version}.tgz`, 'package-lock.json']);
  }, CASE_MS);

  it('seeds /data from the bake, then check and ask run in the container with --secrets env against the loopback model', async () => {
    const seeded = await podman(['run', '--rm', '--network', 'host', ...LIMITS, '-v', `${data}:/data`, '-v', `${bake}:/bake:ro`, '--entrypoint', '/usr/bin/tini', IMAGE, '--', 'fuseforks-cli', 'seed', '--from', '/bake', '--data-dir', '/data']);
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(listFiles(data)).toEqual(['workspace/.fuseforks.lock', 'workspace/world.json']);
    const noKey = await cli(['check', '--for', 'serve', '--data-dir', '/data', '--start', 'batch', '--secrets', 'env']);
    expect(noKey.code).toBe(3);
    expect(noKey.stdout).toContain('FUSEFORKS_SECRET_STUB');
    const check = await cli(['check', '--for', 'ask', '--data-dir', '/data', '--start', 'batch', '--secrets', 'env'], SECRET);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    const ask = await cli(['ask', '--data-dir', '/data', '--start', 'batch', '--secrets', 'env', 'hello from the container'], SECRET);
    expect(ask.code, ask.stderr).toBe(0);
    expect(ask.stdout).toBe('[stub] hello from the container (history empty)\n');
    console.info(`container cold start to the first answered ask: ${(ask.ms / 1000).toFixed(2)} s`);
    expect(stub.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET.FUSEFORKS_SECRET_STUB}`);
    expect(ask.stderr).not.toContain(SECRET.FUSEFORKS_SECRET_STUB);
  }, CASE_MS);

  it('serve answers through the door via the proxy with its auth, and refuses without it; the HEALTHCHECK is healthy', async () => {
    writeFileSync(join(data, 'mcp_server.json'), JSON.stringify({ enabled: true, port: doorPort, token: TOKEN }), { mode: 0o600 });
    chownSync(join(data, 'mcp_server.json'), 1000, 1000);
    expect((await startServe(VILLAGE)).code).toBe(0);
    const hash = await podman(['run', '--rm', ...LIMITS, '--entrypoint', 'caddy', PROXY_IMAGE, 'hash-password', '--plaintext', PASSWORD]);
    expect(hash.code, hash.stderr).toBe(0);
    names.push(PROXY);
    const proxy = await podman([
      'run', '-d', '--name', PROXY, '--network', 'host', ...LIMITS,
      '-e', `PROXY_PORT=${proxyPort}`, '-e', `FUSEFORKS_DOOR_PORT=${doorPort}`, '-e', `FUSEFORKS_DOOR_TOKEN=${TOKEN}`,
      '-e', `PROXY_USER=${USER}`, '-e', `PROXY_PASSWORD_HASH=${hash.stdout.trim()}`,
      '-v', `${certs}:/certs:ro`, PROXY_IMAGE,
    ]);
    expect(proxy.code, proxy.stderr).toBe(0);
    await until(async () => (await execStatus(VILLAGE, ['--ready'])).code === 0, 'serve to be ready');
    const health = await podman(['healthcheck', 'run', VILLAGE]);
    expect(health.code, health.stdout + health.stderr).toBe(0);
    await until(async () => (await rawPost().catch(() => 0)) === 401, 'the proxy to listen');

    expect(await rawPost()).toBe(401);
    expect(await rawPost(`Basic ${Buffer.from(`${USER}:wrong`).toString('base64')}`)).toBe(401);
    expect(await rawPost(`Bearer ${TOKEN}`)).toBe(401); // the door's token alone does not pass the proxy
    const answer = await doorAsk('first door question');
    expect(answer).toEqual({ text: '[stub] first door question (history empty)', isError: false });
  }, CASE_MS);

  it('a second container on the same /data exits 4 and leaves the running one alone', async () => {
    names.push(SECOND);
    const second = await podman(['run', '--name', SECOND, '--network', 'host', ...LIMITS, '-e', `FUSEFORKS_SECRET_STUB=${SECRET.FUSEFORKS_SECRET_STUB}`, '-v', `${data}:/data`, IMAGE], 120_000);
    expect(second.code).toBe(4);
    expect(second.stderr).toContain('LOCK_HELD');
    expect((await execStatus(VILLAGE, ['--ready'])).code).toBe(0);
  }, CASE_MS);

  it('podman stop (SIGTERM to tini) closes within the grace with exit 0 and the lock released; a restart keeps the conversation', async () => {
    const stop = await podman(['stop', '-t', '35', VILLAGE], 60_000);
    expect(stop.code, stop.stderr).toBe(0);
    const state = await podman(['inspect', '--format', '{{.State.ExitCode}}', VILLAGE]);
    expect(state.stdout.trim()).toBe('0');
    const logs = await podman(['logs', VILLAGE]);
    expect(logs.stderr + logs.stdout).toContain('[CLOSING]');
    expect(logs.stderr + logs.stdout).not.toContain('CLOSE_GRACE_EXCEEDED');
    console.info(`podman stop returned in ${(stop.ms / 1000).toFixed(2)} s`);
    // The lock is free: a one-shot command that takes it succeeds (a held lock would be exit 4).
    const seedAgain = await podman(['run', '--rm', ...LIMITS, '-v', `${data}:/data`, '-v', `${bake}:/bake:ro`, '--entrypoint', 'fuseforks-cli', IMAGE, 'seed', '--from', '/bake', '--data-dir', '/data']);
    expect(seedAgain.code, seedAgain.stderr).toBe(0);
    expect(seedAgain.stderr).toContain('SEED_KEPT');

    const start = await podman(['start', VILLAGE]);
    expect(start.code, start.stderr).toBe(0);
    await until(async () => (await execStatus(VILLAGE, ['--ready'])).code === 0, 'serve to be ready again');
    const again = await doorAsk('after the restart');
    expect(again.text).toBe('[stub] after the restart (history kept)');
  }, CASE_MS);

  it('status goes unhealthy when serve hangs (stale heartbeat) and when it is killed', async () => {
    const doc = JSON.parse(readFileSync(join(data, 'serve.status.json'), 'utf8')) as { pid: number };
    const signal = (sig: string): Promise<Ran> => podman(['exec', VILLAGE, 'node', '-e', `process.kill(${doc.pid}, '${sig}')`]);
    expect((await signal('SIGSTOP')).code).toBe(0);
    await until(async () => (await execStatus(VILLAGE, ['--max-age', '3'])).code === 1, 'a stale heartbeat', 30_000);
    const stale = await execStatus(VILLAGE, ['--max-age', '3']);
    expect(stale.stdout).toMatch(/unhealthy: the status is \d+ s old/);
    expect((await signal('SIGCONT')).code).toBe(0);
    await until(async () => (await execStatus(VILLAGE, ['--max-age', '3'])).code === 0, 'the heartbeat again', 30_000);

    await signal('SIGKILL');
    await until(async () => (await podman(['inspect', '--format', '{{.State.Running}}', VILLAGE])).stdout.trim() === 'false', 'the container to stop');
    const dead = await cli(['status', '--data-dir', '/data']);
    expect(dead.code).toBe(1);
    expect(dead.stdout).toContain('unhealthy');
  });
});
