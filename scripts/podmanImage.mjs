// podman the way this sandbox needs it (runc, lowered limits, host network), and the one image build shared by the
// container test (test/ship/container.e2e.test.ts) and the container bench (bench/ship/container.bench.mjs):
// pack the project (`npm pack`, the tarball the image installs), lay a throwaway build context (deploy/ +
// package-lock.json + the tarball), build `fuseforks:test-<pid>` and `fuseforks-proxy:test-<pid>`.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
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

/** Why containers cannot run here, or null when podman and the base image are ready. */
export function podmanProblem() {
  const version = spawnSync('podman', ['--version'], { encoding: 'utf8' });
  if (version.error !== undefined || version.status !== 0) return 'podman is not installed (apt-get install podman runc mmdebstrap; .ci/run does this)';
  const base = spawnSync('podman', [...PODMAN, 'image', 'exists', BASE_IMAGE], { env: { ...process.env, CONTAINERS_CONF: CONF } });
  if (base.status !== 0) return `the base image ${BASE_IMAGE} is missing (.ci/run makes it: mmdebstrap --variant=minbase trixie, then podman import)`;
  return null;
}

/** Packs the project into a fresh build context under `scratch`; returns the context folder. */
export async function packContext(scratch) {
  const context = join(scratch, 'context');
  mkdirSync(join(context, 'deploy/pack'), { recursive: true });
  // The caller has just built dist/ (npm test, npm run bench); --ignore-scripts skips prepack's second build.
  const pack = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', join(context, 'deploy/pack')], 180_000, { ...process.env, npm_config_loglevel: 'error' });
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  if (!readdirSync(join(context, 'deploy/pack')).some((f) => f.endsWith('.tgz'))) throw new Error('npm pack wrote no tarball');
  for (const f of ['Dockerfile', 'proxy']) cpSync(join(ROOT, 'deploy', f), join(context, 'deploy', f), { recursive: true });
  cpSync(join(ROOT, 'package-lock.json'), join(context, 'package-lock.json'));
  return context;
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

/** Packs and builds both images once; returns the fuseforks image's build time (ms). */
export async function buildImages(scratch) {
  const context = await packContext(scratch);
  const buildMs = await buildImage(IMAGE, join(context, 'deploy/Dockerfile'), context);
  await buildImage(PROXY_IMAGE, join(context, 'deploy/proxy/Dockerfile'), join(context, 'deploy/proxy'));
  return { buildMs, context };
}
