/**
 * deploy/compose.yaml + compose.door.yaml run as deploy/README says, with the compose implementation it names:
 * Docker Compose (Debian's docker-compose) against podman's Docker-compatible API socket. The files are used
 * unchanged (copied beside a test's own secrets.env, door.env and door/): `up -d` seeds the volume, starts serve
 * and the proxy in its network namespace; an MCP initialize through the proxy passes with the proxy's password
 * (the bcrypt hash written in door.env as the README says) and is refused with a wrong one; `rm -sf door-proxy`
 * then `down -v` (the README's order) leaves no container, network or volume of the project.
 *
 * Skipped — loudly — only where podman or docker-compose is missing; under CI it must run.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, makeVillage, ROOT, runCli, Temps } from '../cli/support/cliProcess.js';
import { chownTree } from './support.js';
import { buildImages, IMAGE, LIMITS, podman, podmanProblem, PROXY_IMAGE, removeImages, run, startPodmanService, type Ran } from '../../scripts/podmanImage.mjs';

const composeMissing = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status !== 0;
const problem = podmanProblem() ?? (composeMissing ? 'docker-compose is not installed (apt-get install docker-compose; .ci/run does this)' : null);
if (problem !== null && process.env.CI !== undefined) throw new Error(`compose tests must run in CI: ${problem}`);
if (problem !== null) console.warn(`\n!!! SKIPPING the compose tests: ${problem} !!!\n`);

const CASE_MS = 300_000;
const TOKEN = '5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b';
const USER = 'caller';
const PASSWORD = 'compose-pass-4410';
/** The project name names every container, the network and the volume: unique per run. */
const PROJECT = `ff-test-compose-${process.pid}-${randomBytes(3).toString('hex')}`;
const temps = new Temps();
let service: ChildProcess | undefined;
let project: string;
let certs: string;
let proxyPort: number;
let socket: string;

/** docker-compose with the README's files, against podman's socket, in the project folder. */
function compose(args: string[], timeoutMs = 240_000): Promise<Ran> {
  return run('docker-compose', ['-p', PROJECT, '-f', join(project, 'compose.yaml'), '-f', join(project, 'compose.door.yaml'), ...args], timeoutMs, {
    ...process.env,
    DOCKER_HOST: `unix://${socket}`,
    COMPOSE_HTTP_TIMEOUT: '240',
    FUSEFORKS_IMAGE: IMAGE,
    FUSEFORKS_PROXY_IMAGE: PROXY_IMAGE,
    FUSEFORKS_BAKE: join(project, 'bake'),
    FUSEFORKS_PROXY_PUBLISH: `127.0.0.1:${proxyPort}`,
  });
}

/** Names of this project's containers, networks and volumes that podman still has. */
async function leftovers(): Promise<string[]> {
  const label = `label=com.docker.compose.project=${PROJECT}`;
  const containers = await podman(['ps', '-a', '--filter', label, '--format', '{{.Names}}']);
  const networks = await podman(['network', 'ls', '--format', '{{.Name}}']);
  const volumes = await podman(['volume', 'ls', '--format', '{{.Name}}']);
  return [...containers.stdout.split('\n'), ...networks.stdout.split('\n'), ...volumes.stdout.split('\n')].filter((n) => n.includes(PROJECT));
}

/** The MCP initialize through the proxy (real TLS against the test CA); the door's server info, or the failure. */
async function initialize(credentials: string): Promise<Ran> {
  return run(process.execPath, [join(ROOT, 'test/fixtures/ship/doorClient.mjs'), `https://localhost:${proxyPort}/mcp`, credentials], 60_000, {
    ...process.env,
    NODE_EXTRA_CA_CERTS: join(certs, 'tls.crt'),
  });
}

/** A raw HTTPS POST to the proxy without credentials: its status code (0 while nothing listens). */
function unauthenticatedPost(): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: proxyPort, path: '/mcp', method: 'POST', servername: 'localhost', ca: readFileSync(join(certs, 'tls.crt')), timeout: 10_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0)).on('timeout', () => req.destroy());
    req.end('{}');
  });
}

