/**
 * `bake`: copies a village's design (and only the shelf files named on purpose) into a new folder that a container
 * is seeded from, after checking the copy the way the container will run it: `check --for serve --secrets env`
 * with the chosen `--start`. Secrets are not on this machine's environment at bake time, so the check assumes
 * every key will be set and instead records which `FUSEFORKS_SECRET_*` names the container needs.
 *
 * The copy is made in a sibling staging folder and renamed into place only when the check passes, so a refused
 * bake leaves nothing behind and `--out` is never half-written. Run state is never read: the list of files is
 * the design list, not a folder walk.
 */
import { copyFile, mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { gatherView, villageMissing } from '../../core/preflight/gatherView.js';
import { hasReject, type Finding } from '../../core/preflight/finding.js';
import { headlessPreflight } from '../../core/preflight/headlessPreflight.js';
import { envNameForKey } from '../../core/secrets/secretNames.js';
import type { SecretStore } from '../../core/secrets/secretStore.js';
import type { RunApprovalMode } from '../../core/tools/contract.js';
import { writeFileAtomic } from '../../core/village/atomicWrite.js';
import { designCandidates, evalCaseCandidates, EVALS_FOLDER, type ShelfFile } from '../../core/village/designFiles.js';
import { villagePaths } from '../../core/village/paths.js';
import { loadWorld } from '../../core/village/worldStore.js';
import { readVillageId } from '../../core/village/villageId.js';
import type { StartSetError } from '../../core/world/startSet.js';
import { BAKE_FORMAT, BAKE_MANIFEST_FILE, bakeInvalid, type BakeManifest } from './bakeManifest.js';
import { fileCopyFailed } from '../../core/errors/configErrors.js';

/** What to bake. */
export interface BakeOptions {
  dataDir: string;
  out: string;
  /** `--start` the container will use (the image runs `--start batch`). */
  start: string;
  withShelf: readonly ShelfFile[];
  bypassPlanReview: boolean;
  runApproval: RunApprovalMode;
  /** PATH and locale for the check (default process.env); never read for secret values. */
  env?: NodeJS.ProcessEnv;
  clock?: () => Date;
}

/** How a bake ended. Boot-type failures (no village, unreadable world.json, name collision) are thrown. */
export type BakeResult =
  | { kind: 'baked'; out: string; manifest: BakeManifest; findings: Finding[] }
  | { kind: 'rejected'; findings: Finding[] }
  | { kind: 'argument'; error: StartSetError };

/**
 * The container reads keys from its environment; at bake time none are there. This store says every key is
 * present (so SECRET_MISSING cannot reject a bake) and remembers which keys the check asked for.
 */
class PromisedSecrets implements SecretStore {
  readonly kind = 'env' as const;
  readonly asked = new Set<string>();
  get(): string | null {
    return null;
  }
  has(key: string): boolean {
    this.asked.add(key);
    return true;
  }
  set(): void {}
  delete(): void {}
}

/** Bakes the village at `dataDir` into `out` (absent or an empty folder). */
export async function bakeVillage(options: BakeOptions): Promise<BakeResult> {
  const source = villagePaths(options.dataDir);
  const out = resolve(options.out);
  await assertEmptyTarget(out);
  const load = await loadWorld(source, { locale: 'ja' });
  if (load.kind === 'missing') throw villageMissing(source);
  if (load.kind === 'unreadable') throw load.error;
  const agentIds = load.doc.world.agents.map((a) => a.id);

  const stage = join(dirname(out), `.${out.split('/').pop() ?? 'bake'}.baking-${process.pid}`);
  await rm(stage, { recursive: true, force: true });
  try {
    const files: string[] = [];
    const evalNames = await readdir(join(source.workspace, EVALS_FOLDER)).catch(() => [] as string[]);
    for (const rel of [...designCandidates(agentIds), ...evalCaseCandidates(evalNames)]) {
      if (await copyIfFile(join(source.dataDir, rel), join(stage, rel))) files.push(rel);
    }
    for (const name of options.withShelf) {
      if (!(await copyIfFile(join(source.dataDir, name), join(stage, name)))) {
        throw bakeInvalid(`--with-shelf names ${name}, but ${join(source.dataDir, name)} does not exist.`, 'Name only shelf files that exist on this machine, or drop --with-shelf.');
      }
      files.push(name);
    }
    // The check runs on the staged copy, i.e. on exactly what the container will have (no shelf unless named).
    const secrets = new PromisedSecrets();
    const gathered = await gatherView({
      dataDir: stage,
      mode: 'serve',
      start: options.start,
      secrets: 'env',
      store: secrets,
      bypassPlanReview: options.bypassPlanReview,
      runApproval: options.runApproval,
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    if (!gathered.ok) {
      await rm(stage, { recursive: true, force: true });
      return { kind: 'argument', error: gathered.argument };
    }
    // Whether a stdio command exists HERE says nothing about the image; the manifest lists them instead.
    const findings = headlessPreflight(gathered.world, gathered.schedules, gathered.view).filter((f) => f.code !== 'MCP_COMMAND_NOT_FOUND');
    if (hasReject(findings)) {
      await rm(stage, { recursive: true, force: true });
      return { kind: 'rejected', findings };
    }
    const manifest: BakeManifest = {
      format: BAKE_FORMAT,
      villageId: await readVillageId(source),
      start: { flag: options.start, ids: [...gathered.view.start] },
      files,
      shelf: [...options.withShelf],
      secrets: [...secrets.asked].map(envNameForKey).sort(),
      mcpCommands: gathered.view.mcpServers
        .filter((s) => s.enabled && s.transport === 'stdio' && s.command !== undefined)
        .map((s) => ({ server: s.name, agentId: s.agentId, command: s.command ?? '' })),
      bakedAt: (options.clock ?? (() => new Date()))().toISOString(),
    };
    await writeFileAtomic(join(stage, BAKE_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    await rmdir(out).catch(() => undefined); // an empty --out folder is replaced by the staged one
    await rename(stage, out);
    return { kind: 'baked', out, manifest, findings };
  } catch (error) {
    await rm(stage, { recursive: true, force: true });
    throw error;
  }
}

/** `--out` must not exist, or be an empty folder: a bake never overwrites anything. */
async function assertEmptyTarget(out: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(out);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw bakeInvalid(`--out ${out} is not a folder that can be read (${code ?? 'error'}).`, 'Choose a new folder for --out.');
  }
  if (entries.length > 0) throw bakeInvalid(`--out ${out} is not empty; a bake never overwrites files.`, 'Choose a new or empty folder for --out.');
}

/** Copies `from` to `to` (mode kept, parents made) when `from` is a regular file; false when it does not exist. */
export async function copyIfFile(from: string, to: string): Promise<boolean> {
  try {
    if (!(await stat(from)).isFile()) return false;
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, to);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'ENOENT') return false;
    throw fileCopyFailed(from, to, code, error);
  }
}
