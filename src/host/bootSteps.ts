/**
 * The steps of a host boot (SPEC §5), one function each, in the order `buildHost` calls them. Each step either
 * returns what it built or throws a FuseforksError naming the file/flag and the fix. The pricing step only builds
 * its facet (nothing read or fetched at boot, as the original) — the startup band must not gain lines for features that do not run.
 */
import { mkdirSync } from 'node:fs';
import { diagText, type DiagSink } from '../core/diag.js';
import { createPricing, type PricingApi, type PricingPorts } from './pricing/pricingFacet.js';
import { isFuseforksError } from '../core/errors.js';
import { villageMissing } from '../core/preflight/gatherView.js';
import { ProbeApprovals } from '../core/schedules/probeApprovals.js';
import { ScheduleStore } from '../core/schedules/scheduleStore.js';
import { KEYRING_SERVICE, KeyringSecretStore, LEGACY_KEYRING_SERVICE } from '../core/secrets/keyringSecretStore.js';
import { JEV_TOKEN_KEY } from '../core/secrets/secretNames.js';
import type { SecretStore } from '../core/secrets/secretStore.js';
import type { VillagePaths } from '../core/village/paths.js';
import { ensureVillageId, readVillageId } from '../core/village/villageId.js';
import { bootstrapWorld, loadWorld, saveWorld, saveWorldIfNormalized, systemLocale, type WorldDocument } from '../core/village/worldStore.js';
import type { Language, World } from '../core/world/types.js';
import type { LogStderrMode } from '../core/log.js';
import type { StartupBand } from '../core/startupBand.js';
import type { ExternalToolPort } from '../actors/supervisor.js';
import { DoorController } from './door/doorController.js';
import type { AskExternal } from './door/openDoor.js';
import type { DoorManagement } from './door/doorManage.js';
import { McpClientManager } from './mcp/mcpClientManager.js';
import { mcpToolPort } from './mcpToolPort.js';
import { acquireVillageLock, type VillageLock } from './villageLock.js';
import { workspaceUncreatable } from '../core/errors/hostErrors.js';
import { PRIVATE_DIR_MODE } from '../core/privateFiles.js';