async function until(test: () => Promise<boolean>, what: string, ms = 120_000): Promise<void> {
  // A wall-clock bound: each test() is itself a podman call of a few seconds on a busy machine.
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    if (await test()) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(problem !== null)('compose (Docker Compose on podman\'s API socket)', () => {
  beforeAll(async () => {
    const scratch = temps.make('ff-compose-');
    // The same build as container.e2e (README step 1); podman's layer cache makes a second build in a run cheap.
    const built = await buildImages(scratch);
    console.info(`images built in ${(built.buildMs / 1000).toFixed(1)} s`);
    socket = join(scratch, 'podman.sock');
    service = await startPodmanService(socket);

    project = join(scratch, 'deploy');
    mkdirSync(join(project, 'door/certs'), { recursive: true });
    for (const f of ['compose.yaml', 'compose.door.yaml']) copyFileSync(join(ROOT, 'deploy', f), join(project, f));
    // A village whose model is never called: initialize needs no turn. Its key still has to be there for serve.
    const home = makeVillage(temps, { baseUrl: 'http://127.0.0.1:9/v1' });
    const baked = await runCli(['bake', '--data-dir', home, '--out', join(project, 'bake')]);
    if (baked.code !== 0) throw new Error(baked.stderr);
    chownTree(join(project, 'bake'));
    writeFileSync(join(project, 'secrets.env'), 'FUSEFORKS_SECRET_STUB=sk-compose-test-0001\n', { mode: 0o600 });
    writeFileSync(join(project, 'door/mcp_server.json'), JSON.stringify({ enabled: true, port: 39641, token: TOKEN }), { mode: 0o600 });
    chownSync(join(project, 'door/mcp_server.json'), 1000, 1000);
    certs = join(project, 'door/certs');
    const cert = await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', join(certs, 'tls.key'), '-out', join(certs, 'tls.crt')]);
    if (cert.code !== 0) throw new Error(cert.stderr);
    chownSync(join(certs, 'tls.key'), 1001, 1001);
    // door.env exactly as compose.door.yaml says: the hash as printed, in single quotes.
    const hash = await podman(['run', '--rm', ...LIMITS, '--entrypoint', 'caddy', PROXY_IMAGE, 'hash-password', '--plaintext', PASSWORD]);
    if (hash.code !== 0) throw new Error(hash.stderr);
    writeFileSync(join(project, 'door.env'), `FUSEFORKS_DOOR_TOKEN=${TOKEN}\nPROXY_USER=${USER}\nPROXY_PASSWORD_HASH='${hash.stdout.trim()}'\n`, { mode: 0o600 });
    proxyPort = await freePort();
  }, 1_200_000);

  afterAll(async () => {
    if (problem === null) {
      if (socket !== undefined && project !== undefined) {
        await compose(['rm', '-s', '-f', 'door-proxy']);
        await compose(['down', '-v', '-t', '0']);
      }
      // Whatever compose left (a failed run): remove exactly this project's names.
      const label = `label=com.docker.compose.project=${PROJECT}`;
      const ids = (await podman(['ps', '-aq', '--filter', label])).stdout.split('\n').filter(Boolean);
      if (ids.length > 0) await podman(['rm', '-f', '-t', '0', ...ids]);
      await podman(['network', 'rm', '-f', `${PROJECT}_default`]);
      await podman(['volume', 'rm', '-f', `${PROJECT}_village-data`]);
      await removeImages();
    }
    service?.kill();
    temps.cleanup();
  }, 180_000);

  it('up -d seeds the volume and starts serve and the proxy; initialize through the proxy passes with its password only', async () => {
    const up = await compose(['up', '-d']);
    expect(up.code, up.stdout + up.stderr).toBe(0);
    const seed = await podman(['inspect', '--format', '{{.State.ExitCode}}', `${PROJECT}_seed_1`]);
    expect(seed.stdout.trim()).toBe('0');
    await until(async () => (await podman(['exec', `${PROJECT}_village_1`, 'fuseforks-cli', 'status', '--data-dir', '/data', '--ready'])).code === 0, 'serve to be ready');
    await until(async () => (await unauthenticatedPost()) === 401, 'the proxy to answer');

    const ok = await initialize(`${USER}:${PASSWORD}`);
    expect(ok.code, ok.stderr.slice(-2000)).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ server: { name: expect.any(String) } });
    const wrong = await initialize(`${USER}:not-the-password`);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('401');
  }, CASE_MS);

  it('rm -sf door-proxy, then down -v, leaves no container, network or volume of the project', async () => {
    expect((await leftovers()).length).toBeGreaterThan(0);
    // podman refuses to remove a container whose network namespace another one still uses, and compose removes in
    // parallel: the README's order takes the proxy out first.
    const proxy = await compose(['rm', '-s', '-f', 'door-proxy']);
    expect(proxy.code, proxy.stdout + proxy.stderr).toBe(0);
    const down = await compose(['down', '-v']);
    expect(down.code, down.stdout + down.stderr).toBe(0);
    expect(await leftovers()).toEqual([]);
  }, CASE_MS);
});
