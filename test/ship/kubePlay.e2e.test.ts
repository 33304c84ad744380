/**
 * deploy/pod.yaml under `podman kube play`, as deploy/README says: the village image (deploy/village.Dockerfile on
 * the image and a bake), the keys from a ConfigMap file; the init container seeds the volume, serve starts (it refuses without the keys),
 * the liveness probe on `status` (podman's health check) passes; `podman kube down` removes the pod and leaves the
 * volume, which the test then removes. Only names change (unique per run); the rest of the file is played as is.
 *
 * Skipped — loudly — only where podman cannot run; under CI it must run.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVillage, ROOT, runCli, Temps } from '../cli/support/cliProcess.js';
import { buildImage, buildImages, IMAGE, podman, podmanProblem, removeImages, type Ran } from '../../scripts/podmanImage.mjs';

const problem = podmanProblem();
if (problem !== null && process.env.CI !== undefined) throw new Error(`kube play tests must run in CI: ${problem}`);
if (problem !== null) console.warn(`\n!!! SKIPPING the kube play tests: ${problem} !!!\n`);

const CASE_MS = 300_000;
const RUN = `${process.pid}-${randomBytes(3).toString('hex')}`;
const POD = `ff-test-pod-${RUN}`;
const VOLUME = `ff-test-pod-data-${RUN}`;
const KEYS = `ff-test-pod-keys-${RUN}`;
const VILLAGE_IMAGE = `localhost/fuseforks-village:test-${RUN}`;
const temps = new Temps();
let scratch: string;
let podFile: string;
let keysFile: string;

type Container = { name: string; image: string; envFrom?: Array<{ configMapRef?: { name: string } }> };
type PodDoc = { metadata: { name: string }; spec: { initContainers: Container[]; containers: Container[]; volumes: Array<{ name: string; persistentVolumeClaim?: { claimName: string } }> } };

async function until(test: () => Promise<boolean>, what: string, ms = 150_000): Promise<void> {
  // A wall-clock bound: each test() is itself a podman call of a few seconds on a busy machine.
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    if (await test()) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const exists = async (args: string[]): Promise<boolean> => (await podman(args)).code === 0;

describe.skipIf(problem !== null)('podman kube play deploy/pod.yaml', () => {
  beforeAll(async () => {
    scratch = temps.make('ff-kube-');
    // The same build as container.e2e (the layer cache makes it cheap after the first), then the village image.
    await buildImages(scratch);
    const home = makeVillage(temps, { baseUrl: 'http://127.0.0.1:9/v1' });
    const bake = join(scratch, 'bake');
    const baked = await runCli(['bake', '--data-dir', home, '--out', bake]);
    if (baked.code !== 0) throw new Error(baked.stderr);
    await buildImage(VILLAGE_IMAGE, join(ROOT, 'deploy/village.Dockerfile'), bake, ['--build-arg', `BASE=${IMAGE}`]);

    const pod = parse(readFileSync(join(ROOT, 'deploy/pod.yaml'), 'utf8')) as PodDoc;
    pod.metadata.name = POD;
    for (const c of [...pod.spec.initContainers, ...pod.spec.containers]) c.image = VILLAGE_IMAGE;
    for (const v of pod.spec.volumes) if (v.persistentVolumeClaim !== undefined) v.persistentVolumeClaim.claimName = VOLUME;
    for (const ref of pod.spec.containers.flatMap((c) => c.envFrom ?? [])) if (ref.configMapRef !== undefined) ref.configMapRef.name = KEYS;
    podFile = join(scratch, 'pod.yaml');
    writeFileSync(podFile, stringify(pod));
    keysFile = join(scratch, 'keys.yaml');
    writeFileSync(keysFile, stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: KEYS }, data: { FUSEFORKS_SECRET_STUB: 'sk-kube-test-0001' } }), { mode: 0o600 });
  }, 1_200_000);

  afterAll(async () => {
    if (problem === null) {
      if (podFile !== undefined) await podman(['kube', 'down', podFile]);
      await podman(['pod', 'rm', '-f', '-t', '0', POD]);
      await podman(['volume', 'rm', '-f', VOLUME]);
      await podman(['rmi', '--ignore', '-f', VILLAGE_IMAGE]);
      await removeImages();
    }
    temps.cleanup();
  }, 180_000);

  it('plays: seeds, serve starts with the keys, the status probe (health check) passes', async () => {
    const play = await podman(['kube', 'play', '--configmap', keysFile, podFile], 240_000);
    expect(play.code, play.stdout + play.stderr).toBe(0);
    const village = `${POD}-village`;
    let health: Ran | undefined;
    await until(async () => {
      health = await podman(['healthcheck', 'run', village]);
      return health.code === 0;
    }, 'the status probe to pass');
    expect(health?.code).toBe(0);
    const ready = await podman(['exec', village, 'fuseforks-cli', 'status', '--data-dir', '/data', '--ready']);
    expect(ready.code, ready.stdout + ready.stderr).toBe(0);
    // The seeded design is in the volume, and serve is the one process holding /data.
    const logs = await podman(['logs', village]);
    expect(logs.stdout + logs.stderr).not.toContain('LOCK_HELD');
    const world = await podman(['exec', village, 'cat', '/data/workspace/world.json']);
    expect(world.code).toBe(0);
    expect(JSON.parse(world.stdout)).toMatchObject({ agents: expect.any(Array) });
  }, CASE_MS);

  it('podman kube down removes the pod; the volume (the village) stays until removed on purpose', async () => {
    const down = await podman(['kube', 'down', podFile], 120_000);
    expect(down.code, down.stdout + down.stderr).toBe(0);
    expect(await exists(['pod', 'exists', POD])).toBe(false);
    expect(await exists(['volume', 'exists', VOLUME])).toBe(true);
    expect((await podman(['volume', 'rm', VOLUME])).code).toBe(0);
    expect(await exists(['volume', 'exists', VOLUME])).toBe(false);
  }, CASE_MS);
});