/** `mkdir -p {dataDir}/workspace`, then the village lock. Nothing else is opened before this succeeds. */
export function lockVillage(paths: VillagePaths): VillageLock {
  try {
    mkdirSync(paths.workspace, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (cause) {
    const errno = (cause as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    throw workspaceUncreatable(paths.workspace, errno, cause);
  }
  return acquireVillageLock(paths.workspace);
}

/**
 * Bootstrap of world.json: missing → VILLAGE_MISSING unless `createIfMissing` (GUI); unparseable → its CONFIG_PARSE
 * error (file and position; the file is never rewritten); then the original's promotion of `unset` templates
 * whose secret is already stored to `keyring`, and one save if normalization or promotion changed anything.
 */
export async function bootstrapWorldFile(
  paths: VillagePaths,
  secrets: SecretStore,
  diag: DiagSink,
  createIfMissing: boolean,
  env: NodeJS.ProcessEnv,
): Promise<WorldDocument> {
  const locale = { locale: systemLocale(env) };
  const load = createIfMissing ? (await bootstrapWorld(paths, locale)).load : await loadWorld(paths, locale);
  if (load.kind === 'missing') throw villageMissing(paths);
  if (load.kind === 'unreadable') throw load.error;
  if (load.doc.notes.length > 0) diag.note('world', { normalized: load.doc.notes.length });
  let doc = await saveWorldIfNormalized(load.doc);
  const promoted = promoteStoredCredentials(doc.world, secrets);
  if (promoted.ids.length > 0) {
    doc = await saveWorld(doc, promoted.world);
    diag.note('credential', { promoted: promoted.ids.join(',') });
  }
  if (doc.world.tokenBudget === null) diag.note('token budget', { ceiling: null }, 'warn');
  return doc;
}

/**
 * `unset` + a stored secret → `keyring` (reference ops.md: bootstrap promotion). A store that errors skips the
 * promotion for that template (failures #16); a provider this build does not speak is left alone.
 */
export function promoteStoredCredentials(world: World, secrets: SecretStore): { world: World; ids: string[] } {
  const ids: string[] = [];
  const modelTemplates = world.modelTemplates.map((t) => {
    if (t.credential !== 'unset') return t;
    let stored = false;
    try {
      stored = secrets.has(t.id);
    } catch (error) {
      if (!isFuseforksError(error)) throw error;
    }
    if (!stored) return t;
    ids.push(t.id);
    return { ...t, credential: 'keyring' as const };
  });
  return { world: ids.length === 0 ? world : { ...world, modelTemplates }, ids };
}

/**
 * Moves keys that earlier builds of this project stored under the keyring service `fuseforks` to the original's
 * service (template ids + the Jev token), once: after the move the old entries are gone and this finds nothing.
 * One `keyring:` line names the moved keys (ids, never values). A keyring that refuses is a WARN note, never fatal:
 * reads still fall back to the old service.
 */
export function moveLegacyKeys(secrets: SecretStore, world: World, diag: DiagSink): string[] {
  if (!(secrets instanceof KeyringSecretStore)) return [];
  const keys = [...world.modelTemplates.map((t) => t.id), JEV_TOKEN_KEY];
  try {
    const moved = secrets.moveLegacy(keys);
    if (moved.length > 0) diag.note('keyring', { moved: moved.length, keys: moved.join(','), from: LEGACY_KEYRING_SERVICE, to: KEYRING_SERVICE });
    return moved;
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    diag.note('keyring', { moved: 0, from: LEGACY_KEYRING_SERVICE, to: KEYRING_SERVICE, code: error.code }, 'warn');
    return [];
  }
}

/** schedules.json (bad rows and rows whose target is gone are noted, never dropped from the file). */
export function openSchedules(paths: VillagePaths, world: World, diag: DiagSink): Promise<ScheduleStore> {
  const ids = new Set(world.agents.map((a) => a.id));
  return ScheduleStore.open({ file: paths.schedules, agentExists: (id) => ids.has(id), diag });
}

/** Bundled tools: every agent worker builds its own tool box from `enabledTools`, so the host registers nothing. */
export function registerBundledTools(): void {
  // Kept as a named step so the boot order of SPEC §5 reads the same here as in the spec.
}

/** A connection the host owns and closes on the way out. */
export interface Closable {
  close(): Promise<void>;
}

/** The village's MCP client side as the host holds it: the manager (for status) and the port for the supervisor. */
export interface HostMcp extends Closable {
  manager: McpClientManager;
  port: ExternalToolPort;
}

/**
 * Constructs the MCP client manager (cheap: the SDK loads only when a server is configured) and the supervisor's
 * tool port over it. Connecting is a separate step (`connectSharedMcp`) so the supervisor can take the port first.
 * Under `--events jsonl` a stdio child's stderr lines become `{"type":"log","source":"mcp:<name>",…}` on stderr.
 */
export function createHostMcp(
  paths: VillagePaths,
  diag: DiagSink,
  language: () => Language,
  stderrMode: LogStderrMode,
  env: NodeJS.ProcessEnv,
  secretStore?: SecretStore,
): HostMcp {
  const manager = new McpClientManager({
    paths,
    diag,
    language,
    parentEnv: env,
    ...(secretStore === undefined ? {} : { secretStore }),
    // Headless: a server's question gets the entry's answer (decline by default), said in the log with its reason.
    onHeadlessElicit: (server, answer, reason) => diag.note('mcp elicitation answered', { server, action: answer.action, reason: diagText(reason) }, answer.action === 'accept' ? 'info' : 'warn'),
    ...(stderrMode === 'jsonl' ? { jsonlStderr: (line: string) => void process.stderr.write(`${line}\n`) } : {}),
  });
  return { manager, port: mcpToolPort(manager), close: () => manager.closeAll() };
}

/**
 * MCP client connect of the shared `workspace/mcp.json` (per-agent files open on agent start). Never fatal:
 * a broken file or a server that does not connect is a WARN note (the manager's), and boot goes on.
 * One summary line only when servers are configured, so a village without MCP logs nothing here.
 */
export async function connectSharedMcp(mcp: HostMcp, diag: DiagSink): Promise<void> {
  const report = await mcp.manager.connectShared();
  if (report.statuses.length === 0) return;
  const connected = report.statuses.filter((s) => s.connected);
  diag.note('mcp connected', {
    servers: report.statuses.length,
    connected: connected.length,
    tools: connected.reduce((n, s) => n + s.tools.length, 0),
  }, connected.length === report.statuses.length ? 'info' : 'warn');
}

/**
 * The door (MCP server on 127.0.0.1), constructed for every host so `HostApi.door` can edit the shelf file; it is
 * live (opened, and reopened as it is switched) only when `serves` (serve, GUI). Requests go through `ask` — the
 * host's own `askExternal`, as every other face's.
 */
export function createHostDoor(serves: boolean, paths: VillagePaths, ask: AskExternal, manage: DoorManagement, diag: DiagSink, version: string): DoorController {
  return new DoorController(paths.shelf.mcpServer, serves, {
    askExternal: ask,
    manage,
    onError: (error) => diag.note('door error', { error: error instanceof Error ? error.name : 'unknown' }, 'warn'),
    version,
  });
}

/**
 * Opens a live door when the shelf's mcp_server.json switches it on. Writes the `mcp server:` band line when it
 * listens; a busy port or a broken file is a WARN note with its reason, never fatal.
 */
export async function openHostDoor(door: DoorController, band: StartupBand, diag: DiagSink): Promise<void> {
  if (!door.live) return;
  const status = await door.open();
  if (status.listening) band.mcpServer(status.port);
  else if (status.blocked || status.lastError !== null) {
    const file = door.file;
    const fix = status.blocked ? `fix or delete ${file} by hand` : `another program uses port ${status.port}: stop it, or choose another "port" in ${file}`;
    diag.note(
      'door',
      { listening: false, port: status.port, blocked: status.blocked, file: diagText(file), reason: diagText(status.lastError ?? 'unknown'), fix: diagText(fix) },
      'warn',
    );
  }
}

/** Probe approvals of this shelf, bound to this village's id (created only when schedules run). */
export async function loadProbeApprovals(
  paths: VillagePaths,
  runSchedules: boolean,
  diag: DiagSink,
): Promise<{ approvals: ProbeApprovals; villageId: string }> {
  const approvals = await ProbeApprovals.load(paths.shelf.probeApprovals, diag);
  let villageId = (await readVillageId(paths)) ?? '';
  if (runSchedules && villageId === '') {
    try {
      villageId = (await ensureVillageId(paths)).id;
    } catch (error) {
      // Without an id nothing is approved: the safe side.
      diag.note('village_id', { outcome: 'unavailable', code: isFuseforksError(error) ? error.code : 'UNKNOWN' }, 'warn');
    }
  }
  return { approvals, villageId };
}


/**
 * Pricing source (shelf pricing.json): the facet over it, built without reading or fetching anything — the table
 * is fetched only when a person asks, so boot reads, writes and logs nothing for it.
 */
export function pricingSource(ports: PricingPorts): PricingApi {
  return createPricing(ports);
}
