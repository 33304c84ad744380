// podman the way this sandbox needs it (runc, lowered limits, host network), and the one image build shared by the
// container tests (test/ship/*.e2e.test.ts) and the container bench (bench/ship/container.bench.mjs), done the
// way deploy/README.md says: pack the project into deploy/pack (`npm pack`, the tarball the image installs), then
// build from the repository root as the context, which .containerignore cuts down to what deploy/Dockerfile
// copies; tags `fuseforks:test-<pid>` and `fuseforks-proxy:test-<pid>`. The layers stay in podman's build cache,
// so a second test file's build of the same tree reuses every layer.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const BASE_IMAGE = 'docker.io/library/debian:trixie-slim';
/** The host's CA bundle (Debian's path), handed to npm in the build. */
const HOST_CA = process.env.FUSEFORKS_BUILD_CA ?? '/etc/ssl/certs/ca-certificates.crt';
/**
 * Tags unique to this process: two runs on one machine (two worktrees, a test beside a bench) each run the image
 * they built, never the other's retag. The layers stay in podman's build cache; `removeImages` drops the tags.
 */
const RUN_TAG = `test-${process.pid}`;
export const IMAGE = `localhost/fuseforks:${RUN_TAG}`;
export const PROXY_IMAGE = `localhost/fuseforks-proxy:${RUN_TAG}`;
/** Global podman flags: crun fails on this machine's hybrid cgroups. */
export const PODMAN = ['--runtime', 'runc'];
/** Per-container limits this sandbox needs (the defaults exceed its hard limits). */
export const LIMITS = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024'];

/** Runs `cmd args` asynchronously (a loopback stub in the caller keeps answering); killed after `timeoutMs`. */
export function run(cmd, args, timeoutMs = 120_000, env = process.env) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, [...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/**
 * The same limits as podman's defaults, for what takes no --ulimit flag (`podman healthcheck run`, `exec`): a
 * containers.conf of our own, named by CONTAINERS_CONF for every podman this module starts.
 */
const CONF = join(tmpdir(), 'fuseforks-test-containers.conf');
writeFileSync(CONF, '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]\n\n[engine]\nruntime = "runc"\n');

/** `podman --runtime runc …`. */
export function podman(args, timeoutMs) {
  return run('podman', [...PODMAN, ...args], timeoutMs, { ...process.env, CONTAINERS_CONF: CONF });
}

/**
 * podman's Docker-compatible API on a socket of our own (`podman system service`), for Docker Compose
 * (test/ship/compose.e2e.test.ts); resolves once the socket answers. Stop it with `child.kill()`.
 */
export async function startPodmanService(socket) {
  const child = spawn('podman', [...PODMAN, 'system', 'service', '--time=0', `unix://${socket}`], { env: { ...process.env, CONTAINERS_CONF: CONF }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  for (let waited = 0; waited < 30_000; waited += 200) {
    if (child.exitCode !== null) throw new Error(`podman system service exited ${child.exitCode}: ${stderr}`);
    if (existsSync(socket)) {
      const ok = await new Promise((resolve) => {
        const req = httpRequest({ socketPath: socket, path: '/_ping', timeout: 10_000 }, (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        });
        req.on('error', () => resolve(false)).on('timeout', () => req.destroy());
        req.end();
      });
      if (ok) return child;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error(`podman system service did not answer on ${socket}: ${stderr}`);
}

/** Why containers cannot run here, or null when podman and the base image are ready. */
export function podmanProblem() {
  const version = spawnSync('podman', ['--version'], { encoding: 'utf8' });
  if (version.error !== undefined || version.status !== 0) return 'podman is not installed (apt-get install podman runc mmdebstrap; .ci/run does this)';
  const base = spawnSync('podman', [...PODMAN, 'image', 'exists', BASE_IMAGE], { env: { ...process.env, CONTAINERS_CONF: CONF } });
  if (base.status !== 0) return `the base image ${BASE_IMAGE} is missing (.ci/run makes it: mmdebstrap --variant=minbase trixie, then podman import)`;
  return null;
}

/**
 * Packs the project into `deploy/pack/` of the repository (README step 1) and returns the build context: the
 * repository root. The tarball is written under `scratch` first and renamed into place, so two test files packing
 * at once never build from a half-written one (the same tree packs to the same bytes).
 */
export async function packContext(scratch) {
  const packed = join(scratch, 'pack');
  mkdirSync(packed, { recursive: true });
  // The caller has just built dist/ (npm test, npm run bench); --ignore-scripts skips prepack's second build.
  const pack = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packed], 180_000, { ...process.env, npm_config_loglevel: 'error' });
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  const tarball = readdirSync(packed).find((f) => f.endsWith('.tgz'));
  if (tarball === undefined) throw new Error('npm pack wrote no tarball');
  const dest = join(ROOT, 'deploy/pack');
  mkdirSync(dest, { recursive: true });
  const stale = readdirSync(dest).filter((f) => /^fuseforks-.*\.tgz$/.test(f) && f !== tarball);
  if (stale.length > 0) throw new Error(`deploy/pack holds another version's tarball (${stale.join(', ')}): deploy/Dockerfile copies fuseforks-*.tgz, so remove it`);
  const partial = join(dest, `.${tarball}.${process.pid}`);
  copyFileSync(join(packed, tarball), partial);
  renameSync(partial, join(dest, tarball));
  return ROOT;
}

/**
 * Every path a build from `context` sees under its ignore file: a throwaway image that copies the whole context
 * and lists it (what `podman build -f deploy/Dockerfile .` sends, without building the image).
 */
export async function contextListing(scratch, context) {
  const file = join(scratch, 'listing.Containerfile');
  writeFileSync(file, `FROM ${BASE_IMAGE}\nCOPY . /ctx/\nRUN cd /ctx && find . -mindepth 1 | sed 's/^\\./CTX /' | sort\n`);
  const tag = `localhost/fuseforks-context:${RUN_TAG}`;
  const built = await podman(['build', '--no-cache', '--pull=never', '--network', 'none', ...LIMITS, '-t', tag, '-f', file, context], 600_000);
  await podman(['rmi', '--ignore', '-f', tag]);
  if (built.code !== 0) throw new Error(`podman build of the context listing failed:\n${built.stderr.slice(-4000)}`);
  return built.stdout.split('\n').filter((l) => l.startsWith('CTX /')).map((l) => l.slice(5));
}

/** `podman build` of `dockerfile` in `context` as `tag` (docker format: it keeps the HEALTHCHECK). */
export async function buildImage(tag, dockerfile, context, extra = []) {
  // npm inside the build must trust what this machine trusts (an egress proxy may re-sign TLS): a build secret.
  const ca = existsSync(HOST_CA) ? ['--secret', `id=ca,src=${HOST_CA}`] : [];
  const built = await podman(['build', '--format', 'docker', '--pull=never', '--network', 'host', ...LIMITS, ...ca, ...extra, '-t', tag, '-f', dockerfile, context], 1_200_000);
  if (built.code !== 0) throw new Error(`podman build ${tag} failed:\n${built.stderr.slice(-4000)}`);
  return built.ms;
}

/** Removes this process's image tags (the build cache keeps the layers for the next run). */
export async function removeImages() {
  await podman(['rmi', '--ignore', '-f', IMAGE, PROXY_IMAGE]);
}

/**
 * One build at a time on this machine: the container test files run in parallel, and two cold builds of the same
 * Dockerfile would each do all the work; the second, waiting here, then finds every layer in the cache. The lock is
 * a folder (mkdir is atomic) holding the owner's pid; a dead owner's lock is taken over.
 */
async function withBuildLock(fn) {
  const lock = join(tmpdir(), 'fuseforks-image-build.lock');
  for (let waited = 0; ; waited += 1000) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      let owner = NaN;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {}
      let alive = true;
      try {
        if (Number.isInteger(owner) && owner > 0) process.kill(owner, 0);
      } catch {
        alive = false;
      }
      if (!alive || waited > 1_800_000) rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Packs and builds both images once; returns the fuseforks image's build time (ms). */
export async function buildImages(scratch) {
  return withBuildLock(async () => {
    const context = await packContext(scratch);
    const buildMs = await buildImage(IMAGE, join(context, 'deploy/Dockerfile'), context);
    await buildImage(PROXY_IMAGE, join(context, 'deploy/proxy/Dockerfile'), join(context, 'deploy/proxy'));
    return { buildMs, context };
  });
}
